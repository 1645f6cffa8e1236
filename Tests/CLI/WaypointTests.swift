import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneServices
@testable import LodestoneStorage

@Suite struct WaypointTests {
    @Test func navigationGivesBearingDistanceTurnAndTimeToGo() {
        let summit = Waypoint(name: "Summit", latitude: 47.01, longitude: 8)
        let way = Navigation.to(summit, latitude: 47, longitude: 8, heading: 350, speed: 1.5)
        #expect(abs(way.bearing) < 0.01 || abs(way.bearing - 360) < 0.01)
        #expect(abs(way.distance - 1111.6) < 1, "\(way.distance)")
        #expect(abs((way.relativeBearing ?? 99) - 10) < 0.01, "turn right 10° across north")
        #expect(abs((way.timeToGo ?? 0) - way.distance / 1.5) < 0.01)
        #expect(Navigation.to(summit, latitude: 47, longitude: 8, heading: nil, speed: 0).timeToGo == nil)
        // Across the antimeridian: 0.2 degrees east of 179.9 E is due east.
        let east = Navigation.to(Waypoint(name: "E", latitude: 0, longitude: -179.9), latitude: 0, longitude: 179.9, heading: 0, speed: nil)
        #expect(abs(east.bearing - 90) < 0.01 && east.distance < 23_000)
    }

    /// Planned at home: `waypoint add --lat --lon` with no running instance writes the store,
    /// with the elevation given or none; the running instance's service gives a place named by
    /// coordinates no elevation either, and one saved at the fix the fix's altitude.
    @Test func aPlannedWaypointNeedsNoInstanceAndBorrowsNoAltitude() throws {
        let directory = "/tmp/lodestone-planned-\(getpid())"
        defer { removeTree(directory) }
        let end = EndToEndTests()
        let absent = "/tmp/lodestone-planned-\(getpid())-none.sock"
        let (saved, output) = end.finish(
            try end.spawn([
                "waypoint", "add", "Summit", "--lat", "46.5374", "--lon", "7.9626", "--ele", "4158",
                "--data-dir", directory, "--socket", absent
            ]))
        #expect(saved == 0, "\(output)")
        let (plain, _) = end.finish(try end.spawn(["waypoint", "add", "Lake", "--lat", "46.52", "--lon", "7.95", "--data-dir", directory, "--socket", absent]))
        #expect(plain == 0)
        let (refused, why) = end.finish(try end.spawn(["waypoint", "add", "Half", "--lat", "46.52", "--data-dir", directory]))
        #expect(refused == 2 && why.contains("both --lat and --lon"), "\(why)")
        let stored = WaypointStore(dataDirectory: directory).load()
        #expect(stored.first { $0.name == "Summit" }?.elevation == 4158)
        #expect(stored.first { $0.name == "Lake" }.map { $0.elevation.isNaN } == true, "no elevation unless given")

        let service = WaypointService(store: WaypointStore(dataDirectory: directory))
        var state = NavigationState()
        (state.fix.mode, state.fix.latitude, state.fix.longitude, state.fix.altitudeMSL) = (.threeD, 46.55, 7.98, 1900)
        _ = service.handle(.add(name: "Far", latitude: 46.57, longitude: 7.99, symbol: nil, notes: nil), state: state)
        _ = service.handle(.add(name: "Here", latitude: nil, longitude: nil, symbol: nil, notes: nil), state: state)
        let after = WaypointStore(dataDirectory: directory).load()
        #expect(after.first { $0.name == "Far" }.map { $0.elevation.isNaN } == true, "not the receiver's 1900 m")
        #expect(after.first { $0.name == "Here" }?.elevation == 1900)
    }

