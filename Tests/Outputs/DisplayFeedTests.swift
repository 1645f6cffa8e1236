import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing

/// The display takes reports and nothing else: what a page shows is what the reports carried,
/// and a value no report has carried yet is unknown, never a default.
struct DisplayFeedTests {
    func attitude(heading: Double?, time: Double) -> Report {
        var report = AttitudeReport(device: "imu", time: time)
        (report.roll, report.pitch, report.magneticHeading) = (1, 2, heading)
        report.declination = 3
        report.headingAccuracy = 1.5
        return .attitude(report)
    }

    @Test func nothingTakenIsUnknown() {
        let model = DisplayFeed(title: "sim").model()
        #expect(model.state.attitude == nil)
        #expect(model.state.fix.hasPosition == false)
        #expect(model.state.barometricAltitude.isNaN)
        #expect(model.position.confidence == nil)
        #expect(model.weather == nil && model.navigation == nil && model.track == nil)
        #expect(model.state.imuHealth == .absent)
    }

    /// The heading is smoothed on the circle over the ATT times: 359° and 1° read as north.
    @Test func headingIsSmoothedAcrossNorth() throws {
        let feed = DisplayFeed(title: "sim")
        for step in 0..<20 { feed.take(attitude(heading: step % 2 == 0 ? 359 : 1, time: Double(step) * 0.1)) }
        let model = feed.model()
        let heading = try #require(model.state.attitude?.magneticHeading)
        #expect(abs(Angle.signed(heading - 0)) < 1.5, "\(heading)")
        let trueHeading = try #require(model.state.trueHeading)
        #expect(abs(Angle.signed(trueHeading - heading - 3)) < 1e-9)
        #expect(model.state.headingAccuracy == 1.5)
    }

    /// The position page's fix is the last TPV's, with its error: accuracy beside confidence.
    @Test func positionCarriesItsError() {
        let feed = DisplayFeed(title: "sim")
        var fix = GPSFix()
        (fix.mode, fix.latitude, fix.longitude, fix.eph) = (.threeD, 46.5, 7.5, 4.2)
        var report = PositionReport(fix: fix, device: "gps", confidence: 80)
        report.warnings = [.fewSatellites]
        feed.take(.position(report))
        let model = feed.model()
        #expect(model.state.fix.eph == 4.2)
        #expect(model.position.confidence == 80)
        #expect(model.position.warnings == [.fewSatellites])
    }

    /// A way being navigated shows until a report says it ended.
    @Test func navigationEndsWithItsReport() {
        let feed = DisplayFeed(title: "sim")
        let hut = Waypoint(name: "Hut", latitude: 46.6, longitude: 7.9)
        feed.take(.waypoint(WaypointReport(waypoint: hut, bearing: 40, distance: 1200, relativeBearing: -5, timeToGo: 900, message: nil)))
        #expect(feed.model().navigation?.waypoint == "Hut")
        #expect(feed.model().navigation?.distance == 1200)
        feed.take(.waypoint(WaypointReport(waypoint: nil, message: "navigation stopped")))
        #expect(feed.model().navigation == nil)
    }

    /// The level reads from its own zero when the report gives it, the raw attitude otherwise.
    @Test func levelReadsFromItsZero() {
        let feed = DisplayFeed(title: "sim")
        guard case .attitude(var report) = attitude(heading: 10, time: 0) else { return }
        report.levelAngles = (0.2, -0.1)
        report.level = true
        feed.take(.attitude(report))
        let model = feed.model()
        #expect(model.level.roll == 0.2 && model.level.pitch == -0.1 && model.level.isLevel)
    }

    /// The barometer page appears with the first ENV that carries a pressure; the sea-level
    /// pressure only once the weather figures carry it.
    @Test func weatherOnlyOnceMeasured() throws {
        let feed = DisplayFeed(title: "sim")
        let sample = PressureSample(time: 0, pressure: 95_000, temperature: 12)
        feed.take(.environment(EnvironmentReport(pressure: sample, barometricAltitude: 540, qnh: .nan, weather: nil, device: "baro", time: 0)))
        let weather = try #require(feed.model().weather)
        #expect(abs(weather.stationPressure - 950) < 1e-9)
        #expect(weather.seaLevelPressure.isNaN)
        #expect(feed.model().state.barometricAltitude == 540)
    }
}
