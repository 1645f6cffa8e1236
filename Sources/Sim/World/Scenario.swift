import Glibc

/// How the device moves and what the weather does in one scripted trip. A scenario is pure:
/// the same time always gives the same motion; sensor noise is added by the emulated chips.
public struct Motion: Sendable, Equatable {
    public var roll: Double  // degrees
    public var pitch: Double  // degrees
    public var yaw: Double  // degrees true
    public var speed: Double  // m/s over ground
    public var course: Double  // degrees true
    public var climbRate: Double  // m/s
    /// Extra acceleration in the navigation frame (north, east, down), m/s^2: footsteps, swell.
    public var extraAcceleration: (north: Double, east: Double, down: Double)

    public static func == (a: Motion, b: Motion) -> Bool {
        a.roll == b.roll && a.pitch == b.pitch && a.yaw == b.yaw && a.speed == b.speed
            && a.course == b.course && a.climbRate == b.climbRate
    }
}

public enum ScenarioName: String, Sendable, CaseIterable {
    case walk, boat, still, drive

    /// The names as help and errors list them: "walk, boat, still, drive".
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public var summary: String {
        switch self {
        case .walk: return "a hike: figure-8 calibration, walking with turns, a flip, climbing and descending, falling pressure"
        case .boat: return "a sailing boat: swell, heel, slow turns, sea-level pressure"
        case .still: return "lying on a table: level, pointing north, steady weather"
        case .drive: return "a car: 15 m/s with turns and rolling hills"
        }
    }
}

/// A scripted trip: where it starts, how it moves over time and how the weather changes.
public struct Scenario: Sendable {
    public let name: ScenarioName
    public let startLatitude: Double
    public let startLongitude: Double
    public let startAltitude: Double
    /// Earth's field at the start, microtesla (north, east, down).
    public let earthField: (north: Double, east: Double, down: Double)
    /// UTC at scenario time 0, seconds since 1970.
    public let startUTC: Double
    /// The zone of the start's place (the simulated world knows where it is): the device's
    /// zone on the simulated board unless `timeZone` says otherwise.
    public let timeZone: String
    /// When set, the trip begins with the walk's figure-8 calibration (30 s of turns, 5 s
    /// still) before setting off: a car calibrated in the car park. The boat always begins
    /// with a swing instead (its compass is fixed to the hull: no figure-8 is possible).
    public let figure8First: Bool

    /// How the person or vehicle is travelling, as a motion classifier should say.
    public enum Activity: String, Sendable {
        case still, walking, running, vehicle
    }

    /// UTC at scenario time 0 unless told otherwise: 2026-06-21T08:00:00Z, a summer morning.
    public static let defaultStartUTC = 1_782_028_800.0

    /// `startUTC`: when the trip starts (the sky, the Sun's and a satellite's passes follow
    /// it); nil for the summer morning.
    public init(_ name: ScenarioName, figure8First: Bool = false, startUTC: Double? = nil) {
        self.name = name
        // The walk starts with one anyway; the boat swings.
        self.figure8First = figure8First && name != .walk && name != .boat
        self.startUTC = startUTC ?? Self.defaultStartUTC
        switch name {
        case .walk, .still, .drive:
            // Zurich, 408 m. Field from the World Magnetic Model 2025 for mid-2026 (about 3.4 deg east).
            startLatitude = 47.3769; startLongitude = 8.5417; startAltitude = 408
            timeZone = "Europe/Zurich"
            earthField = (21.6, 1.3, 42.9)
        case .boat:
            // Off Marseille, on the water. Field from the World Magnetic Model 2025 for mid-2026
            // (`lodestone declination --lat 43.26 --lon 5.3 --date 2026-06-21`: 2.8 deg east, dip 59.2).
            startLatitude = 43.2600; startLongitude = 5.3000; startAltitude = 0
            timeZone = "Europe/Paris"
            earthField = (23.98, 1.16, 40.21)
        }
    }

