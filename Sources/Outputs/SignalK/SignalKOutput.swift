import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The Signal K adapter: the device's reports as Signal K 1.5 deltas, newline-framed on TCP
/// (signalk-server's "Signal K over TCP" connection) and one per datagram over UDP (its
/// "Signal K over UDP" connection). SI units throughout; a value that is unknown or invalid is
/// left out, never sent as null, and the heading only when it can be trusted
/// (`trustedMagneticHeading`). Each path is sent at most at its rate.
public final class SignalKOutput {
    public let server: StreamServer
    private var delta = SignalKDelta()
    /// Sends per second for each path (0: never), and when each was last sent (report time).
    private let rates: [Double]
    private var lastSent: [Double]
    private var lastMeta = -Double.infinity
    private var greeted = 0
    /// The meta delta is sent again this often, for receivers that joined later.
    static let metaInterval = 60.0

    /// `rates`: sends per second by path name, over the paths' defaults.
    public init(server: StreamServer, rates: [String: Double] = [:]) {
        self.server = server
        self.rates = SignalKPath.allCases.map { rates[$0.text] ?? $0.defaultRate }
        lastSent = Array(repeating: -.infinity, count: SignalKPath.allCases.count)
    }

    /// The output for these addresses, or nil when there are none.
    public static func opened(address: String?, udp: String?, rates: [String: Double]) throws(TCPListener.Failure) -> SignalKOutput? {
        try StreamServer.opened(.signalK, address: address, udp: udp).map { SignalKOutput(server: $0, rates: rates) }
    }

    /// Whether `path` may be sent at report time `time` (and notes that it is).
    private func due(_ path: SignalKPath, _ time: Double) -> Bool {
        let rate = rates[path.rawValue]
        guard rate > 0 else { return false }
        let last = lastSent[path.rawValue]
        // A time before the last (the clock was set back) starts the path afresh; a small
        // allowance keeps a 10 Hz path at 10 Hz when reports come a little early.
        guard time < last || time - last >= 0.9 / rate else { return false }
        lastSent[path.rawValue] = time
        return true
    }

    /// Hands a report to the listeners as a delta, when it carries anything due.
    public func publish(_ report: Report, now: Double) {
        // The meta delta: at the start, to each new TCP client, and every minute for UDP.
        if now - lastMeta >= Self.metaInterval || now < lastMeta || server.acceptedClients != greeted {
            (lastMeta, greeted) = (now, server.acceptedClients)
            delta.meta(time: now)
            delta.json.withBytes { server.send($0) }
        }
        delta.reset()
        switch report {
        case .attitude(let attitude): add(attitude)
        case .position(let position): add(position, now: now)
        case .environment(let environment): add(environment)
        case .motion(let motion): if due(.steps, motion.time) { delta.integer(.steps, motion.steps, time: motion.time) }
        default: return
        }
        if delta.finish() { delta.json.withBytes { server.send($0) } }
    }

    private func add(_ report: AttitudeReport) {
        let time = report.time
        guard let roll = report.roll, let pitch = report.pitch else { return }
        let heading = report.trustedMagneticHeading
        if due(.attitude, time) {
            delta.object(.attitude, time: time) { w in
                w.number("roll", Angle.radians(roll), decimals: 5)
                w.number("pitch", Angle.radians(pitch), decimals: 5)
                if let heading { w.number("yaw", Angle.radians(heading), decimals: 5) }
            }
        }
        if let rate = report.rateOfTurn, due(.rateOfTurn, time) { delta.number(.rateOfTurn, Angle.radians(rate), decimals: 5, time: time) }
        if let heading {
            if due(.headingMagnetic, time) { delta.number(.headingMagnetic, Angle.radians(heading), decimals: 5, time: time) }
            if let trueHeading = report.trueHeading, due(.headingTrue, time) {
                delta.number(.headingTrue, Angle.radians(trueHeading), decimals: 5, time: time)
            }
            if let accuracy = report.headingAccuracy, due(.headingAccuracy, time) {
                delta.number(.headingAccuracy, Angle.radians(accuracy), decimals: 5, time: time)
            }
        }
        if let declination = report.declination, due(.magneticVariation, time) {
            delta.number(.magneticVariation, Angle.radians(declination), decimals: 5, time: time)
        }
        if let calibration = report.calibration, report.magnetic != nil, due(.calibration, time) {
            delta.string(.calibration, calibration.rawValue, time: time)
        }
    }

