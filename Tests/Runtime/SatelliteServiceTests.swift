import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// The ISS over the running device: one EVENT per visible pass, the configured minutes before
/// it rises, and nothing for passes that cannot be seen.
@Suite struct SatelliteServiceTests {
    static let tle = "ISS (ZARYA)\n1 25544U 98067A   24001.50000000  .00016717  00000-0  10270-3 0  9005\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"

    @Test func eachVisiblePassIsAnnouncedOnceBeforeItRises() throws {
        let file = "/tmp/lodestone-iss-\(getpid()).tle"
        defer { unlink(file) }
        #expect(writeFileAtomically(file, Array(Self.tle.utf8)))
        let service = try #require(SatelliteService(file: file, satellite: nil, alertMinutes: 5))
        #expect(service.name == "ISS (ZARYA)")
        let place = (latitude: 46.95, longitude: 7.45)
        let start = CivilTime(year: 2024, month: 1, day: 1, hour: 12).unixSeconds
        var events: [(time: Double, line: String)] = []
        for second in stride(from: 0.0, to: 86_400, by: 10) {
            for event in service.tick(place: place, time: start + second) { events.append((start + second, GPSDReports.line(event))) }
        }
        let visible = SatellitePasses.passes(service.satellite, from: start, to: start + 86_400, latitude: place.latitude, longitude: place.longitude,
                                             minimumAltitude: 10).filter(\.visible)
        #expect(!visible.isEmpty, "the day has visible passes over Bern")
        #expect(events.count == visible.count, "\(events.count) events for \(visible.count) visible passes")
        for (event, pass) in zip(events, visible) {
            #expect(event.time >= pass.rise - 300 && event.time < pass.rise - 290, "announced \(pass.rise - event.time) s before")
            #expect(event.line.contains("\"event\":\"satellitePass\"") && event.line.contains("\"satellite\":\"ISS (ZARYA)\""), "\(event.line)")
        }
        #expect(SatelliteService(file: "/tmp/no-such-\(getpid()).tle", satellite: nil, alertMinutes: 5) == nil)
    }
}
