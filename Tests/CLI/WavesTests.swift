import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage
import Testing

/// The lakeside day on a lake made here: two piers 6 km apart east-west, a boat every 30
/// minutes from 05:00 to 22:30 taking 20 minutes across, marks giving ships their waves. The
/// waves at a pier, at a spot on either side of the route (the wake's arrival worked out here
/// from the geometry, not from the program), and the command's JSON contract.
@Suite(.serialized) struct WavesTests {
    /// West pier, east pier; the local frame about the spot is checked against a hand figure.
    static func lake() -> Timetable {
        var t = Timetable()
        t.stops = [
            Timetable.Stop(id: "W", name: "Weststeg", latitude: 47.30, longitude: 8.50, timeZone: "Europe/Zurich"),
            Timetable.Stop(id: "E", name: "Oststeg", latitude: 47.30, longitude: 8.5794, timeZone: "Europe/Zurich")
        ]
        t.routes = [Timetable.Route(id: "R", shortName: "11", longName: "", type: 4)]
        var west: [Timetable.Call] = [], east: [Timetable.Call] = []
        for (n, minutes) in stride(from: 5 * 60, through: 22 * 60 + 30, by: 30).enumerated() {
            t.trips.append(Timetable.Trip(id: "X\(minutes)", route: 0, service: "D", headsign: "Oststeg"))
            west.append(Timetable.Call(trip: n, seconds: minutes * 60))
            east.append(Timetable.Call(trip: n, seconds: minutes * 60 + 20 * 60))
        }
        t.calls = [west, east]
        t.calendar.weeks["D"] = ServiceCalendar.Week(days: [true, true, true, true, true, true, true], start: 20_260_101, end: 20_271_231)
        return t
    }
    static let date = (year: 2026, month: 7, day: 4)
    static let marks = [
        TransitPreferences.Mark(match: "X600", label: "Stadt Zürich", rating: 5, waves: 3),
        TransitPreferences.Mark(match: "X7*", label: "Panta Rhei", rating: 4, waves: 2)
    ]

    @Test func wavesAtAPierWithTheirShipsPointsAndLight() throws {
        let day = try #require(WavesAnswer.day(Self.lake(), marks: Self.marks, place: .stop(0), date: Self.date, now: 0))
        #expect(day.items.count == 36, "every half hour from 05:00 to 22:30 at the west pier")
        let zone = try TimeZoneRules("Europe/Zurich")
        let first = try #require(day.items.first), ten = try #require(day.items.first { $0.departure.trip == "X600" })
        #expect(zone.iso8601(first.time) == "2026-07-04T05:00:00+02:00" && first.wave.light == .twilight, "05:00 is before sunrise (05:35 at Zurich)")
        #expect(ten.mark?.label == "Stadt Zürich" && ten.wave.waves == 3 && ten.wave.points == 10 && ten.wave.light == .day)
        let seven = try #require(day.items.first { $0.departure.trip == "X720" })
        #expect(seven.wave.waves == 2 && seven.wave.points == 5, "a trip pattern with * gives its ship's waves")
        let last = try #require(day.items.last)
        #expect(last.wave.light == .dark, "22:30 is after civil dusk (about 22:04)")
        // Light judged against the project's own sunrise and dusk.
        let sunrise = try #require(day.sun.sunrise), sunset = try #require(day.sun.sunset)
        #expect(day.items.allSatisfy { ($0.time >= sunrise && $0.time < sunset) == ($0.wave.light == .day) })
        // The best session takes the ten-pointer at 10:00: 09:00-11:00 or thereabouts, five waves.
        let best = try #require(day.sessions.first)
        #expect(best.start <= ten.time && best.end >= ten.time && best.waveCount == 5 && best.end - best.start == 7200, "\(day.sessions)")
        // The frequency counts the lit waves only: the Sun up, twilight ones left out.
        let lit = day.items.filter { $0.time >= sunrise && $0.time < sunset }
        #expect(day.frequency.count == lit.count && lit.count < day.items.filter { $0.wave.light != .dark }.count)
        #expect(day.frequency.meanGapMinutes == 30)
    }

