import Glibc
import LodestoneCore
import LodestoneSim

/// Synthetic IMU recordings for the motion features: what a handheld device feels while still,
/// walking, running, tapped on a table, riding in a car or a boat, shaken, or flipped over.
/// Each is seeded, so a failing case can be replayed exactly.
///
/// A trace is described by the device's attitude and its acceleration in the navigation frame
/// (north, east, down) as functions of time; the body-frame specific force and rotation rate
/// follow from them the way the simulated world derives its own, plus sensor noise.
struct MotionTrace {
    var rate: Double
    var force: [Vector3] = []
    var rotation: [Vector3] = []
    /// Steps really taken (walking and running traces), flips really made (flip traces).
    var trueSteps = 0
    var trueFlips = 0
    var interval: Double { 1 / rate }
    var duration: Double { Double(force.count) / rate }

    init(rate: Double) { self.rate = rate }

    /// Samples `seconds` of motion at `rate`. `motion(t)` gives roll, pitch, yaw (degrees) and
    /// the acceleration (north, east, down, m/s^2) at time t.
    init(
        rate: Double, seconds: Double, seed: UInt64, accelerometerNoise: Double = 0.04,
        gyroNoise: Double = 0.004,
        motion: (Double) -> (roll: Double, pitch: Double, yaw: Double, acceleration: Vector3)
    ) {
        self.rate = rate
        var random = SeededRandom(seed: seed)
        let count = Int(seconds * rate)
        force.reserveCapacity(count)
        rotation.reserveCapacity(count)
        let dt = 1 / rate
        for i in 0..<count {
            let t = Double(i) * dt
            let now = motion(t)
            let before = motion(t - dt)
            let specific = now.acceleration - Vector3(0, 0, 9.80665)
            let f = Self.toBody(specific, roll: now.roll, pitch: now.pitch, yaw: now.yaw)
            force.append(
                f
                    + Vector3(
                        random.gaussian(accelerometerNoise), random.gaussian(accelerometerNoise),
                        random.gaussian(accelerometerNoise)))
            let w = Self.bodyRates(now, before, dt)
            rotation.append(w + Vector3(random.gaussian(gyroNoise), random.gaussian(gyroNoise), random.gaussian(gyroNoise)))
        }
    }

    static func toBody(_ v: Vector3, roll: Double, pitch: Double, yaw: Double) -> Vector3 {
        let (sr, cr) = (sin(Angle.radians(roll)), cos(Angle.radians(roll)))
        let (sp, cp) = (sin(Angle.radians(pitch)), cos(Angle.radians(pitch)))
        let (sy, cy) = (sin(Angle.radians(yaw)), cos(Angle.radians(yaw)))
        return Vector3(
            cp * cy * v.x + cp * sy * v.y - sp * v.z,
            (sr * sp * cy - cr * sy) * v.x + (sr * sp * sy + cr * cy) * v.y + sr * cp * v.z,
            (cr * sp * cy + sr * sy) * v.x + (cr * sp * sy - sr * cy) * v.y + cr * cp * v.z)
    }

    static func bodyRates(
        _ m: (roll: Double, pitch: Double, yaw: Double, acceleration: Vector3),
        _ b: (roll: Double, pitch: Double, yaw: Double, acceleration: Vector3),
        _ dt: Double
    ) -> Vector3 {
        let rollRate = Angle.radians(Angle.signed(m.roll - b.roll)) / dt
        let pitchRate = Angle.radians(Angle.signed(m.pitch - b.pitch)) / dt
        let yawRate = Angle.radians(Angle.signed(m.yaw - b.yaw)) / dt
        let (sr, cr) = (sin(Angle.radians(m.roll)), cos(Angle.radians(m.roll)))
        let (sp, cp) = (sin(Angle.radians(m.pitch)), cos(Angle.radians(m.pitch)))
        return Vector3(rollRate - yawRate * sp, pitchRate * cr + yawRate * cp * sr, -pitchRate * sr + yawRate * cp * cr)
    }

