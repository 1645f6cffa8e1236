import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneStorage
import Testing

/// The web app's waves are the command's: `GET /api/v1/waves` answers, for the same stop or
/// spot and date, the very object `lodestone waves --json` prints; a number out of range is
/// refused with what is valid; a departure's trip is followed from call to call.
@Suite(.serialized) struct WavesWebTests {
    @Test func theAPIAnswersWhatTheCommandPrints() throws {
        guard (try? TimeZoneRules("Europe/Zurich")) != nil else {
            print("skipped: /usr/share/zoneinfo has no Europe/Zurich (install tzdata)")
            return
        }
        let data = "/tmp/lodestone-waves-web-\(getpid())", file = data + ".json"
        removeTree(data)
        defer { removeTree(data); unlink(file) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(WavesTests.lake()))
        #expect(writeFileAtomically(data + "/timetable-marks.csv", Array("X600,Stadt Zürich,5,3\nX7*,Panta Rhei,4,2\n".utf8)))
        // A date before both the command's clock and the simulated walk's (2026-06-21): every
        // session is over for both, and no forecast reaches it.
        let questions: [(command: [String], query: String)] = [
            (["--stop", "W"], "stop=W"), (["--stop", "Oststeg"], "stop=Oststeg"),
            (["--spot", "47.309,8.5397"], "lat=47.309&lon=8.5397"),
            (["--spot", "47.309,8.5397", "--radius", "5000"], "lat=47.309&lon=8.5397&radius=5000")
        ]
        let end = EndToEndTests()
        var printed: [String] = []
        for question in questions {
            let (status, output) = end.finish(try end.spawn(["waves"] + question.command + ["--date", "2026-03-15", "--json", "--data-dir", data]))
            #expect(status == 0, "\(output.prefix(300))")
            printed.append(output.split(separator: "\n").first { $0.hasPrefix("{") }.map(String.init) ?? "")
        }
        let port = EndToEndTests.freePort()
        try #require(ConfigurationReloadTests.save(#"{"http": {"listen": "127.0.0.1:\#(port)", "access": "open-read"}}"#, to: file))
        let child = try end.spawn([
            "run", "--config", file, "--scenario", "walk", "--duration", "20", "--display", "none", "--socket", data + ".sock", "--data-dir", data
        ])
        _ = end.connect(data + ".sock", to: child)
        let answers = questions.map { OneZoneTests.get("/api/v1/waves?\($0.query)&date=2026-03-15", port: port) }
        let refusals = [
            ("date=2026-13-01&stop=W", "date is YYYY-MM-DD"), ("stop=W&date=1800-01-01", "1900-2100"),
            ("lat=95&lon=8.5", "lat and lon are degrees"), ("lat=47.3", "both given"), ("lat=47.3&lon=8.5&radius=5", "10 to 20000"),
            ("lat=47.3&lon=8.5&radius=nan", "10 to 20000"), ("stop=W&radius=100", "radius goes with lat and lon"), ("", "stop is a stop's id"),
            ("stop=W&lat=47&lon=8", "not both")
        ].map { (OneZoneTests.get("/api/v1/waves?\($0.0)", port: port), $0.1) }
        let unknown = OneZoneTests.get("/api/v1/waves?stop=Nowhere", port: port)
        let trip = OneZoneTests.get("/api/v1/trip?stop=W&trip=X600&time=2026-03-15T10:00:00%2B01:00", port: port)
        let tripRefused = OneZoneTests.get("/api/v1/trip?stop=W&trip=X600&time=soon", port: port)
        kill(child.pid, SIGTERM)
        _ = end.finish(child)
        for (command, api) in zip(printed, answers) {
            #expect(!command.isEmpty && command == api, "the command printed\n\(command.prefix(600))\nthe API answered\n\(api.prefix(600))")
        }
        let first = try JSONValue.parse(answers.first ?? "")
        #expect(first["zone"]?.stringValue == "Europe/Zurich" && first["waves"]?.arrayValue?.count == 36, "\(answers.first?.prefix(300) ?? "")")
        #expect(first["sessions"]?.arrayValue?.isEmpty == false)
        for (body, sentence) in refusals { #expect(body.contains(sentence), "\(sentence): \(body.prefix(200))") }
        #expect(unknown.contains("no stop matches 'Nowhere'"), "\(unknown)")
        // The lake's trips call at the west pier, then the east one 20 minutes later.
        let calls = try JSONValue.parse(trip)
        #expect(calls["class"]?.stringValue == "TRIP" && calls["time"]?.stringValue == "2026-03-15T10:00:00+01:00", "\(trip)")
        #expect(tripRefused.contains("time is when the trip leaves the stop"), "\(tripRefused)")
    }

    /// A departure's onward calls follow each call's next stop, in time order.
    @Test func aTripsCallsFromItsDeparture() throws {
        var lake = WavesTests.lake()
        let third = Timetable.Stop(id: "S", name: "Südsteg", latitude: 47.28, longitude: 8.55, timeZone: "Europe/Zurich")
        lake.stops = [lake.stops[0], lake.stops[1], third]
        // Every trip goes on from the east pier to the south one, 15 minutes later.
        lake.calls[0] = lake.calls[0].map { Timetable.Call(trip: $0.trip, seconds: $0.seconds, next: 1) }
        lake.calls[1] = lake.calls[1].map { Timetable.Call(trip: $0.trip, seconds: $0.seconds, next: 2) }
        lake.calls.append(lake.calls[1].map { Timetable.Call(trip: $0.trip, seconds: $0.seconds + 15 * 60, departs: false) })
        let start = try TimeZoneRules("Europe/Zurich").midnight(year: 2026, month: 7, day: 4) + 10 * 3600
        let departure = try #require(lake.departures(from: 0, after: start, count: 1).first)
        let calls = lake.onwardCalls(of: departure)
        #expect(departure.trip == "X600" && calls.map(\.stop) == [1, 2], "\(calls)")
        #expect(calls.map { $0.time - departure.time } == [1200, 2100], "\(calls)")
        // The last call goes nowhere.
        let last = try #require(lake.departures(from: 2, after: start, count: 1, arrivals: true).first)
        #expect(lake.onwardCalls(of: last).isEmpty)
    }
}
