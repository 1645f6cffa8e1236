import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage
import LodestoneVerify

/// The ISS over the running device: one EVENT per visible pass, the configured minutes before
/// it rises, and nothing for passes that cannot be seen.
@Suite struct SatelliteServiceTests {
    static let tle =
        "ISS (ZARYA)\n1 25544U 98067A   24001.50000000  .00016717  00000-0  10270-3 0  9005\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"

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
        let visible = SatellitePasses.passes(
            service.satellite, from: start, to: start + 86_400, latitude: place.latitude, longitude: place.longitude,
            minimumAltitude: 10
        ).filter(\.visible)
        #expect(!visible.isEmpty, "the day has visible passes over Bern")
        #expect(events.count == visible.count, "\(events.count) events for \(visible.count) visible passes")
        for (event, pass) in zip(events, visible) {
            #expect(event.time >= pass.rise - 300 && event.time < pass.rise - 290, "announced \(pass.rise - event.time) s before")
            #expect(event.line.contains("\"event\":\"satellitePass\"") && event.line.contains("\"satellite\":\"ISS (ZARYA)\""), "\(event.line)")
        }
        #expect(SatelliteService(file: "/tmp/no-such-\(getpid()).tle", satellite: nil, alertMinutes: 5) == nil)
    }

    /// The night trip's pass drawn where a person looks up: during the pass the ISS is on the
    /// sky chart (overhead at its culmination), named, and its name clear of the others.
    @Test func theNightTripsPassIsOnTheSkyChart() throws {
        let file = "/tmp/lodestone-night-iss-\(getpid()).tle"
        defer { unlink(file) }
        #expect(writeFileAtomically(file, Array(RefereeTrip.nightISS.utf8)))
        let service = try #require(SatelliteService(file: file, satellite: nil, alertMinutes: 5))
        let zurich = (latitude: 47.3769, longitude: 8.5417)
        let culmination = CivilTime(year: 2026, month: 6, day: 21, hour: 21, minute: 45, second: 37).unixSeconds
        let now = try #require(service.position(place: zurich, time: culmination))
        #expect(now.altitude > 80 && now.sunlit, "\(now)")
        #expect(service.position(place: zurich, time: culmination - 3_600) == nil, "below the horizon an hour before")
        var model = DisplayModel()
        model.chart = SkyChart.at(
            culmination, latitude: zurich.latitude, longitude: zurich.longitude,
            satellite: (service.name, now.altitude, now.azimuth, now.sunlit))
        for (width, height) in [(320, 240), (800, 480)] {
            let frame = MemoryFramebuffer(width: width, height: height, format: .rgb565)
            frame.textRuns = []
            GraphicPages.draw(.chart, model, theme: .night, on: frame)
            let runs = frame.textRuns ?? []
            if getenv("LODESTONE_LAYOUT_SHOTS") != nil { _ = writeFileAtomically("/tmp/iss-chart-\(width)x\(height).png", PNGEncoder.encode(frame)) }
            let name = runs.first { $0.text.hasPrefix("ISS") }
            #expect(name != nil, "the ISS named on the \(width)x\(height) chart: \(runs.map(\.text))")
            if let name {
                #expect(
                    !runs.contains {
                        $0 != name && $0.x < name.x + name.width && name.x < $0.x + $0.width && $0.y < name.y + name.height && name.y < $0.y + $0.height
                    })
            }
        }
    }
}
