import Glibc
import LodestoneCore
@testable import LodestoneRuntime
import Testing
@testable import LodestoneStorage

/// A feed is held to what GTFS allows before anything is kept: each rule refuses the feed with
/// the file and the line, and the timetable kept before stays as it was.
@Suite struct GTFSValidationTests {
    /// A small feed that imports, each file replaceable by a test.
    static let sound = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nBLS,BLS,https://www.bls.ch,Europe/Zurich\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,stop_timezone\nIW,Interlaken West,46.683,7.851,\nSP,Spiez,46.686,7.680,Europe/Zurich\n",
        "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR1,Panta Rhei,,4\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Thun\nR1,WK,T2,Spiez (night)\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:30:00,08:30:00,IW,1\nT1,09:10:00,09:10:00,SP,2\nT2,24:30:00,24:30:00,IW,1\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260601,20260930\n",
        "calendar_dates.txt": "service_id,date,exception_type\nWK,20260731,2\n"
    ]

    /// The sound feed with `changes` written over it, in a folder of its own.
    static func feed(_ name: String, _ changes: [String: String]) -> String? {
        let folder = "/tmp/lodestone-gtfs-rules-\(name)-\(getpid())"
        removeTree(folder)
        guard makeDirectories(folder) else { return nil }
        for (file, text) in sound.merging(changes, uniquingKeysWith: { $1 }) {
            guard writeFileAtomically(folder + "/" + file, Array(text.utf8)) else { return nil }
        }
        return folder
    }

    /// Imports the sound feed changed by `changes` and expects a refusal that names `place`
    /// (the file and line) and says `why`.
    static func expectRefused(
        _ name: String, _ changes: [String: String], place: String, why: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try #require(feed(name, changes), sourceLocation: sourceLocation)
        defer { removeTree(folder) }
        do {
            _ = try GTFSImport.read(folder)
            Issue.record("accepted: \(changes)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.contains(place) && error.description.contains(why), "\(error.description)", sourceLocation: sourceLocation)
        }
    }

    @Test func theSoundFeedImports() throws {
        let folder = try #require(Self.feed("sound", [:]))
        defer { removeTree(folder) }
        let (timetable, _) = try GTFSImport.read(folder)
        #expect(timetable.stops.map(\.timeZone) == ["Europe/Zurich", "Europe/Zurich"] && timetable.calls(at: 0).count == 2)
    }

    @Test func aStopTimezoneOutsideTheZoneDatabaseIsRefused() throws {
        try Self.expectRefused(
            "stopzone", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,stop_timezone\nIW,Interlaken West,46.683,7.851,Mars/Olympus_Mons\n"],
            place: "stops.txt line 2", why: "Mars/Olympus_Mons")
        // A name that would be a path out of the zone folder is refused before it is used as one.
        try Self.expectRefused(
            "stoppath", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,stop_timezone\nIW,Interlaken West,46.683,7.851,../../../etc/passwd\n"],
            place: "stops.txt line 2", why: "is not a time zone's name")
        #expect(
            !GTFSImport.ZoneCheck.isZoneName("/etc/localtime") && !GTFSImport.ZoneCheck.isZoneName("Europe/../UTC")
                && !GTFSImport.ZoneCheck.isZoneName("+02:00") && GTFSImport.ZoneCheck.isZoneName("America/Port-au-Prince")
                && GTFSImport.ZoneCheck.isZoneName("Etc/GMT+1"))
    }

    @Test func anAgencyTimezoneOutsideTheZoneDatabaseIsRefused() throws {
        try Self.expectRefused(
            "agencyzone", ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nBLS,BLS,https://www.bls.ch,Europe/Atlantis\n"],
            place: "agency.txt line 2", why: "Europe/Atlantis")
    }

    @Test func aTimeIsHMMSSWithMinutesAndSecondsBelowSixty() throws {
        for (index, bad) in ["+8:00:00", "8:-0:00", "9h10", "8:60:00", "8:30:5", "8:30:60", " :30:00"].enumerated() {
            try Self.expectRefused(
                "time\(index)", ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,,\(bad),IW,1\n"],
                place: "stop_times.txt line 2", why: "'\(bad)' is not a time")
        }
        #expect(GTFSImport.seconds("25:10:00") == 90_600 && GTFSImport.seconds("8:05:09") == 29_109)
    }

    @Test func anArrivalTimeIsCheckedLikeADepartureTime() throws {
        try Self.expectRefused(
            "arrival", ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:30:00,08:30:00,IW,1\nT1,9h10,09:10:00,SP,2\n"],
            place: "stop_times.txt line 3", why: "arrival_time '9h10'")
    }

    @Test func aDateIsADayOfTheCalendar() throws {
        try Self.expectRefused(
            "date",
            ["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260601,20260231\n"],
            place: "calendar.txt line 2", why: "20260231")
        try Self.expectRefused(
            "exceptiondate", ["calendar_dates.txt": "service_id,date,exception_type\nWK,20260229,2\n"],
            place: "calendar_dates.txt line 2", why: "YYYYMMDD")
        #expect(GTFSImport.date("20240229") == 20_240_229 && GTFSImport.date("20260229") == nil && GTFSImport.date("2026061") == nil)
    }

    @Test func aDateRangeDoesNotRunBackwards() throws {
        try Self.expectRefused(
            "reversed",
            ["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260930,20260601\n"],
            place: "calendar.txt line 2", why: "backwards")
    }

    @Test func aStopIDNamedTwiceIsRefused() throws {
        try Self.expectRefused(
            "stopid",
            ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,Spiez,46.686,7.680\nIW,Interlaken Ost,46.690,7.869\n"],
            place: "stops.txt line 4", why: "stop_id 'IW' a second time")
    }

    @Test func aTripIDNamedTwiceIsRefused() throws {
        try Self.expectRefused(
            "tripid", ["trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Thun\nR1,WK,T2,Spiez (night)\nR1,WE,T1,Brienz\n"],
            place: "trips.txt line 4", why: "trip_id 'T1' a second time")
    }

    @Test func aHeaderNamingAColumnTwiceIsRefused() throws {
        try Self.expectRefused(
            "header", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,stop_name\nIW,Interlaken West,46.683,7.851,Elsewhere\n"],
            place: "stops.txt line 1", why: "'stop_name' twice")
    }

    @Test func aQuoteInsideAnUnquotedFieldIsRefused() throws {
        try Self.expectRefused(
            "innerquote", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,ab\"c,46.686,7.680\n"],
            place: "stops.txt line 3", why: "a quote inside an unquoted field")
    }

    @Test func textAfterAClosingQuoteIsRefused() throws {
        try Self.expectRefused(
            "afterquote", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,\"ab\"c,46.686,7.680\n"],
            place: "stops.txt line 3", why: "text after a closing quote")
    }

    /// A refused feed, from the command: the timetable kept before answers as it did, its
    /// files untouched.
    @Test func aRefusedFeedLeavesTheKeptTimetableUntouched() throws {
        let good = try #require(Self.feed("keep-good", [:]))
        let bad = try #require(
            Self.feed("keep-bad", ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nIW,Interlaken West,46.683,7.851\nSP,\"ab\"c,46.686,7.680\n"]))
        let data = good + "-data"
        defer { removeTree(good); removeTree(bad); removeTree(data) }
        let end = EndToEndTests()
        let (imported, said) = end.finish(try end.spawn(["timetable", "import", good, "--data-dir", data]))
        #expect(imported == 0, "\(said)")
        let ask = ["departures", "--stop", "IW", "--at", "2026-07-27T07:00:00+02:00", "--json", "--data-dir", data]
        let (_, before) = end.finish(try end.spawn(ask))
        let files = ["stops.txt", "stop_times.txt", "index.bin"]
        let kept = files.map { readFileBytes(data + "/timetable/" + $0) }
        let (refused, why) = end.finish(try end.spawn(["timetable", "import", bad, "--data-dir", data]))
        #expect(refused == 1 && why.contains("stops.txt line 3") && why.contains("the timetable kept before stays"), "\(why)")
        let (_, after) = end.finish(try end.spawn(ask))
        #expect(before.contains("08:30:00") && after == before, "\(before) / \(after)")
        #expect(files.map { readFileBytes(data + "/timetable/" + $0) } == kept)
    }
}
