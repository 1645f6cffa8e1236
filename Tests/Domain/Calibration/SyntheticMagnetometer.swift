import Glibc
import LodestoneCore
import LodestoneDomain

/// SplitMix64: a tiny, fully deterministic generator so every run sees the same readings.
struct SeededGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Standard normal by Box-Muller.
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

/// A magnetometer in a known field with known hard and soft iron, turned through known attitudes.
/// The truth is built forwards with explicit rotation matrices (as in TiltCompensatedHeadingTests),
/// independently of the fit under test.
struct SyntheticMagnetometer {
    var fieldStrength = 50.0
    /// Degrees below the horizontal.
    var inclination = 65.0
    /// Twice the field strength, as a magnet or a speaker next to the sensor gives.
    var hardIron = Vector3(70, -60, 45)
    /// Raw = distortion x true field + hard iron + noise.
    var distortion = SyntheticMagnetometer.softIron(scales: Vector3(0.8, 1.0, 1.2))
    /// Microtesla, one sigma per axis.
    var noise = 0.3

    /// Symmetric, non-diagonal: the given axis scales along axes turned away from the sensor's.
    static func softIron(scales: Vector3) -> Matrix3 {
        let r = rotation(yaw: 30, pitch: 20, roll: 40)
        return r * Matrix3.diagonal(scales) * r.transposed
    }

    /// The matrix whose columns are the body axes in the navigation frame (north, east, down)
    /// for yaw, pitch, roll in degrees: Rz(yaw) Ry(pitch) Rx(roll).
    static func rotation(yaw: Double, pitch: Double, roll: Double) -> Matrix3 {
        let y = yaw * .pi / 180, p = pitch * .pi / 180, r = roll * .pi / 180
        let rz = Matrix3(Vector3(cos(y), -sin(y), 0), Vector3(sin(y), cos(y), 0), Vector3(0, 0, 1))
        let ry = Matrix3(Vector3(cos(p), 0, sin(p)), Vector3(0, 1, 0), Vector3(-sin(p), 0, cos(p)))
        let rx = Matrix3(Vector3(1, 0, 0), Vector3(0, cos(r), -sin(r)), Vector3(0, sin(r), cos(r)))
        return rz * ry * rx
    }

    /// The Earth's field, north/east/down, no declination (so true heading = yaw).
    var navigationField: Vector3 {
        let dip = inclination * .pi / 180
        return Vector3(fieldStrength * cos(dip), 0, fieldStrength * sin(dip))
    }

    func trueField(yaw: Double, pitch: Double, roll: Double) -> Vector3 {
        SyntheticMagnetometer.rotation(yaw: yaw, pitch: pitch, roll: roll).transposed * navigationField
    }

    static func specificForce(yaw: Double, pitch: Double, roll: Double) -> Vector3 {
        rotation(yaw: yaw, pitch: pitch, roll: roll).transposed * Vector3(0, 0, -9.80665)
    }

    func noiseless(yaw: Double, pitch: Double, roll: Double) -> Vector3 {
        distortion * trueField(yaw: yaw, pitch: pitch, roll: roll) + hardIron
    }

    func reading(yaw: Double, pitch: Double, roll: Double, _ rng: inout SeededGenerator) -> Vector3 {
        noiseless(yaw: yaw, pitch: pitch, roll: roll)
            + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * noise
    }

    struct Attitude { var yaw, pitch, roll: Double }

    /// Uniformly random attitudes (pitch = asin of a uniform number gives the uniform measure on
    /// rotations), optionally kept only where `keep` says so.
    static func randomAttitudes(_ count: Int, seed: UInt64, keep: (Attitude) -> Bool = { _ in true }) -> [Attitude] {
        var rng = SeededGenerator(seed: seed)
        var out: [Attitude] = []
        while out.count < count {
            let a = Attitude(
                yaw: rng.uniform(0...360), pitch: asin(rng.uniform(-1...1)) * 180 / .pi,
                roll: rng.uniform(-180...180))
            if keep(a) { out.append(a) }
        }
        return out
    }

    /// A continuous hand-held figure-8 session: the device swings through figure 8s (pitch
    /// at the figure's frequency, roll at twice it) and is rolled over part way, while the
    /// person slowly turns round.
    static func figureEight(_ count: Int) -> [Attitude] {
        (0..<count).map { i in
            let t = Double(i) / Double(count) * 2 * .pi * 8
            return Attitude(yaw: t * 180 / .pi / 4, pitch: 80 * sin(t), roll: 170 * sin(0.5 * t + 0.3) * cos(0.13 * t))
        }
    }

    func readings(_ attitudes: [Attitude], seed: UInt64) -> [Vector3] {
        var rng = SeededGenerator(seed: seed)
        return attitudes.map { reading(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll, &rng) }
    }
}