    /// Seconds before the trip proper starts (the figure-8 prelude, or the boat's swing).
    public var preludeLength: Double { name == .boat ? Self.swingLength : (figure8First ? Self.figure8Length : 0) }
    static let figure8Length = 35.0
    /// The boat's swing: one slow full circle under engine at 2 m/s, 3 degrees a second.
    static let swingLength = 120.0

    /// When the calibration manoeuvre (the figure-8's turns, or the swing) is over.
    public var calibrationEnd: Double? {
        if name == .boat { return Self.swingLength }
        return figure8First || name == .walk ? 30 : nil
    }

    /// The manoeuvre the trip calibrates by, for people reading the referee's table.
    public var calibrationName: String { name == .boat ? "the swing" : "the figure-8" }

    /// The device's motion at scenario time `t` seconds.
    public func motion(at t: Double) -> Motion {
        if name == .boat {
            if t < Self.swingLength { return swing(t) }
            var m = boat(t - Self.swingLength)
            m.speed = 2 + (m.speed - 2) * min(1, (t - Self.swingLength) / 10)  // setting sail
            return m
        }
        if figure8First {
            let start = tripMotion(at: 0)
            if t < Self.figure8Length {
                var m = figure8(t, yaw: start.yaw)
                // The seconds held still after the turns settle into the trip's starting
                // attitude (a boat's heel), without a jolt.
                if t >= 30 {
                    let settle = (t - 30) / 5
                    (m.roll, m.pitch) = (start.roll * settle, start.pitch * settle)
                }
                return m
            }
            var m = tripMotion(at: t - Self.figure8Length)
            // Casting off or pulling out over ten seconds, not in one step.
            m.speed *= min(1, (t - Self.figure8Length) / 10)
            return m
        }
        return tripMotion(at: t)
    }

    /// What the person or vehicle is doing at scenario time `t`.
    public func activity(at t: Double) -> Activity {
        let trip = t - preludeLength
        switch name {
        case .still: return .still
        case .walk: return trip < 35 ? .still : .walking
        case .boat: return .vehicle
        case .drive: return trip < 0 ? .still : .vehicle
        }
    }

    private func tripMotion(at t: Double) -> Motion {
        switch name {
        case .walk: return walk(t)
        case .boat: return boat(t)
        case .still:
            return Motion(
                roll: 0, pitch: 0, yaw: 0, speed: 0, course: 0, climbRate: 0,
                extraAcceleration: (0, 0, 0))
        case .drive: return drive(t)
        }
    }

    /// Sea-level pressure at time `t`, pascal: the weather alone.
    public func seaLevelPressure(at t: Double) -> Double {
        switch name {
        case .walk: return 101_525 - 120 * t / 3600  // falling 1.2 hPa per hour: a front coming
        case .boat: return 101_600 + 30 * sin(2 * Double.pi * t / 7200)
        case .still, .drive: return 101_325
        }
    }

    public func temperature(at t: Double, altitude: Double) -> Double {
        let seaLevel: Double = name == .boat ? 22 : 18
        return seaLevel - 0.0065 * altitude + 0.5 * sin(2 * Double.pi * t / 3600)
    }

    // MARK: Scripts

    private func walk(_ t: Double) -> Motion {
        var m = Motion(
            roll: 0, pitch: 0, yaw: 30, speed: 0, course: 30, climbRate: 0,
            extraAcceleration: (0, 0, 0))
        if t < Self.figure8Length { return figure8(t, yaw: 30) }
        let walking = t - 35
        m.course = Self.heading(30 + turns(walking, every: 120, by: Self.walkTurns))
        m.yaw = m.course
        m.speed = 1.4 * min(1, walking / 2)  // setting off over two seconds, not in one jolt
        // Footsteps: 2 per second, a vertical bounce of about 1.5 m/s^2.
        m.extraAcceleration.down = -1.5 * sin(2 * Double.pi * 2 * walking)
        // The device is turned face down at one minute and back.
        m.roll = flip(walking - 55)
        // Climb 90 m, rest, descend 90 m, rest: a 16-minute cycle.
        let phase = walking.truncatingRemainder(dividingBy: 960)
        m.climbRate = phase < 300 ? 0.3 : (phase < 480 ? 0 : (phase < 780 ? -0.3 : 0))
        return m
    }