    /// A place saved with one tap gets a name to change later; renamed and deleted from the
    /// phone (the socket's ?WAYPOINT), a typed place in any notation, and the arrival at the one
    /// navigated to, with navigation following a rename and ending with a delete.
    @Test func savedWithOneTapNamedLaterAndArrivedAt() throws {
        let directory = "/tmp/lodestone-wptap-\(getpid())"
        defer { removeTree(directory) }
        let store = WaypointStore(dataDirectory: directory)
        let service = WaypointService(store: store)
        var state = NavigationState()
        (state.fix.mode, state.fix.latitude, state.fix.longitude, state.fix.altitudeMSL, state.fix.speed) = (.threeD, 46.55, 7.98, 1900, 1.2)
        let first = GPSDReports.line(service.handle(try WaypointRequest.decode(JSONValue.parse(#"{"action":"add"}"#)), state: state))
        #expect(first.contains("saved 'Waypoint 1'"), "\(first)")
        _ = service.handle(try WaypointRequest.decode(JSONValue.parse(#"{"action":"add"}"#)), state: state)
        let typed = try WaypointRequest.decode(JSONValue.parse(#"{"action":"add","name":"Hut","position":"N 46°33.3000' E 7°58.8000'"}"#))
        _ = service.handle(typed, state: state)
        let hut = try #require(store.load().first { $0.name == "Hut" })
        #expect(abs(hut.latitude - 46.555) < 1e-9 && abs(hut.longitude - 7.98) < 1e-9)
        #expect(throws: RequestError.self) { try WaypointRequest.decode(JSONValue.parse(#"{"action":"add","position":"somewhere"}"#)) }
        #expect(store.load().map(\.name).sorted() == ["Hut", "Waypoint 1", "Waypoint 2"])

        _ = service.handle(.goto(name: "Hut"), state: state)
        let renamed = GPSDReports.line(service.handle(.rename(name: "Hut", to: "Spring"), state: state))
        #expect(renamed.contains("\"name\":\"Spring\"") && renamed.contains("renamed 'Hut' to 'Spring'"), "\(renamed)")
        let taken = GPSDReports.line(service.handle(.rename(name: "Waypoint 1", to: "Spring"), state: state))
        #expect(taken.contains("ERROR") && taken.contains("exists"), "\(taken)")
        #expect(!GPSDReports.line(service.report(message: nil)).contains("arrived"), "556 m away")
        state.fix.latitude = 46.5548
        service.update(state)
        #expect(GPSDReports.line(service.report(message: nil)).contains("\"arrived\":true"), "within 50 m")
        let deleted = GPSDReports.line(service.handle(.delete(name: "Spring"), state: state))
        #expect(deleted.contains("deleted 'Spring'") && !deleted.contains("\"name\""), "\(deleted)")
        #expect(!service.isNavigating)
    }

    /// The way back through the service: WAYPOINT carries the backtrack figures, leaving the
    /// path gives one offTrack EVENT, coming back one more, and stop ends it.
    @Test func theWayBackIsReportedAndWarnsOffTrack() throws {
        let directory = "/tmp/lodestone-back-\(getpid())"
        defer { removeTree(directory) }
        let service = WaypointService(store: WaypointStore(dataDirectory: directory))
        let path: [(latitude: Double, longitude: Double)] = (0...100).map { (46.5 + Double($0) * 10 / 111_132.0, 7.9) }
        func state(north: Double, east: Double) -> NavigationState {
            var s = NavigationState()
            (s.fix.mode, s.fix.latitude, s.fix.longitude, s.fix.speed) = (.threeD, 46.5 + north / 111_132.0, 7.9 + east / (111_320 * 0.6884), 1.2)
            return s
        }
        let started = GPSDReports.line(service.startBacktrack(path: path, state: state(north: 1000, east: 0), time: 1_782_028_800))
        #expect(started.contains("\"backtrack\":true") && started.contains("taking you back along 1 km"), "\(started)")
        var events: [String] = []
        for (north, east) in [(900.0, 0.0), (800, 70), (780, 45), (760, 10), (740, 0)] {
            service.update(state(north: north, east: east), time: 1_782_028_800)
            events += service.takeEvents().map(GPSDReports.line)
        }
        #expect(events.count == 2 && events.first?.contains("\"active\":true") == true && events.last?.contains("\"active\":false") == true, "\(events)")
        let report = GPSDReports.line(service.report(message: nil))
        let json = try JSONValue.parse(report)
        #expect(abs((json["remaining"]?.numberValue ?? 0) - 740) < 15 && json["offTrack"]?.boolValue == false, "\(report)")
        #expect((json["bearing"]?.numberValue).map { abs($0 - 180) < 5 } == true && json["timeToGo"]?.numberValue != nil)
        _ = service.handle(.stop, state: state(north: 740, east: 0))
        #expect(!service.isNavigating && !GPSDReports.line(service.report(message: nil)).contains("backtrack"))
    }

    @Test func storeKeepsNamesUniqueAndExportsValidGPX() throws {
        let directory = "/tmp/lodestone-waypoints-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let store = WaypointStore(dataDirectory: directory)
        try store.add(Waypoint(name: "Hut & spring", latitude: 46.5, longitude: 7.9, elevation: 2100, symbol: "Water Source"))
        try store.add(Waypoint(name: "Car", latitude: 46.45, longitude: 7.85))
        #expect(throws: WaypointStore.Failure.self) { try store.add(Waypoint(name: "Car", latitude: 1, longitude: 1)) }
        #expect(store.load().count == 2)
        let sorted = Navigation.sorted(store.load(), latitude: 46.46, longitude: 7.86)
        #expect(sorted.first?.waypoint.name == "Car")
        try store.delete(name: "Car")
        #expect(store.load().map(\.name) == ["Hut & spring"])
        let gpx = WaypointStore.gpx(store.load())
        #expect(gpx.contains("<name>Hut &amp; spring</name>") && gpx.contains("<sym>Water Source</sym>"))
        let xsd = EndToEndTests.boardsDirectory + "/../../shared/vectors/gpx11.xsd"
        guard access("/usr/bin/xmllint", X_OK) == 0, access(xsd, R_OK) == 0 else {
            print("skipped: xmllint or ../shared/vectors/gpx11.xsd is not present")
            return
        }
        let path = directory + "/export.gpx"
        #expect(writeFileAtomically(path, Array(gpx.utf8)))
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawnProgram("/usr/bin/xmllint", ["--noout", "--schema", xsd, path]))
        #expect(status == 0, "\(output)")
    }

    /// GPX as other apps write it: 1.0 and 1.1, a namespace prefix, single quotes, entities,
    /// CDATA, comments, extensions, routes and tracks around the waypoints.
    static let foreignGPX = """
        <?xml version="1.0" encoding="UTF-8" standalone="no" ?>
        <!-- exported by a phone app -->
        <gpx:gpx xmlns:gpx="http://www.topografix.com/GPX/1/1" version="1.1" creator="x">
          <gpx:metadata><gpx:name>Huts</gpx:name><gpx:time>2026-01-01T00:00:00Z</gpx:time></gpx:metadata>
          <gpx:wpt lat='46.5772' lon="8.0053">
            <gpx:ele>2834.5</gpx:ele>
            <gpx:time>2026-07-01T06:30:15.5+02:00</gpx:time>
            <gpx:name>M&#xF6;nchsjoch &amp; Hut</gpx:name>
            <gpx:cmt>book ahead</gpx:cmt>
            <gpx:sym>Lodge</gpx:sym>
            <gpx:extensions><x:color xmlns:x="urn:x">red</x:color></gpx:extensions>
          </gpx:wpt>
          <gpx:wpt lat="46.1" lon="7.9"><gpx:name><![CDATA[Spring <north>]]></gpx:name><gpx:desc>dry in August</gpx:desc></gpx:wpt>
          <gpx:wpt lat="95" lon="7.9"><gpx:name>Off the map</gpx:name></gpx:wpt>
          <gpx:wpt lat="46.2" lon="7.8"></gpx:wpt>
          <gpx:trk><gpx:name>not a waypoint</gpx:name><gpx:trkseg><gpx:trkpt lat="46" lon="7"/></gpx:trkseg></gpx:trk>
        </gpx:gpx>
        """

    @Test func gpxFromOtherAppsIsRead() throws {
        let read = try GPXReader.waypoints(Self.foreignGPX)
        #expect(read.waypoints.count == 2 && read.skipped == 2)
        let hut = read.waypoints[0]
        #expect(hut.name == "Mönchsjoch & Hut" && hut.latitude == 46.5772 && hut.longitude == 8.0053 && hut.elevation == 2834.5)
        #expect(hut.symbol == "Lodge" && hut.notes == "book ahead")
        #expect(hut.created == CivilTime(year: 2026, month: 7, day: 1, hour: 4, minute: 30, second: 15.5).unixSeconds)
        #expect(read.waypoints[1].name == "Spring <north>" && read.waypoints[1].notes == "dry in August" && read.waypoints[1].symbol == "Flag")
        #expect(throws: GPXReader.Failure.self) { try GPXReader.waypoints("<kml><Placemark/></kml>") }
        #expect(throws: GPXReader.Failure.self) { try GPXReader.waypoints("<gpx><wpt lat=\"1\" lon=\"2\"><name>cut") }
        #expect(throws: GPXReader.Failure.self) { try GPXReader.waypoints("<gpx><wpt lat=1 lon=2></wpt></gpx>") }
    }

    @Test func ourExportComesBackUnchanged() throws {
        let saved = [
            Waypoint(
                name: "A & B", latitude: 46.123_456_7, longitude: -7.654_321, elevation: 1234.5, symbol: "Campground",
                notes: "<quiet> 'spot'", created: 1_782_028_800),
            Waypoint(name: "Plain", latitude: -33.9, longitude: 151.2)
        ]
        let read = try GPXReader.waypoints(WaypointStore.gpx(saved))
        #expect(read.waypoints.count == 2)
        #expect(read.waypoints[0] == saved[0])
        #expect(read.waypoints[1].name == "Plain" && read.waypoints[1].latitude == -33.9 && !read.waypoints[1].elevation.isFinite)
    }

    @Test func importKeepsWhatIsSavedAndRenamesOtherPlaces() throws {
        let store = WaypointStore(dataDirectory: "/tmp/lodestone-waypoint-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try store.add(Waypoint(name: "Hut", latitude: 46.5, longitude: 8))
        let incoming = [
            Waypoint(name: "Hut", latitude: 46.5, longitude: 8),  // the same place
            Waypoint(name: "Hut", latitude: 46.7, longitude: 8.2),  // another hut
            Waypoint(name: "Lake", latitude: 46.6, longitude: 8.1)
        ]
        let summary = try store.importing(incoming)
        #expect(summary == WaypointStore.ImportSummary(added: 1, unchanged: 1, renamed: 1))
        #expect(store.load().map(\.name) == ["Hut", "Hut (2)", "Lake"])
        // Imported again (a backup restored twice, a friend's file read again): the other hut is
        // found under the name the first import gave it, and nothing is added.
        #expect(try store.importing(incoming) == WaypointStore.ImportSummary(added: 0, unchanged: 3, renamed: 0))
        #expect(store.load().map(\.name) == ["Hut", "Hut (2)", "Lake"])
    }

    @Test func isoTimesParseWithOffsetsAndFractions() {
        #expect(CivilTime.parseISO8601("2026-06-21T08:00:00Z") == 1_782_028_800)
        #expect(CivilTime.parseISO8601("2026-06-21T10:00:00+02:00") == 1_782_028_800)
        #expect(CivilTime.parseISO8601("2026-06-21T03:30:00.250-0430") == 1_782_028_800.25)
        #expect(CivilTime.parseISO8601("2026-06-21T08:00:00") == 1_782_028_800)
        for bad in ["2026-13-01T00:00:00Z", "2026-06-21", "2026-06-21T08:00:00Q", "2026-06-21T25:00:00Z", "yesterday"] {
            #expect(CivilTime.parseISO8601(bad) == nil, "\(bad)")
        }
    }

    @Test func cutAndMangledGPXNeverCrashes() {
        let bytes = Array(Self.foreignGPX.utf8)
        var imported = 0
        for end in 0..<bytes.count {
            if let read = try? GPXReader.waypoints(String(decoding: bytes[..<end], as: UTF8.self)) { imported += read.waypoints.count }
        }
        #expect(imported == 0, "a cut file imports nothing")
        var seed: UInt32 = 7
        for _ in 0..<2000 {
            var mangled = bytes
            for _ in 0..<4 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                mangled[Int(seed >> 8) % mangled.count] =
                    [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "&"), 0xFF][Int(seed >> 28) % 5]
            }
            _ = try? GPXReader.waypoints(String(decoding: mangled, as: UTF8.self))
        }
    }
}