    /// A spot 1 km north of the route's middle and one 1 km south: the boat passes 1000 m off
    /// at the leg's middle (10 minutes in) at 6 km / 20 min = 5 m/s; the wake arrives
    /// 1000 / tan(19.47°) / 5 = 565.8 s later.
    @Test func theWakeAtASpotOnEitherSideOfTheRoute() throws {
        let middle = 8.5397
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        for offset in [1000.0, -1000.0] {
            let spot = (latitude: 47.30 + offset / metresPerDegree, longitude: middle)
            let day = try #require(
                WavesAnswer.day(
                    Self.lake(), marks: [], place: .spot(latitude: spot.latitude, longitude: spot.longitude, radius: 1500),
                    date: Self.date, now: 0))
            let ten = try #require(day.items.first { $0.departure.trip == "X600" })
            let leaves = CivilTime(year: 2026, month: 7, day: 4, hour: 8).unixSeconds  // 10:00 in Zurich
            let length = (0.0794 * cos(47.30 * .pi / 180) * metresPerDegree)
            let speed = length / 1200
            let passes = leaves + 600
            let expected = passes + 1000 / tan(19.47 * .pi / 180) / speed
            #expect(
                abs((ten.distance ?? 0) - 1000) < 2 && abs((ten.passes ?? 0) - passes) < 2 && abs(ten.time - expected) < 3,
                "offset \(offset): \(ten.distance ?? -1) m at \(ten.passes ?? 0), arrives \(ten.time) (expected \(expected))")
        }
        // Beyond the radius no wave.
        let far = try #require(
            WavesAnswer.day(
                Self.lake(), marks: [], place: .spot(latitude: 47.30 + 2000 / metresPerDegree, longitude: middle, radius: 1500),
                date: Self.date, now: 0))
        #expect(far.items.isEmpty)
    }

    /// The marks file's fourth column, refused when it is not 1 to 3; the command's JSON.
    @Test func theCommandAndTheMarks() throws {
        let data = "/tmp/lodestone-waves-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(Self.lake()))
        #expect(writeFileAtomically(data + "/timetable-marks.csv", Array("X600,Stadt Zürich,5,3\nX7*,Panta Rhei,4,2\nX800,bad,3,4\nR,,2\n".utf8)))
        let (marks, problems) = TransitPreferences(dataDirectory: data).marks()
        #expect(marks.map(\.waves) == [3, 2, 1] && problems.count == 1 && problems.first?.contains("line 3") == true, "\(problems)")
        let end = EndToEndTests()
        let (status, json) = end.finish(try end.spawn(["waves", "--stop", "weststeg", "--date", "2026-07-04", "--json", "--data-dir", data]))
        let parsed = try JSONValue.parse(json.split(separator: "\n").first { $0.hasPrefix("{") }.map(String.init) ?? "")
        #expect(
            status == 0 && parsed["place"]?["stop"]?["id"]?.stringValue == "W" && parsed["date"]?.stringValue == "2026-07-04"
                && parsed["zone"]?.stringValue == "Europe/Zurich", "\(json.prefix(400))")
        for key in ["sunrise", "sunset", "civilDawn", "civilDusk", "daylightSeconds"] { #expect(parsed["daylight"]?[key] != nil, "daylight.\(key)") }
        let wave = parsed["waves"]?.arrayValue?.first { $0["trip"]?.stringValue == "X600" }
        #expect(
            wave?["time"]?.stringValue == "2026-07-04T10:00:00+02:00" && wave?["ship"]?.stringValue == "Stadt Zürich"
                && wave?["waves"]?.numberValue == 3 && wave?["points"]?.numberValue == 10 && wave?["light"]?.stringValue == "day", "\(String(describing: wave))"
        )
        let session = parsed["sessions"]?.arrayValue?.first
        #expect(session?["start"] != nil && session?["end"] != nil && session?["waves"] != nil && session?["score"] != nil)
        #expect(parsed["frequency"]?["byHour"]?.arrayValue?.count == 24 && parsed["frequency"]?["meanGapMinutes"]?.numberValue == 30)
        let (spotStatus, spot) = end.finish(try end.spawn(["waves", "--spot", "47.309,8.5397", "--date", "2026-07-04", "--json", "--data-dir", data]))
        #expect(spotStatus == 0, "\(spot.prefix(300))")
        #expect(spot.contains(#""arrival":"#) && spot.contains(#""distance":"#) && spot.contains(#""spot":{"lat":47.309"#), "\(spot.suffix(600))")
        let (refused, why) = end.finish(try end.spawn(["waves", "--data-dir", data]))
        #expect(refused == 2 && why.contains("--stop NAME|ID, or --spot LAT,LON"), "\(why)")
    }
}