    private func add(_ report: PositionReport, now: Double) {
        let fix = report.fix
        let time = fix.utc ?? now
        if due(.methodQuality, time) {
            delta.string(.methodQuality, fix.deadReckoning ? "Estimated (DR) mode" : (fix.hasPosition ? "GNSS Fix" : "no GPS"), time: time)
        }
        if fix.satellitesUsed > 0 || fix.mode.rawValue >= 1, due(.satellites, time) { delta.integer(.satellites, fix.satellitesUsed, time: time) }
        if fix.hdop.isFinite, fix.hdop > 0, due(.horizontalDilution, time) { delta.number(.horizontalDilution, fix.hdop, decimals: 2, time: time) }
        guard fix.hasPosition else { return }
        if due(.position, time) {
            delta.object(.position, time: time) { w in
                w.number("latitude", fix.latitude, decimals: 9)
                w.number("longitude", fix.longitude, decimals: 9)
                if fix.mode == .threeD { w.number("altitude", fix.altitudeMSL, decimals: 2) }
            }
        }
        if fix.speed.isFinite, fix.speed >= 0, due(.speedOverGround, time) { delta.number(.speedOverGround, fix.speed, decimals: 3, time: time) }
        if fix.course.isFinite, due(.courseOverGroundTrue, time) {
            delta.number(.courseOverGroundTrue, Angle.radians(Angle.heading(fix.course)), decimals: 5, time: time)
        }
    }

    private func add(_ report: EnvironmentReport) {
        if let station = report.station { add(station, time: report.time) }
        guard let sample = report.pressure else { return }
        let time = report.time
        if sample.pressure > 0, due(.pressure, time) { delta.number(.pressure, sample.pressure, decimals: 1, time: time) }
        if sample.temperature.isFinite, due(.temperature, time) { delta.number(.temperature, sample.temperature + 273.15, decimals: 2, time: time) }
        if let humidity = sample.humidity, (0...100).contains(humidity), due(.relativeHumidity, time) {
            delta.number(.relativeHumidity, humidity / 100, decimals: 4, time: time)
        }
        guard let weather = report.weather else { return }
        if let seaLevel = weather.seaLevelPressure, seaLevel.isFinite, seaLevel > 0, due(.seaLevelPressure, time) {
            delta.number(.seaLevelPressure, seaLevel * 100, decimals: 1, time: time)
        }
        if let trend = weather.trend {
            if due(.pressureTrend, time) { delta.number(.pressureTrend, trend.hPaPerHour * 100 / 3600, decimals: 6, time: time) }
            if due(.pressureTendency, time) { delta.string(.pressureTendency, String(describing: trend.band), time: time) }
        }
    }

    /// The wind now (its 3 s mean), apparent and true (`WindTriangle`), the 10-minute mean and
    /// gust, and the water's temperature.
    private func add(_ station: StationFigures, time: Double) {
        if let wind = station.wind {
            if let apparent = wind.apparent {
                if due(.windSpeedApparent, time) { delta.number(.windSpeedApparent, apparent.speed, decimals: 2, time: time) }
                if due(.windAngleApparent, time) { delta.number(.windAngleApparent, Angle.radians(apparent.angle), decimals: 4, time: time) }
            }
            if let trueWind = wind.trueWind {
                if due(.windSpeedTrue, time) { delta.number(.windSpeedTrue, trueWind.speed, decimals: 2, time: time) }
                if due(.windDirectionTrue, time) { delta.number(.windDirectionTrue, Angle.radians(trueWind.angle), decimals: 4, time: time) }
            }
            if due(.windSpeedAverage, time) { delta.number(.windSpeedAverage, wind.speed, decimals: 2, time: time) }
            if let gust = wind.gust, due(.windGust, time) { delta.number(.windGust, gust, decimals: 2, time: time) }
        }
        if let water = station.waterTemperature, due(.waterTemperature, time) {
            delta.number(.waterTemperature, water + 273.15, decimals: 2, time: time)
        }
    }
}