    /// Figure-8 calibration: two slow turns while rolling past the vertical both ways and
    /// pitching nearly straight up and down, so the field is seen from most directions (about
    /// 85% of the sphere) without the device ever lying face down; then 5 s held still.
    private func figure8(_ t: Double, yaw: Double) -> Motion {
        var m = Motion(roll: 0, pitch: 0, yaw: yaw, speed: 0, course: yaw, climbRate: 0, extraAcceleration: (0, 0, 0))
        guard t < 30 else { return m }
        m.yaw = Self.heading(yaw + 360 * t / 15)
        m.roll = 120 * sin(2 * Double.pi * t / 7.5)
        m.pitch = 80 * sin(2 * Double.pi * t / 10)
        return m
    }

    /// The swing: a full circle in 120 s at 2 m/s, heeling gently in the swell, and settling into
    /// the sail's heel over its last 10 s.
    private func swing(_ t: Double) -> Motion {
        let start = boat(0)
        let settle = max(0, (t - 110) / 10)
        let yaw = Self.heading(start.yaw + 360 * t / Self.swingLength)
        return Motion(
            roll: 4 * sin(2 * Double.pi * t / 6) * (1 - settle) + start.roll * settle,
            pitch: 1.5 * sin(2 * Double.pi * t / 8) * (1 - settle) + start.pitch * settle,
            yaw: yaw, speed: 2, course: yaw, climbRate: 0, extraAcceleration: (0, 0, 0))
    }

    private func boat(_ t: Double) -> Motion {
        let course = Self.heading(120 + 40 * sin(2 * Double.pi * t / 600))
        return Motion(
            roll: 12 + 6 * sin(2 * Double.pi * t / 6), pitch: 3 * sin(2 * Double.pi * t / 8),
            yaw: course, speed: 3.0, course: course,
            climbRate: 0.6 * cos(2 * Double.pi * t / 8) * 2 * Double.pi / 8 * 0.5,
            extraAcceleration: (0, 0, -0.8 * sin(2 * Double.pi * t / 8)))
    }

    private func drive(_ t: Double) -> Motion {
        let course = Self.heading(200 + turns(t, every: 60, by: Self.driveTurns))
        return Motion(
            roll: 0, pitch: 2 * sin(2 * Double.pi * t / 90), yaw: course, speed: 15, course: course,
            climbRate: 15 * sin(Double.pi / 180 * 2 * sin(2 * Double.pi * t / 90)),
            extraAcceleration: (0, 0, 0.3 * sin(2 * Double.pi * 11 * t)))
    }

    /// Accumulated turn angle: every `every` seconds a turn from the list, done at 15 deg/s.
    private func turns(_ t: Double, every: Double, by angles: [Double]) -> Double {
        var total = 0.0
        var start = every
        var index = 0
        while start <= t {
            let angle = angles[index % angles.count]
            let duration = abs(angle) / 15
            total += angle * min(1, (t - start) / duration)
            start += every
            index += 1
        }
        return total
    }

    /// Roll during a flip starting at `t` = 0: over in 2 s, hold 3 s, back in 2 s.
    private func flip(_ t: Double) -> Double {
        if t < 0 || t > 7 { return 0 }
        if t < 2 { return 180 * t / 2 }
        if t < 5 { return 180 }
        return 180 * (7 - t) / 2
    }

    // Turn scripts live in statics: a literal array in the function would allocate per call,
    // and the world is read from the sampling loop.
    static let walkTurns: [Double] = [60, 60, -90, 45, -75]
    static let driveTurns: [Double] = [90, -90, 90, 90, -45]

    static func heading(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value
    }
}
