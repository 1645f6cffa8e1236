import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing

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
        let xsd = BoardFileTests.boardsDirectory + "/../../shared/vectors/gpx11.xsd"
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
}
