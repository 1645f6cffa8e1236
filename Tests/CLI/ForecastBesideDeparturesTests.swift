import Glibc
import LodestoneCore
@testable import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneServices
@testable import LodestoneRuntime
@testable import LodestoneStorage
import Testing

/// The Zambretti forecast where people read the weather of the next hours: in ENV and on the
/// station lines, beside each departure and wave within its 12 hours (on the socket and from
/// the command line, which reads the pressure `lodestone run` kept).
@Suite(.serialized) struct ForecastBesideDeparturesTests {
    /// 1030 hPa, steady for 3 hours: A, settled fine.
    static func environment(time: Double) -> EnvironmentReport {
        let trend = PressureTrend.Reading(hPaPerHour: 0.1, band: .steady, minutes: 180, threeHourChange: 0.3, characteristic: 0, sixHourChange: nil)
        return EnvironmentReport(
            pressure: PressureSample(time: 0, pressure: 102_000, temperature: 8), barometricAltitude: 60, qnh: 1030,
            weather: WeatherFigures(seaLevelPressure: 1030, altitudeFused: 60, trend: trend), device: "/dev/i2c-1",
            time: time, latitude: 46.7)
    }

    @Test func envAndTheStationLinesCarryTheForecast() throws {
        let env = Self.environment(time: CivilTime(year: 2026, month: 1, day: 10, hour: 9).unixSeconds)
        let line = GPSDReports.line(.environment(env))
        #expect(line.contains(#""forecast":{"letter":"A","text":"Settled fine","trend":"steady"}"#), "\(line)")
        var calm = env
        calm.weather?.trend = nil
        #expect(calm.outlook == nil && !GPSDReports.line(.environment(calm)).contains("forecast"), "no trend yet, no forecast")
        // A wind from the south at a fixed mast lowers the reading by 12 hPa: 1018 steady is B.
        var windy = env
        windy.weather?.seaLevelPressure = 1030
        windy.station = StationFigures()
        windy.station?.wind = StationFigures.Wind(speed: 5, gust: nil, lull: nil, now: 5, direction: 180, seconds: 600)
        #expect(windy.outlook?.forecast.letter == "B", "\(String(describing: windy.outlook))")
        let feed = DisplayFeed(title: "lake")
        feed.take(.environment(windy))
        // The card's letter in the model; the pages show its sentence, never the letter.
        #expect(feed.model().station?.outlook == "B")
        let page = DisplayPage.barometer.draw(feed.model(), columns: 80, rows: 24).text
        #expect(page.contains("Outlook Fine weather") && !page.contains(" B "), "\(page)")
    }

    /// DEPARTURES on the socket: the departures within the forecast's 12 hours carry it,
    /// later ones null; WAVES the same per wave.
    @Test func departuresAndWavesOnTheDevice() throws {
        let data = "/tmp/lodestone-forecast-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(WavesTests.lake()))
        let transit = try #require(TransitService(dataDirectory: data))
        // Midnight in Zurich: the 05:00 to 12:00 boats are within 12 hours, the 12:30 on not.
        let issued = CivilTime(year: 2026, month: 7, day: 3, hour: 22).unixSeconds
        let outlook = Self.environment(time: issued).outlook
        let request = try DeparturesRequest.decode(try JSONValue.parse(#"{"stop":"weststeg","count":20}"#))
        let line = GPSDReports.line(transit.handle(request, state: NavigationState(), time: issued, outlook: outlook))
        let parsed = try JSONValue.parse(line)
        let departures = try #require(parsed["departures"]?.arrayValue)
        #expect(departures.count == 20)
        for d in departures {
            let time = d["time"]?.stringValue ?? ""
            let within = time <= "2026-07-04T12:00:00+02:00"
            #expect(
                (d["forecast"]?["letter"]?.stringValue == "A") == within && (d["forecast"] == .null) == !within, "\(time): \(String(describing: d["forecast"]))"
            )
        }
        let waves = WavesAnswer.report(WavesRequest(place: .stop("weststeg"), date: "2026-07-04"), transit: transit, now: issued, outlook: outlook)
        let wavesLine = GPSDReports.line(waves)
        #expect(wavesLine.contains(#""trip":"X600","ship":null,"waves":1,"points":2,"light":"day","forecast":{"letter":"A""#), "\(wavesLine.prefix(900))")
        #expect(wavesLine.contains(#""trip":"X780","ship":null,"waves":1,"points":2,"light":"day","forecast":null"#))
    }

    /// The command line reads the kept sea-level pressure: falling 3 hPa in 3 hours to 1002
    /// (U, rain at times, worse later; in a northern summer the fall reads 7 hPa lower: X).
    @Test func theCommandLineReadsTheKeptPressure() throws {
        let data = "/tmp/lodestone-forecast-cli-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(WavesTests.lake()))
        let end = EndToEndTests()
        let (bare, bareOutput) = end.finish(try end.spawn(["departures", "--stop", "weststeg", "--json", "--data-dir", data]))
        #expect(bare == 0 && bareOutput.contains(#""forecast":null"#), "no history kept: \(bareOutput.prefix(300))")
        var history = History()
        let now = OutputClock.unixTime()
        for minute in 0...180 { history.add(1005 - Double(minute) / 60, time: now - Double(180 - minute) * 60) }
        #expect(writeFileAtomically(data + "/history.bin", HistoryFile.encode(["seaLevelPressure": history])))
        let summer = (4...9).contains(CivilTime(unixSeconds: now).month)
        let expected =
            summer
            ? #""forecast":{"letter":"X","text":"Very unsettled, rain","trend":"falling"}"#
            : #""forecast":{"letter":"U","text":"Rain at times, worse later","trend":"falling"}"#
        let (status, output) = end.finish(try end.spawn(["departures", "--stop", "weststeg", "--count", "2", "--json", "--data-dir", data]))
        #expect(status == 0 && output.contains(expected), "\(output.prefix(600))")
        // Today's waves: those in the forecast's hours carry it, the others null.
        let (wavesStatus, waves) = end.finish(try end.spawn(["waves", "--stop", "weststeg", "--json", "--data-dir", data]))
        // The command's own "now" lies between the test's and this (a loaded machine can take
        // a minute over the commands before): a wave is judged only when it is inside or
        // outside the forecast's hours for every "now" in between.
        let after = OutputClock.unixTime()
        let list = try #require(try JSONValue.parse(waves.split(separator: "\n").first { $0.hasPrefix("{") }.map(String.init) ?? "")["waves"]?.arrayValue)
        #expect(wavesStatus == 0 && list.count == 36)
        let letter = summer ? "X" : "U"
        for wave in list {
            let time = try #require(CivilTime.parseISO8601(wave["time"]?.stringValue ?? ""))
            let within = time >= after - 3600 + 60 && time <= now + 12 * 3600 - 120
            let beyond = time < now - 3600 - 120 || time > after + 12 * 3600 + 60
            if within { #expect(wave["forecast"]?["letter"]?.stringValue == letter, "\(wave)") }
            if beyond { #expect(wave["forecast"] == .null, "\(wave)") }
        }
    }
}
