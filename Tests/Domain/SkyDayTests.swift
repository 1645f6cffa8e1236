import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// A day's sky worked out once (the Sun's places at three instants, the Moon's figures and the
/// seasons around it) gives what the series give at every instant of the day.
@Suite struct SkyDayTests {
    /// Places from the Arctic to the southern ocean, days across the year, one with a new moon.
    static let days: [(latitude: Double, longitude: Double, year: Int, month: Int, day: Int)] = [
        (69.65, 18.96, 2026, 6, 21), (46.55, 7.98, 2026, 12, 21), (-33.87, 151.21, 2027, 3, 20),
        (0.2, -78.5, 2026, 9, 23), (-54.8, -68.3, 2027, 1, 18), (51.48, 0.0, 2026, 11, 9)
    ]

    @Test(arguments: days)
    func theSunAtEveryInstantIsTheSeriesSun(place: (latitude: Double, longitude: Double, year: Int, month: Int, day: Int)) {
        let start = CivilTime(year: place.year, month: place.month, day: place.day).unixSeconds
        let ephemeris = SolarEphemeris(from: start, to: start + 86_400)
        var worst = (altitude: 0.0, azimuth: 0.0, hourAngle: 0.0)
        for minute in stride(from: 0, through: 1440, by: 7) {
            let t = start + Double(minute) * 60
            let full = SolarPosition.at(t, latitude: place.latitude, longitude: place.longitude)
            let quick = ephemeris.position(at: t, latitude: place.latitude, longitude: place.longitude)
            worst.altitude = max(worst.altitude, abs(full.altitude - quick.altitude))
            worst.azimuth = max(worst.azimuth, abs(Angle.signed(full.azimuth - quick.azimuth)) * cos(Angle.radians(full.altitude)))
            worst.hourAngle = max(worst.hourAngle, abs(Angle.signed(full.hourAngle - quick.hourAngle)))
        }
        // A millionth of a degree is 0.0036": far inside the series' own 0.0003 degrees.
        #expect(worst.altitude < 1e-5 && worst.azimuth < 1e-5 && worst.hourAngle < 1e-5, "\(worst)")
    }

    @Test(arguments: days)
    func theMoonAndTheSeasonsAreTheSeries(place: (latitude: Double, longitude: Double, year: Int, month: Int, day: Int)) {
        let start = CivilTime(year: place.year, month: place.month, day: place.day).unixSeconds
        let day = SkyDay(dayFrom: start, to: start + 86_400, latitude: place.latitude, longitude: place.longitude)
        for hour in stride(from: 0.0, through: 23.9, by: 1.3) {
            let t = start + hour * 3600
            let elongation = MoonPhases.elongation(at: t)
            #expect(abs(Angle.signed(day.moonElongation(at: t) - elongation)) < 0.01, "elongation at \(hour) h")
            #expect(abs(day.moonIllumination(at: t) - MoonPhases.illumination(at: t)) < 1e-4, "lit fraction at \(hour) h")
            #expect(abs(day.moonAge(at: t) - MoonPhases.age(at: t)) < 1e-3, "age at \(hour) h: \(day.moonAge(at: t)) against \(MoonPhases.age(at: t))")
            let next = Seasons.upcoming(after: t, count: 1).first
            #expect(day.nextSeason(after: t)?.event == next?.event && day.nextSeason(after: t)?.time == next?.time)
            for northern in [true, false] {
                let series = Seasons.progress(at: t, northern: northern)
                let quick = day.season(at: t, northern: northern)
                #expect(quick?.season == series?.season && quick?.elapsed == series?.elapsed && quick?.total == series?.total)
            }
        }
    }

    /// The day of a new moon: the age starts again from zero at the new moon, within the day.
    @Test func theAgeStartsAgainAtTheNewMoon() {
        let approximate = CivilTime(year: 2026, month: 11, day: 9).unixSeconds
        let newMoon = MoonPhases.next(.newMoon, after: approximate - 5 * 86_400)
        let start = (newMoon / 86_400).rounded(.down) * 86_400
        let day = SkyDay(dayFrom: start, to: start + 86_400, latitude: 51.48, longitude: 0)
        #expect(day.moonAge(at: newMoon + 60) < 0.001)
        #expect(day.moonAge(at: newMoon - 60) > 29)
    }

    @Test func aDayHoldsItsPlaceAndItsHours() {
        let start = CivilTime(year: 2026, month: 6, day: 21).unixSeconds
        let day = SkyDay(dayFrom: start, to: start + 86_400, latitude: 46.55, longitude: 7.98)
        #expect(day.holds(start + 3600, latitude: 46.6, longitude: 8.0))
        #expect(!day.holds(start + 3600, latitude: 46.7, longitude: 7.98), "15 km away")
        #expect(!day.holds(start + 86_400, latitude: 46.55, longitude: 7.98), "the next day")
    }
}
