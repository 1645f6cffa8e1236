import LodestoneCore
@testable import LodestoneDomain
import Testing

/// The Zambretti forecaster worked by hand on the disc: 950 to 1050 hPa in 22 steps of
/// 4.545 hPa, the wind and the season moving the reading, each scale's step showing a letter.
@Suite struct ZambrettiTests {
    func letter(_ pressure: Double, _ change: Double, wind: Double? = nil, month: Int, northern: Bool = true) -> String? {
        Zambretti.forecast(pressure: pressure, threeHourChange: change, windFrom: wind, month: month, northern: northern)?.letter
    }

    @Test func theScalesByHand() {
        // 1030 steady: step 17 (80 / 4.545 = 17.6) of the steady scale, A.
        #expect(letter(1030, 0, month: 1) == "A")
        #expect(Zambretti.forecast(pressure: 1030, threeHourChange: 0, month: 1)?.text == "Settled fine")
        // 990 falling in winter: step 8, X; in summer the falling reading is 7 hPa lower: step 7, Z.
        #expect(letter(990, -3, month: 1) == "X" && letter(990, -3, month: 7) == "Z")
        #expect(Zambretti.forecast(pressure: 990, threeHourChange: -3, month: 7)?.text == "Stormy, much rain")
        // 1000 rising in summer reads 1007: step 12, F; 1001 rising in winter: step 11, G.
        #expect(letter(1000, 2, month: 7) == "F" && letter(1001, 2, month: 1) == "G")
        #expect(Zambretti.forecast(pressure: 1001, threeHourChange: 2, month: 1)?.text == "Fairly fine, possible showers early")
    }

    @Test func theWindAndTheHemisphere() {
        // 1010 steady: a north wind reads 6% of the span higher (1016, step 14, B), a south wind
        // 12% lower (998, step 10, P); none: step 13, E; 350° is north.
        #expect(letter(1010, 0, wind: 0, month: 1) == "B" && letter(1010, 0, wind: 350, month: 1) == "B")
        #expect(letter(1010, 0, wind: 180, month: 1) == "P" && letter(1010, 0, month: 1) == "E")
        // South of the equator the winds mirror: a south wind is the cold, dry one.
        #expect(letter(1010, 0, wind: 180, month: 1, northern: false) == "B" && letter(1010, 0, wind: 0, month: 1, northern: false) == "P")
        // ... and January is summer.
        #expect(letter(1000, 2, month: 1, northern: false) == "F" && letter(1001, 2, month: 7, northern: false) == "G")
    }

    @Test func theTrendTheEndsAndTheRefusals() {
        #expect(Zambretti.Trend(threeHourChange: 1.5) == .steady && Zambretti.Trend(threeHourChange: 1.6) == .rising)
        #expect(Zambretti.Trend(threeHourChange: -1.5) == .steady && Zambretti.Trend(threeHourChange: -1.6) == .falling)
        let high = Zambretti.forecast(pressure: 1060, threeHourChange: 0, month: 3), low = Zambretti.forecast(pressure: 940, threeHourChange: 0, month: 3)
        #expect(high?.letter == "A" && high?.exceptional == true && low?.letter == "Z" && low?.exceptional == true)
        #expect(Zambretti.forecast(pressure: 1013, threeHourChange: 0, month: 3)?.exceptional == false)
        #expect(
            Zambretti.forecast(pressure: .nan, threeHourChange: 0, month: 3) == nil && Zambretti.forecast(pressure: 1013, threeHourChange: 0, month: 13) == nil)
        #expect(
            Zambretti.forecast(pressure: 1013, threeHourChange: .infinity, month: 3) == nil
                && Zambretti.forecast(pressure: 50, threeHourChange: 0, month: 3) == nil)
        #expect(Zambretti.texts.count == 26)
    }

    /// A forecast speaks for the 12 hours after it was made (and the hour before, for a
    /// departure just gone), never later.
    @Test func anOutlookCoversTwelveHours() throws {
        let issued = CivilTime(year: 2026, month: 1, day: 10, hour: 9).unixSeconds
        let outlook = try #require(WeatherOutlook(seaLevelPressure: 1030, threeHourChange: 0, windFrom: nil, time: issued, latitude: 47))
        #expect(outlook.forecast(at: issued + 11.9 * 3600)?.letter == "A" && outlook.forecast(at: issued + 12.1 * 3600) == nil)
        #expect(outlook.forecast(at: issued - 1800) != nil && outlook.forecast(at: issued - 7200) == nil)
        // January south of the equator is summer: a rising 1000 reads as 1007.
        #expect(WeatherOutlook(seaLevelPressure: 1000, threeHourChange: 2, windFrom: nil, time: issued, latitude: -33)?.forecast.letter == "F")
    }

    /// The kept history's newest minute and its change over 3 hours.
    @Test func theChangeOverThreeHoursFromTheHistory() throws {
        var history = History()
        let start = CivilTime(year: 2026, month: 1, day: 10, hour: 6).unixSeconds
        for minute in 0...180 { history.add(1005 - Double(minute) / 60, time: start + Double(minute) * 60 + 5) }
        let newest = try #require(history.newest(changeOver: 3 * 3600))
        #expect(abs(newest.value - 1002) < 0.01 && abs(newest.change + 3) < 0.01 && abs(newest.time - (start + 180 * 60 + 30)) < 1)
        var short = History()
        for minute in 0...60 { short.add(1005, time: start + Double(minute) * 60) }
        #expect(short.newest(changeOver: 3 * 3600) == nil, "an hour of history has no 3-hour change")
    }
}
