import Glibc
import LodestoneCore
@testable import LodestoneDomain
@testable import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneEncoding

/// The Signal K adapter, read back as signalk-server reads a "Signal K over UDP" connection:
/// each datagram one delta, parsed whole. SI units, no nulls, no heading that cannot be
/// trusted, each path at most at its rate.
@Suite(.serialized) struct SignalKOutputTests {
    /// A UDP socket on a free loopback port, and the output sending to it.
    final class Receiver {
        let fd: Int32
        let output: SignalKOutput

        init?(rates: [String: Double] = [:]) {
            fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = self.fd
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound, let server = try? StreamServer(.signalK, address: nil, udp: "127.0.0.1:\(UInt16(bigEndian: address.sin_port))") else {
                close(fd)
                return nil
            }
            output = SignalKOutput(server: server, rates: rates)
        }

        deinit { close(fd) }

        /// Every datagram waiting, parsed (a datagram that is not JSON is recorded as an issue).
        func deltas() -> [JSONValue] {
            var found: [JSONValue] = []
            var buffer = [UInt8](repeating: 0, count: 2048)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard n > 0 else { break }
                let text = String(decoding: buffer.prefix(n), as: UTF8.self)
                #expect(text.hasSuffix("}\n") && !text.contains("null"), "\(text)")
                guard let delta = try? JSONValue.parse(text) else { Issue.record("not JSON: \(text)"); continue }
                found.append(delta)
            }
            return found
        }