    static func + (a: MotionTrace, b: MotionTrace) -> MotionTrace {
        var joined = a
        joined.force += b.force
        joined.rotation += b.rotation
        joined.trueSteps += b.trueSteps
        joined.trueFlips += b.trueFlips
        return joined
    }

    // MARK: Scenes

    /// Lying on a table or held still: a slight tilt and sensor noise.
    static func still(seconds: Double, rate: Double = 100, seed: UInt64 = 1) -> MotionTrace {
        MotionTrace(rate: rate, seconds: seconds, seed: seed) { _ in (1.5, -0.8, 40, .zero) }
    }

    /// Walking or running with the device in hand, looking at it (pitched down 25 degrees).
    ///
    /// Each step takes its own time (cadence with 6 % jitter) and has its own strength (20 %).
    /// The vertical acceleration has the step frequency and its 2nd and 3rd harmonics; the arm
    /// and hips add a sway at half the step frequency (the stride); running adds a sharp heel
    /// strike and a flight phase in which the force falls towards zero.
    static func gait(cadence: Double, seconds: Double, running: Bool, rate: Double = 100, seed: UInt64) -> MotionTrace {
        var random = SeededRandom(seed: seed &* 7919)
        // The step schedule: start times and strengths.
        var starts: [Double] = []
        var strengths: [Double] = []
        let lead = 2.0
        var t = lead
        while t < lead + seconds {
            starts.append(t)
            strengths.append(min(max(1 + random.gaussian(0.2), 0.55), 1.45))
            t += (1 / cadence) * min(max(1 + random.gaussian(0.06), 0.8), 1.2)
        }
        let end = t
        let amplitude = running ? (cadence < 2.75 ? 7.0 : 8.5) : (cadence < 1.8 ? 2.2 : 3.0)
        let h2 = running ? 0.45 : 0.35, h3 = running ? 0.2 : 0.12
        let p2 = random.uniform() * 2 * Double.pi, p3 = random.uniform() * 2 * Double.pi
        let stepStarts = starts, stepStrengths = strengths
        var trace = MotionTrace(rate: rate, seconds: end + 2, seed: seed) { time in
            guard time >= lead, time < end else { return (0, -25, 90, .zero) }
            // Binary search for the step under way.
            var lo = 0, hi = stepStarts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if stepStarts[mid] <= time { lo = mid } else { hi = mid - 1 }
            }
            let next = lo + 1 < stepStarts.count ? stepStarts[lo + 1] : end
            let p = (time - stepStarts[lo]) / (next - stepStarts[lo])
            let a = amplitude * stepStrengths[lo]
            let w = 2 * Double.pi * p
            var up = a * (sin(w) + h2 * sin(2 * w + p2) + h3 * sin(3 * w + p3))
            if running {
                // Heel strike: a 40 ms spike at the start of the stance.
                let strike = (time - stepStarts[lo]) / 0.04
                if strike < 1 { up += 0.8 * a * sin(Double.pi * strike) }
                up = max(up, -9.3)  // no more than free fall in the flight phase
            }
            let strideSway = (Double(lo % 2) * 2 - 1) * sin(Double.pi * p) * 0.25 * a
            let forward = 0.3 * a * cos(w)
            let lateral = 0.6 * sin(Double.pi * (Double(lo) + p))
            let pitch = -25 + 4 * sin(w + 1)
            let roll = 3 * sin(Double.pi * (Double(lo) + p))
            return (roll, pitch, 90, Vector3(0, forward, -(up + strideSway)) + Vector3(-lateral, 0, 0))
        }
        trace.trueSteps = stepStarts.count
        return trace
    }

    /// The device flat on a table while someone knocks on the table or taps the device:
    /// each knock is a short pulse and a ringing at 25..45 Hz. Irregular or drummed at `period`.
    static func tapping(seconds: Double, period: Double? = nil, rate: Double = 100, seed: UInt64) -> MotionTrace {
        var random = SeededRandom(seed: seed &* 104_729)
        var taps: [(time: Double, strength: Double, ring: Double)] = []
        var t = 0.5
        while t < seconds {
            taps.append((t, 5 + 25 * random.uniform(), 25 + 20 * random.uniform()))
            t += period.map { $0 * (1 + random.gaussian(0.03)) } ?? (0.2 + 1.0 * random.uniform())
        }
        let knocks = taps
        return MotionTrace(rate: rate, seconds: seconds, seed: seed) { time in
            var z = 0.0
            for tap in knocks where time >= tap.time && time < tap.time + 0.15 {
                let age = time - tap.time
                let pulse = age < 0.006 ? sin(Double.pi * age / 0.006) : 0
                z += tap.strength * (0.4 * pulse + exp(-age / 0.015) * sin(2 * Double.pi * tap.ring * age))
            }
            return (0.5, 0.3, 10, Vector3(0.1 * z, 0.05 * z, z))
        }
    }

    /// In a car (held or in a mount): engine and road vibration at 8..20 Hz, cornering and
    /// braking sways at 0.1..0.5 Hz, and now and then a bump that sets the suspension bouncing.
    static func vehicle(seconds: Double, rate: Double = 100, seed: UInt64) -> MotionTrace {
        var random = SeededRandom(seed: seed &* 15_485_863)
        var tones: [(frequency: Double, amplitude: Double, phase: Double, axis: Int)] = []
        for i in 0..<9 {
            tones.append((8 + 12 * random.uniform(), 0.25 + 0.35 * random.uniform(), 2 * Double.pi * random.uniform(), i % 3))
        }
        var bumps: [(time: Double, strength: Double)] = []
        var t = 1.0
        while t < seconds {
            bumps.append((t, 1 + 2 * random.uniform()))
            t += 2 + 6 * random.uniform()
        }
        let vibration = tones, roadBumps = bumps
        return MotionTrace(rate: rate, seconds: seconds, seed: seed) { time in
            var a = Vector3(
                1.0 * sin(2 * Double.pi * 0.1 * time), 1.5 * sin(2 * Double.pi * 0.27 * time + 1),
                0.4 * sin(2 * Double.pi * 0.45 * time))
            for tone in vibration {
                let value = tone.amplitude * sin(2 * Double.pi * tone.frequency * time + tone.phase)
                switch tone.axis {
                case 0: a.x += 0.5 * value
                case 1: a.y += 0.5 * value
                default: a.z += value
                }
            }
            for bump in roadBumps where time >= bump.time && time < bump.time + 3 {
                // Damped bounce of the car on its springs, about 1.3 Hz, damping ratio 0.35.
                let age = time - bump.time
                a.z += bump.strength * exp(-0.35 * 2 * Double.pi * 1.3 * age) * sin(2 * Double.pi * 1.3 * age)
            }
            let yaw = 20 * sin(2 * Double.pi * 0.02 * time)
            return (2 * sin(2 * Double.pi * 0.27 * time), 3 + 1.5 * sin(2 * Double.pi * 0.11 * time), yaw, a)
        }
    }

    /// On a boat in a swell of 0.1..0.3 Hz: heave, roll and pitch.
    static func boat(seconds: Double, rate: Double = 100, seed: UInt64) -> MotionTrace {
        var random = SeededRandom(seed: seed &* 32_452_843)
        let phases = (0..<5).map { _ in 2 * Double.pi * random.uniform() }
        return MotionTrace(rate: rate, seconds: seconds, seed: seed) { time in
            let w = 2 * Double.pi * time
            let heave = 1.2 * sin(0.12 * w + phases[0]) + 0.8 * sin(0.21 * w + phases[1]) + 0.4 * sin(0.29 * w + phases[2])
            let roll = 8 + 12 * sin(0.15 * w + phases[3])
            let pitch = 5 * sin(0.23 * w + phases[4])
            return (roll, pitch, 120 + 10 * sin(0.01 * w), Vector3(0.3 * sin(0.17 * w), 0.5 * sin(0.15 * w), heave))
        }
    }

    /// Shaken vigorously, +-3 g along one body axis (0 x, 1 y, 2 z) at 5 Hz for `seconds`,
    /// with the wrist wobbling a little; still before and after.
    static func shaking(axis: Int, seconds: Double = 2, frequency: Double = 5, rate: Double = 100, seed: UInt64) -> MotionTrace {
        var shaken = MotionTrace(rate: rate, seconds: seconds + 2, seed: seed) { time in
            let active = time >= 1 && time < 1 + seconds
            let wobble = active ? 8 * sin(2 * Double.pi * frequency * time + 0.5) : 0
            return (wobble, 0.5 * wobble, 0, .zero)
        }
        // The shaking is along a body axis, so it is added in the body frame.
        for i in shaken.force.indices {
            let time = Double(i) / rate
            guard time >= 1, time < 1 + seconds else { continue }
            let push = 3 * 9.80665 * sin(2 * Double.pi * frequency * (time - 1))
            switch axis {
            case 0: shaken.force[i].x += push
            case 1: shaken.force[i].y += push
            default: shaken.force[i].z += push
            }
        }
        return shaken
    }

    /// One deliberate flip: face up, turned over about x (roll) or y (pitch) in `halfTurn`
    /// seconds, held face down for `hold`, turned back (the same way back, or on round the
    /// full circle) and held face up again. Hand tremor and small shoves throughout.
    /// Sampled directly in the body frame: Euler angles would lock up passing pitch 90.
    static func flip(
        aboutY: Bool, halfTurn: Double, hold: Double, onRound: Bool = false,
        rate: Double = 100, seed: UInt64
    ) -> MotionTrace {
        var random = SeededRandom(seed: seed)
        let start = 1.5
        func angle(_ time: Double) -> Double {
            let s = time - start
            let tremor = 1.5 * sin(2 * Double.pi * 7 * time) + 0.8 * sin(2 * Double.pi * 3.3 * time)
            // Smooth (raised cosine) turns: how a hand starts and stops a rotation.
            if s <= 0 { return tremor }
            if s < halfTurn { return tremor + 90 * (1 - cos(Double.pi * s / halfTurn)) }
            if s < halfTurn + hold { return tremor + 180 }
            if s < 2 * halfTurn + hold {
                let u = (s - halfTurn - hold) / halfTurn
                return tremor + 180 + (onRound ? 1 : -1) * 90 * (1 - cos(Double.pi * u))
            }
            return tremor + (onRound ? 360 : 0)
        }
        var trace = MotionTrace(rate: rate)
        let dt = 1 / rate
        let g = 9.80665
        for i in 0..<Int((start + 2 * halfTurn + hold + 3.5) * rate) {
            let time = Double(i) * dt
            let theta = Angle.radians(angle(time))
            let turnRate = (theta - Angle.radians(angle(time - dt))) / dt
            let shove = Vector3(0.5 * sin(2 * Double.pi * 1.1 * time), 0.4 * sin(2 * Double.pi * 0.9 * time), 0.3 * sin(2 * Double.pi * 1.7 * time))
            let gravity = aboutY ? Vector3(g * sin(theta), 0, -g * cos(theta)) : Vector3(0, -g * sin(theta), -g * cos(theta))
            let noise = Vector3(random.gaussian(0.04), random.gaussian(0.04), random.gaussian(0.04))
            trace.force.append(gravity + shove + noise)
            let gyroNoise = Vector3(random.gaussian(0.004), random.gaussian(0.004), random.gaussian(0.004))
            trace.rotation.append((aboutY ? Vector3(0, turnRate, 0) : Vector3(turnRate, 0, 0)) + gyroNoise)
        }
        trace.trueFlips = 1
        return trace
    }
}
