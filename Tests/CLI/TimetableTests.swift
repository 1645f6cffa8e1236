import Glibc
import LodestoneCore
@testable import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneServices
@testable import LodestoneSettings
@testable import LodestoneStorage

/// The GTFS groundwork: the feed's CSV files read as RFC 4180 says (and refused with the line
/// when malformed), and departures from a small timetable made for the test, checked by hand:
/// weekday and weekend services, an exception, a trip past midnight, two time zones.
@Suite struct TimetableTests {
    @Test func csvAsTheFeedsWriteIt() throws {
        let text = "\u{FEFF}stop_id,stop_name,stop_desc\r\nS1,\"Spiez, Schiffstation\",\"the \"\"upper\"\" pier\nby the castle\"\r\nS2,Thun,\n"
        let csv = try CSVReader.rows(file: "stops.txt", bytes: Array(text.utf8))
        #expect(csv.rows.count == 2 && csv.columns.index["stop_id"] == 0)
        let first = try #require(csv.rows.first)
        #expect(first["stop_name"] == "Spiez, Schiffstation")
        #expect(first["stop_desc"] == "the \"upper\" pier\nby the castle")
        #expect(csv.rows.last?.line == 4 && csv.rows.last?["stop_desc"].isEmpty == true)
        for (bad, where_) in [("a,b\n1,2,3\n", "line 2"), ("a,b\n1,x\"y\n", "line 2"), ("a,b\n1,\"open\n", "line 2"), ("", "empty")] {
            do {
                _ = try CSVReader.rows(file: "f.txt", bytes: Array(bad.utf8))
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.description.contains("f.txt") && error.description.contains(where_), "\(error.description)")
            }
        }
        #expect(throws: CSVReader.Failure.self) { try CSVReader.rows(file: "s.txt", bytes: Array("stop_id\nS1\n".utf8), required: ["stop_id", "stop_name"]) }
    }

    /// Interlaken West (Zurich time) with a weekday trip at 08:30 and one at 24:30 (Saturday
    /// 00:30 for Friday's service), a weekend trip at 09:00; on Friday 2026-07-31 the weekday
    /// service is removed and the weekend one added. A stop in London keeps London's clock.
    static func timetable() -> Timetable {
        var t = Timetable()
        t.stops = [
            Timetable.Stop(id: "IW", name: "Interlaken West", latitude: 46.683, longitude: 7.851, timeZone: "Europe/Zurich"),
            Timetable.Stop(id: "LB", name: "London Bridge City Pier", latitude: 51.507, longitude: -0.087, timeZone: "Europe/London")
        ]
        t.routes = [
            Timetable.Route(id: "R1", shortName: "Panta Rhei", longName: "", type: 4),
            Timetable.Route(id: "R2", shortName: "", longName: "Thames Clipper", type: 4)
        ]
        t.trips = [
            Timetable.Trip(id: "T1", route: 0, service: "WK", headsign: "Thun"),
            Timetable.Trip(id: "T2", route: 0, service: "WK", headsign: "Spiez (night)"),
            Timetable.Trip(id: "T3", route: 0, service: "WE", headsign: "Thun"),
            Timetable.Trip(id: "T4", route: 1, service: "WK", headsign: "Greenwich")
        ]
        t.calls = [
            [
                Timetable.Call(trip: 0, seconds: 8 * 3600 + 1800), Timetable.Call(trip: 2, seconds: 9 * 3600),
                Timetable.Call(trip: 1, seconds: 24 * 3600 + 1800)
            ],
            [Timetable.Call(trip: 3, seconds: 10 * 3600)]
        ]
        t.calendar.weeks["WK"] = ServiceCalendar.Week(days: [true, true, true, true, true, false, false], start: 20_260_601, end: 20_260_930)
        t.calendar.weeks["WE"] = ServiceCalendar.Week(days: [false, false, false, false, false, true, true], start: 20_260_601, end: 20_260_930)
        t.calendar.exceptions = ["WK": [20_260_731: false], "WE": [20_260_731: true]]
        return t
    }

    static func local(_ time: Double, _ zone: String) -> String { ((try? TimeZoneRules(zone)) ?? .utc).iso8601(time) }

    @Test func departuresHonourTheCalendarMidnightAndZones() {
        let t = Self.timetable()
        // Friday 2026-07-24, 23:00 in Zurich (21:00 UTC): the night trip at 00:30, then Saturday's 09:00.
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds
        let night = t.departures(from: 0, after: friday, count: 2)
        #expect(night.map { Self.local($0.time, "Europe/Zurich") } == ["2026-07-25T00:30:00+02:00", "2026-07-25T09:00:00+02:00"], "\(night)")
        #expect(night.first?.headsign == "Spiez (night)" && night.first?.route == "Panta Rhei")
        // Monday 2026-07-27 07:00: the weekday 08:30 (no weekend trip).
        let monday = CivilTime(year: 2026, month: 7, day: 27, hour: 5).unixSeconds
        #expect(t.departures(from: 0, after: monday, count: 1).first.map { Self.local($0.time, "Europe/Zurich") } == "2026-07-27T08:30:00+02:00")
        // Friday 2026-07-31, 07:00: the weekday service is off and the weekend one on: 09:00, and
        // no 00:30 that night (its service did not run that Friday).
        let holiday = CivilTime(year: 2026, month: 7, day: 31, hour: 5).unixSeconds
        let exception = t.departures(from: 0, after: holiday, count: 2).map { Self.local($0.time, "Europe/Zurich") }
        #expect(exception == ["2026-07-31T09:00:00+02:00", "2026-08-01T09:00:00+02:00"], "\(exception)")
        // London: 10:00 British Summer Time is 09:00 UTC; the route's long name when it has no short one.
        let london = t.departures(from: 1, after: CivilTime(year: 2026, month: 7, day: 27, hour: 0).unixSeconds, count: 1)
        #expect(london.first.map { $0.time } == CivilTime(year: 2026, month: 7, day: 27, hour: 9).unixSeconds && london.first?.route == "Thames Clipper")
        // After the calendar ends: nothing in the week after.
        #expect(t.departures(from: 0, after: CivilTime(year: 2026, month: 10, day: 5).unixSeconds, count: 3).isEmpty)
        #expect(t.stops(matching: "interlaken") == [0] && t.stops(matching: "LB") == [1] && t.stops(matching: "zermatt").isEmpty)
    }

    /// A feed folder read back: the filters keep what they should and say what they skipped;
    /// the departures are the hand-checked ones; a malformed file is refused with file and line.
    @Test func aFeedFolderIsImportedFilteredAndRefusedWhenMalformed() throws {
        let directory = "/tmp/lodestone-gtfs-\(getpid())"
        removeTree(directory)
        defer { removeTree(directory) }
        #expect(makeDirectories(directory))
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nBLS,BLS Schifffahrt,https://www.bls.ch,Europe/Zurich\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,Spiez,46.686,7.680\nGE,Geneva,46.21,6.15\n",
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,Panta Rhei,,4\nB1,21,Bus,3\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Thun\nR1,WK,T2,Spiez (night)\nB1,WK,B9,Station\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:30:00,08:30:00,IW,1\nT1,09:10:00,09:10:00,SP,2\n"
                + "T2,24:30:00,24:30:00,IW,1\nB9,08:00:00,08:00:00,IW,1\nT1,10:00:00,10:00:00,GE,3\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260601,20260930\n"
        ]
        for (name, text) in files { #expect(writeFileAtomically(directory + "/" + name, Array(text.utf8))) }
        let (timetable, summary) = try GTFSImport.read(directory, filter: GTFSImport.Filter(near: (46.686, 7.77), radiusKilometres: 15, routeType: 4))
        #expect(timetable.stops.map(\.id) == ["IW", "SP"] && timetable.routes.map(\.id) == ["R1"] && timetable.trips.count == 2)
        #expect(summary.kept.first { $0.table == "stop times" }?.count == 3, "\(summary.kept)")
        #expect(summary.skipped.contains { $0.contains("1 stops farther") } && summary.skipped.contains { $0.contains("1 routes") }, "\(summary.skipped)")
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds
        let night = timetable.departures(from: 0, after: friday, count: 1)
        #expect(night.first.map { Self.local($0.time, "Europe/Zurich") } == "2026-07-25T00:30:00+02:00" && night.first?.headsign == "Spiez (night)")
        // Malformed: a time that is not one, named with its file and line.
        #expect(
            writeFileAtomically(directory + "/stop_times.txt", Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,8h30,8h30,IW,1\n".utf8)))
        do {
            _ = try GTFSImport.read(directory)
            Issue.record("a malformed time was accepted")
        } catch {
            #expect(error.description.contains("stop_times.txt line 2") && error.description.contains("8h30"), "\(error.description)")
        }
        unlink(directory + "/routes.txt")
        #expect(throws: GTFSImport.Failure.self) { try GTFSImport.read(directory) }
    }

    /// The commands: import a feed folder into a data directory, then ask for departures as
    /// a person and as a program would.
    @Test func theCommandsImportAndAnswer() throws {
        let feed = "/tmp/lodestone-gtfs-cli-\(getpid())", data = feed + "-data"
        removeTree(feed)
        defer { removeTree(feed); removeTree(data) }
        #expect(makeDirectories(feed))
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nBLS,BLS,https://www.bls.ch,Europe/Zurich\n",
            "stops.txt":
                "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,\"Spiez, Schiffstation\",46.686,7.680\nTH,Thun,46.758,7.628\n",
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,Panta Rhei,,4\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Thun\nR1,WK,T2,Spiez (night)\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:30:00,08:30:00,IW,1\nT1,09:10:00,09:10:00,SP,2\n"
                + "T1,10:00:00,10:00:00,TH,3\nT2,24:30:00,24:30:00,IW,1\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260601,20260930\n"
        ]
        for (name, text) in files { #expect(writeFileAtomically(feed + "/" + name, Array(text.utf8))) }
        let end = EndToEndTests()
        let (imported, said) = end.finish(try end.spawn(["timetable", "import", feed, "--data-dir", data]))
        #expect(imported == 0 && said.contains("kept 3 stops, 1 routes, 2 trips, 4 stop times"), "\(said)")
        let (status, json) = end.finish(
            try end.spawn(["departures", "--stop", "spiez", "--at", "2026-07-27T07:00:00+02:00", "--count", "2", "--json", "--data-dir", data]))
        let parsed = try JSONValue.parse(json)
        #expect(status == 0 && parsed["stop"]?["name"]?.stringValue == "Spiez, Schiffstation", "\(json)")
        let first = parsed["departures"]?.arrayValue?.first
        #expect(
            first?["time"]?.stringValue == "2026-07-27T09:10:00+02:00" && first?["minutes"]?.numberValue == 130 && first?["headsign"]?.stringValue == "Thun")
        let (_, text) = end.finish(try end.spawn(["departures", "--lat", "46.68", "--lon", "7.85", "--at", "2026-07-24T23:00:00+02:00", "--data-dir", data]))
        #expect(
            text.contains("Interlaken West") && text.contains("Sat 07-25 00:30") && text.contains("Spiez (night)") && text.contains("in 1 h 30 min"), "\(text)")
        // The times stand alone: their zone is said once (summer time at the stop).
        #expect(text.contains("times in CEST, the stop's zone (Europe/Zurich)"), "\(text)")
        // --at as a date (from the start of that day at the stop) and as a local time without an offset.
        let (_, monday) = end.finish(try end.spawn(["departures", "--stop", "IW", "--at", "2026-07-27", "--count", "1", "--json", "--data-dir", data]))
        #expect(monday.contains(#""time":"2026-07-27T08:30:00+02:00""#) && monday.contains(#""trip":"T1""#) && monday.contains(#""light":"day""#), "\(monday)")
        let (_, local) = end.finish(try end.spawn(["departures", "--stop", "IW", "--at", "2026-07-27T08:31", "--count", "1", "--json", "--data-dir", data]))
        #expect(local.contains(#""time":"2026-07-28T00:30:00+02:00""#), "08:31 at the stop is after the 08:30: \(local)")
        let (refused, refusal) = end.finish(try end.spawn(["departures", "--stop", "IW", "--at", "tomorrow", "--data-dir", data]))
        #expect(refused == 2 && refusal.contains("--at takes a date"), "\(refusal)")
        let (bad, why) = end.finish(try end.spawn(["timetable", "import", feed + "/nothing", "--data-dir", data]))
        #expect(bad == 1 && why.contains("the timetable kept before stays"), "\(why)")
        // Favourites in an order of one's own; marks from the person's file, a bad line skipped.
        _ = end.finish(try end.spawn(["departures", "favourite", "add", "spiez", "--data-dir", data]))
        _ = end.finish(try end.spawn(["departures", "favourite", "add", "IW", "--data-dir", data]))
        let (_, order) = end.finish(try end.spawn(["departures", "favourite", "move", "IW", "1", "--data-dir", data]))
        #expect(order.hasPrefix("1. IW  Interlaken West\n2. SP  Spiez, Schiffstation"), "\(order)")
        #expect(writeFileAtomically(data + "/timetable-marks.csv", Array("*night*,late boat,2\nnot a mark\nR1,Panta Rhei,5\n".utf8)))
        let (_, marked) = end.finish(
            try end.spawn([
                "departures", "--stop", "favourite", "--at", "2026-07-24T23:00:00+02:00", "--count", "2",
                "--json", "--data-dir", data
            ]))
        #expect(
            marked.contains("\"mark\":{\"label\":\"late boat\",\"rating\":2}") && marked.contains("\"mark\":{\"label\":\"Panta Rhei\",\"rating\":5}"),
            "\(marked)")
        #expect(marked.contains("timetable-marks.csv line 2"), "the bad line is named")
        #expect(
            TransitPreferences.matches("*night*", "Spiez (night)") && !TransitPreferences.matches("thun*", "Spiez") && TransitPreferences.matches("a*b", "abab")
        )
    }

    /// On the running device: DEPARTURES for a stop asked by name, and a reminder 10 minutes
    /// before the night boat leaves, once.
    @Test func departuresAndRemindersOnTheSocket() throws {
        let data = "/tmp/lodestone-transit-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(Self.timetable()))
        let transit = try #require(TransitService(dataDirectory: data))
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds
        let request = try DeparturesRequest.decode(try JSONValue.parse(#"{"stop":"interlaken","count":2,"remind":"T2","minutes":10}"#))
        let line = GPSDReports.line(transit.handle(request, state: NavigationState(), time: friday))
        #expect(line.hasPrefix(#"{"class":"DEPARTURES","stop":{"id":"IW","name":"Interlaken West"}"#), "\(line)")
        #expect(line.contains(#""time":"2026-07-25T00:30:00+02:00","route":"Panta Rhei","headsign":"Spiez (night)","trip":"T2","minutes":90"#), "\(line)")
        #expect(line.contains("10 min before the Panta Rhei to Spiez (night)"), "\(line)")
        #expect(transit.tick(time: friday + 79 * 60).isEmpty)
        let due = transit.tick(time: friday + 80 * 60).map(GPSDReports.line)
        #expect(due.count == 1 && due.first?.contains(#""event":"departure""#) == true && due.first?.contains("2026-07-25T00:30:00+02:00") == true, "\(due)")
        #expect(transit.tick(time: friday + 81 * 60).isEmpty, "once")
        #expect(throws: RequestError.self) { try DeparturesRequest.decode(try JSONValue.parse(#"{"count":500}"#)) }
        if case .error = transit.handle(DeparturesRequest(), state: NavigationState(), time: friday) {
        } else {
            Issue.record("no favourite and no fix: an error that says what to give")
        }
    }

    /// Times are the agency's, shown in the stop's own zone; a trip's last call and a call with
    /// pickup_type 1 are arrivals, never departures; each departure names the next stop; the
    /// calendar's end is validUntil, with a warning within 14 days. Kept across the index.
    @Test func agencyTimesArrivalsAndTheNextStop() throws {
        let feed = "/tmp/lodestone-agency-\(getpid())", data = feed + "-data"
        removeTree(feed)
        removeTree(data)
        defer { removeTree(feed); removeTree(data) }
        #expect(makeDirectories(feed))
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Channel boats,https://example.org,Europe/Zurich\n",
            "stops.txt":
                "stop_id,stop_name,stop_lat,stop_lon,stop_timezone\nZU,Zürich,47.37,8.54,\nLO,London Pier,51.507,-0.087,Europe/London\nRA,Rapperswil,47.226,8.815,\n",
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,7,,4\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,D,T1,Rapperswil\nR1,D,T2,London\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type\n"
                + "T1,08:00:00,08:00:00,ZU,1,0\nT1,08:05:00,08:05:00,LO,2,1\nT1,08:10:00,08:10:00,RA,3,0\n"
                + "T2,09:00:00,09:00:00,LO,1,\nT2,10:00:00,10:00:00,ZU,2,\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261205\n"
        ]
        for (name, text) in files { #expect(writeFileAtomically(feed + "/" + name, Array(text.utf8))) }
        let end = EndToEndTests()
        _ = end.finish(try end.spawn(["timetable", "import", feed, "--data-dir", data]))
        // 09:00 in the agency's zone (Zurich, UTC+1 in November) is 08:00 in London.
        let (_, london) = end.finish(
            try end.spawn(["departures", "--stop", "LO", "--at", "2026-11-26T07:30:00Z", "--count", "1", "--json", "--data-dir", data]))
        #expect(
            london.contains(#""time":"2026-11-26T08:00:00+00:00""#) && london.contains(#""minutes":30"#) && london.contains(#""next":"Zürich""#), "\(london)")
        #expect(!london.contains(#""trip":"T1""#), "T1 sets down at London Pier (pickup_type 1): no departure there")
        // Rapperswil is T1's last call: an arrival. Zürich: T1 leaves (next London Pier); T2 ends there.
        let (_, rapperswil) = end.finish(try end.spawn(["departures", "--stop", "RA", "--at", "2026-11-26T06:00:00Z", "--json", "--data-dir", data]))
        #expect(rapperswil.contains(#""departures":[]"#), "\(rapperswil)")
        let (_, zurich) = end.finish(
            try end.spawn(["departures", "--stop", "ZU", "--at", "2026-11-26T06:00:00Z", "--count", "3", "--json", "--data-dir", data]))
        #expect(zurich.contains(#""trip":"T1""#) && zurich.contains(#""next":"London Pier""#) && !zurich.contains(#""trip":"T2""#), "\(zurich)")
        #expect(zurich.contains(#""validUntil":"2026-12-05""#) && zurich.contains("end on 2026-12-05, in 9 days"), "\(zurich)")
        // The same from the feed kept beside the index (the index refused).
        let store = TimetableStore(dataDirectory: data)
        #expect(writeFileAtomically(store.indexPath, Array("damaged".utf8)))
        let (fromFeed, _) = try store.loadNotingRefusal()
        let at = CivilTime(year: 2026, month: 11, day: 26, hour: 6).unixSeconds
        let lo = try #require(fromFeed.stops(matching: "LO").first), zu = try #require(fromFeed.stops(matching: "ZU").first)
        #expect(fromFeed.agencyZone == "Europe/Zurich")
        #expect(
            fromFeed.departures(from: lo, after: at, count: 1).map(\.trip) == ["T2"]
                && fromFeed.departures(from: zu, after: at, count: 5).map(\.trip) == ["T1", "T1", "T1", "T1", "T1"])
    }

    /// Reminders people manage: set with ?REMINDER, listed with their ids, kept on the card so
    /// that a device restarted before the boat still reminds once, cancelled by id; a reminder
    /// whose boat left while the device was off is dropped unsaid; a damaged entry is skipped
    /// and the whole ones kept. "nearest" and a date in DEPARTURES.
    @Test func remindersSurviveARestartAndCanBeCancelled() throws {
        let data = "/tmp/lodestone-reminders-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(Self.timetable()))
        let friday = CivilTime(year: 2026, month: 7, day: 24, hour: 6).unixSeconds  // 08:00 in Zurich
        let first = try #require(TransitService(dataDirectory: data))
        let set = GPSDReports.line(first.handle(.add(trip: "T1", stop: "IW", minutes: 15), state: NavigationState(), time: friday))
        #expect(
            set.contains(
                #""id":"1","stop":{"id":"IW","name":"Interlaken West"},"route":"Panta Rhei","headsign":"Thun","trip":"T1","departure":"2026-07-24T08:30:00+02:00","at":"2026-07-24T08:15:00+02:00""#
            ), "\(set)")
        let again = GPSDReports.line(first.handle(.add(trip: "T1", stop: "IW", minutes: 15), state: NavigationState(), time: friday))
        #expect(again.contains("already set") && !again.contains(#""id":"2""#), "one reminder per boat: \(again)")
        _ = first.handle(.add(trip: "T2", stop: "IW", minutes: 10), state: NavigationState(), time: friday)
        if case .error(let why) = first.handle(.add(trip: "T9", stop: "IW", minutes: 10), state: NavigationState(), time: friday) {
            #expect(why.contains("does not leave Interlaken West"))
        } else {
            Issue.record("a trip that does not leave the stop is refused")
        }
        // The device restarts: both reminders are back; the 08:30 one sounds at 08:15, once.
        let second = try #require(TransitService(dataDirectory: data))
        let listed = GPSDReports.line(second.handle(.list, state: NavigationState(), time: friday))
        #expect(listed.contains(#""id":"1""#) && listed.contains(#""id":"2""#), "\(listed)")
        #expect(second.tick(time: friday + 14 * 60).isEmpty)
        #expect(second.tick(time: friday + 15 * 60).count == 1)
        let third = try #require(TransitService(dataDirectory: data))
        #expect(third.tick(time: friday + 16 * 60).isEmpty, "a reminder given is not given again after a restart")
        let cancelled = GPSDReports.line(third.handle(.cancel(id: "2"), state: NavigationState(), time: friday))
        #expect(cancelled.contains("reminder 2 cancelled") && !cancelled.contains(#""id":"2""#), "\(cancelled)")
        if case .error = third.handle(.cancel(id: "2"), state: NavigationState(), time: friday) {} else { Issue.record("cancelling twice says so") }
        // A reminder for a boat that left while the device was off is dropped unsaid.
        _ = third.handle(.add(trip: "T1", stop: "IW", minutes: 10), state: NavigationState(), time: friday)
        let late = try #require(TransitService(dataDirectory: data))
        #expect(late.tick(time: friday + 3600).isEmpty)
        // A damaged entry: skipped and said; the whole ones kept.
        let store = ReminderStore(dataDirectory: data)
        #expect(
            writeFileAtomically(
                store.path,
                Array(
                    #"[{"id":"7","stop":"IW","trip":"T2","departure":1785018600,"at":1785018000},{"id":"8","stop":"IW"},{"id":"9","stop":"IW","trip":"T2","departure":1e300,"at":0}]"#
                        .utf8)))
        let loaded = store.load()
        #expect(loaded.reminders.map(\.id) == ["7"] && loaded.problems.count == 2, "\(loaded.problems)")
        // DEPARTURES from the start of a local date at the stop, and the nearest whatever the favourites.
        #expect(TransitPreferences(dataDirectory: data).saveFavourites(["LB"]))
        let day = GPSDReports.line(late.handle(DeparturesRequest(stop: "IW", count: 1, day: "2026-07-27"), state: NavigationState(), time: friday))
        #expect(day.contains(#""time":"2026-07-27T08:30:00+02:00""#), "\(day)")
        var here = NavigationState()
        (here.fix.mode, here.fix.latitude, here.fix.longitude) = (.threeD, 46.69, 7.85)
        let nearest = GPSDReports.line(late.handle(DeparturesRequest(stop: "nearest"), state: here, time: friday))
        #expect(nearest.contains(#""id":"IW""#), "the nearest, not the favourite: \(nearest)")
    }

    /// The departures page: the next three from the favourite stop with their countdowns and
    /// marks; with only the marked ones (what the flip toggles), the unmarked are left out.
    @Test func theDeparturesPageShowsTheNextThreeAndOnlyTheMarked() throws {
        let data = "/tmp/lodestone-transit-page-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(Self.timetable()))
        let preferences = TransitPreferences(dataDirectory: data)
        #expect(preferences.saveFavourites(["IW"]))
        #expect(writeFileAtomically(preferences.marksPath, Array("*night*,late boat,2\n".utf8)))
        // A device in Zurich, the stops' zone.
        let services = OutputServices(localClock: LocalClock(zone: try TimeZoneRules("Europe/Zurich")))
        services.transit = TransitService(dataDirectory: data)
        services.transit?.localClock = services.localClock
        // The services' panel for the page, taken by the display as any report.
        let panels = PagePanels(services: services)
        // Thursday 2026-07-23 20:00 in Zurich: Thursday's night boat (00:30 Friday), Friday's
        // 08:30, Friday's night boat; marked only: the night boats, Monday's the third.
        let thursday = CivilTime(year: 2026, month: 7, day: 23, hour: 18).unixSeconds
        func model(onlyMarked: Bool) -> DisplayModel {
            let feed = DisplayFeed(title: "test")
            for panel in panels.reports(for: .departures, latest: NavigationState(), time: thursday, onlyMarkedDepartures: onlyMarked) {
                feed.take(panel)
            }
            return feed.model()
        }
        let all = model(onlyMarked: false)
        let rows = try #require(all.departures?.rows)
        // The next three always; more after them where a large panel has the rows.
        #expect(rows.count <= DisplayModel.DeparturesPanel.listed)
        #expect(
            rows.prefix(3).map(\.clock) == ["00:30", "08:30", "00:30"] && rows.first?.mark == "late boat" && rows.first?.rating == 2, "\(rows.map(\.clock))")
        #expect(rows.first?.secondsToGo == 4.5 * 3600)
        let text = DisplayPage.departures.draw(all, columns: 60, rows: 14).text
        #expect(text.contains("DEPARTURES  8/12") && text.contains("Interlaken West") && text.contains("Panta Rhei  Spiez (night)"), "\(text)")
        #expect(text.contains("late boat **") && text.contains("in 4 h 30 min"), "\(text)")
        let small = DisplayPage.departures.draw(all, columns: 21, rows: 7).text
        #expect(small.contains("00:30 in 4 h 30 min") && small.contains(" Panta Rhei"), "\(small)")
        let marked = model(onlyMarked: true)
        #expect((marked.departures?.rows.count ?? 0) >= 3 && marked.departures?.rows.allSatisfy { $0.mark == "late boat" } == true)
        #expect(DisplayPage.departures.draw(marked, columns: 60, rows: 14).text.contains("Only marked departures"))
        // Without a timetable the page says how to get one.
        #expect(DisplayPage.departures.draw(DisplayModel(), columns: 60, rows: 10).text.contains("lodestone timetable import"))
        #expect(Configuration.FlipAction(rawValue: "markedDepartures") != nil)
    }

    /// With the flip set to the marked departures, the walk's flip (90 s in) comes as an EVENT
    /// that does not claim the night theme changed. The run lasts 150 s of the walk, so a busy
    /// machine that keeps the simulation behind its pace still reaches the flip.
    @Test func aFlipForMarkedDeparturesLeavesTheThemeAlone() throws {
        let data = "/tmp/lodestone-flip-\(getpid())", socket = data + ".sock", config = data + ".json"
        removeTree(data)
        defer { removeTree(data); unlink(config) }
        #expect(writeFileAtomically(config, Array(#"{"flipAction": "markedDepartures"}"#.utf8)))
        let end = EndToEndTests()
        let child = try end.spawn([
            "run", "--duration", "15", "--speed", "10", "--socket", socket, "--display", "none",
            "--scenario", "walk", "--data-dir", data, "--config", config
        ])
        let client = try #require(end.connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true,"rates":{"IMU":0}};"#)
        var flips: [JSONValue] = []
        var seen: [String] = []
        while let line = client.readLine(timeoutMilliseconds: 8000) {
            seen.append(String(line.prefix(90)))
            if let report = try? JSONValue.parse(line), report["event"]?.stringValue == "flip" { flips.append(report) }
        }
        let (status, output) = end.finish(child)
        #expect(status == 0, "\(output)")
        #expect(!flips.isEmpty && flips.allSatisfy { $0["nightTheme"]?.boolValue == false }, "\(flips) \(seen.count) \(seen.suffix(3))")
    }
}