        /// The values sent for `path`, in order, skipping the meta delta.
        func values(_ path: String, in deltas: [JSONValue]) -> [JSONValue] {
            deltas.flatMap { delta in
                (delta["updates"]?.arrayValue ?? []).flatMap { update in
                    (update["values"]?.arrayValue ?? []).filter { $0["path"]?.stringValue == path }.compactMap { $0["value"] }
                }
            }
        }
    }

    static func state(heading: Double, calibrated: Bool = true, magnetometer: SensorHealth = .ok) -> NavigationState {
        var state = NavigationState()
        state.attitude = TiltCompensatedHeading(roll: 10, pitch: -5, magneticHeading: heading)
        state.declination = 2.5
        state.trueHeading = Angle.heading(heading + 2.5)
        state.headingAccuracy = 1.5
        state.magnetometerHealth = magnetometer
        state.magnetic = MagneticSample(time: 0, field: Vector3(20, 0, 40), raw: Vector3(20, 0, 40), specificForce: nil)
        state.calibrationHeadingError = calibrated ? 1.0 : nil
        state.imu = ImuSample(time: 0, acceleration: Vector3(0, 0, -9.81), rotationRate: Vector3(0, 0, 0.2), temperature: 25)
        state.rateOfTurn = Angle.degrees(0.2)
        return state
    }

    static func attitude(_ state: NavigationState, time: Double, calibration: CalibrationStatus = .good) -> Report {
        .attitude(AttitudeReport(state: state, device: "imu", time: time, calibration: calibration, lock: nil, level: nil))
    }

    @Test func aTrustedHeadingInRadiansWithItsSourceAndTime() throws {
        let receiver = try #require(Receiver())
        receiver.output.publish(Self.attitude(Self.state(heading: 90), time: 1_782_028_800), now: 1_782_028_800)
        let deltas = receiver.deltas()
        let magnetic = receiver.values("navigation.headingMagnetic", in: deltas).first?.numberValue ?? .nan
        let trueHeading = receiver.values("navigation.headingTrue", in: deltas).first?.numberValue ?? .nan
        let variation = receiver.values("navigation.magneticVariation", in: deltas).first?.numberValue ?? .nan
        #expect(abs(magnetic - Double.pi / 2) < 1e-5 && abs(trueHeading - Angle.radians(92.5)) < 1e-5 && abs(variation - Angle.radians(2.5)) < 1e-5)
        let yaw = receiver.values("navigation.attitude", in: deltas).first?["yaw"]?.numberValue ?? .nan
        let roll = receiver.values("navigation.attitude", in: deltas).first?["roll"]?.numberValue ?? .nan
        #expect(abs(yaw - Double.pi / 2) < 1e-5 && abs(roll - Angle.radians(10)) < 1e-5)
        #expect(receiver.values("lodestone.compass.calibration", in: deltas).first?.stringValue == "good")
        let update = deltas.compactMap { $0["updates"]?.arrayValue }.flatMap { $0 }.first { $0["$source"]?.stringValue == "lodestone.magnetometer" }
        #expect(update?["timestamp"]?.stringValue == "2026-06-21T08:00:00.000Z")
        #expect(deltas.contains { ($0["updates"]?.arrayValue ?? []).contains { $0["meta"] != nil } }, "the meta delta goes first")
    }

    /// An uncalibrated chip, a failing one and none at all: no heading of any kind (yaw
    /// included), while roll, pitch and the gyro's rate of turn still go.
    @Test func noHeadingThatCannotBeTrusted() throws {
        var absent = Self.state(heading: 90)
        absent.magnetic = nil
        absent.magnetometerHealth = .absent
        for (index, state) in [Self.state(heading: 90, calibrated: false), Self.state(heading: 90, magnetometer: .degraded), absent].enumerated() {
            let receiver = try #require(Receiver())
            receiver.output.publish(Self.attitude(state, time: 1_782_028_800, calibration: .uncalibrated), now: 1_782_028_800)
            let deltas = receiver.deltas()
            #expect(receiver.values("navigation.headingMagnetic", in: deltas).isEmpty, "case \(index)")
            #expect(receiver.values("navigation.headingTrue", in: deltas).isEmpty, "case \(index)")
            let attitude = receiver.values("navigation.attitude", in: deltas).first
            #expect(attitude?["yaw"] == nil && attitude?["pitch"]?.numberValue != nil, "case \(index)")
            #expect(!receiver.values("navigation.rateOfTurn", in: deltas).isEmpty, "case \(index)")
        }
    }

    /// The rate of turn is the state's (the gyro's, `TurnRate`), in rad/s.
    @Test func rateOfTurnIsTheStates() throws {
        let receiver = try #require(Receiver())
        var state = Self.state(heading: 0)
        state.rateOfTurn = -12
        receiver.output.publish(Self.attitude(state, time: 1_800_000_000), now: 1_800_000_000)
        let deltas = receiver.deltas()
        let rate = receiver.values("navigation.rateOfTurn", in: deltas).first?.numberValue ?? .nan
        #expect(abs(rate - Angle.radians(-12)) < 1e-5, "\(rate)")
    }

    /// ATT at 10 Hz for 3 s: attitude at its default 10 Hz, headingMagnetic at a configured
    /// 2 Hz, headingTrue configured off.
    @Test func eachPathAtMostAtItsRate() throws {
        let receiver = try #require(Receiver(rates: ["navigation.headingMagnetic": 2, "navigation.headingTrue": 0]))
        var deltas: [JSONValue] = []
        for step in 0..<30 {
            let time = 1_782_028_800 + Double(step) * 0.1
            receiver.output.publish(Self.attitude(Self.state(heading: 90), time: time), now: time)
            deltas += receiver.deltas()
        }
        #expect(receiver.values("navigation.attitude", in: deltas).count == 30)
        #expect(receiver.values("navigation.headingMagnetic", in: deltas).count == 6)
        #expect(receiver.values("navigation.headingTrue", in: deltas).isEmpty)
    }

    /// ENV in SI: pascal, kelvin, humidity as a ratio; the trend in Pa/s under lodestone.
    @Test func environmentInSIUnits() throws {
        let receiver = try #require(Receiver())
        let sample = PressureSample(time: 0, pressure: 95_000, temperature: 21.5, humidity: 48)
        let trend = PressureTrend.Reading(hPaPerHour: -1.8, band: .fallingFast, minutes: 60, threeHourChange: nil, characteristic: nil, sixHourChange: nil)
        let figures = WeatherFigures(seaLevelPressure: 1008.5, altitudeFused: 450, trend: trend)
        receiver.output.publish(
            .environment(
                EnvironmentReport(
                    pressure: sample, barometricAltitude: 450, qnh: 1013.25, weather: figures,
                    device: "baro", time: 1_782_028_800)), now: 1_782_028_800)
        let deltas = receiver.deltas()
        #expect(receiver.values("environment.outside.pressure", in: deltas).first?.numberValue == 95_000)
        #expect(abs((receiver.values("environment.outside.temperature", in: deltas).first?.numberValue ?? 0) - 294.65) < 1e-9)
        #expect(receiver.values("environment.outside.relativeHumidity", in: deltas).first?.numberValue == 0.48)
        #expect(receiver.values("lodestone.environment.seaLevelPressure", in: deltas).first?.numberValue == 100_850)
        #expect(abs((receiver.values("lodestone.environment.pressureTrend", in: deltas).first?.numberValue ?? 0) + 0.05) < 1e-6)
        #expect(receiver.values("lodestone.environment.pressureTendency", in: deltas).first?.stringValue == "fallingFast")
    }

    /// A position without a fix says "no GPS" and sends no coordinates; with one, degrees
    /// and metres, speed in m/s and course in radians.
    @Test func positionOnlyWithAFix() throws {
        let receiver = try #require(Receiver())
        var fix = GPSFix()
        fix.mode = .noFix
        fix.utc = 1_782_028_800
        receiver.output.publish(.position(PositionReport(fix: fix, device: "gps")), now: 1_782_028_800)
        var deltas = receiver.deltas()
        #expect(receiver.values("navigation.gnss.methodQuality", in: deltas).first?.stringValue == "no GPS")
        #expect(receiver.values("navigation.position", in: deltas).isEmpty)
        (fix.mode, fix.latitude, fix.longitude, fix.altitudeMSL, fix.speed, fix.course, fix.utc) = (.threeD, 46.5, 7.25, 1200, 2.5, 270, 1_782_028_810)
        receiver.output.publish(.position(PositionReport(fix: fix, device: "gps")), now: 1_782_028_810)
        deltas = receiver.deltas()
        let position = receiver.values("navigation.position", in: deltas).first
        #expect(position?["latitude"]?.numberValue == 46.5 && position?["longitude"]?.numberValue == 7.25 && position?["altitude"]?.numberValue == 1200)
        #expect(receiver.values("navigation.speedOverGround", in: deltas).first?.numberValue == 2.5)
        #expect(abs((receiver.values("navigation.courseOverGroundTrue", in: deltas).first?.numberValue ?? 0) - 3 * Double.pi / 2) < 1e-5)
    }
}
