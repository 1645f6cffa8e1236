import LodestoneCore
import Glibc

/// What the physical world presents to the sensors at one instant, in the body frame
/// (x forward, y right, z down) and SI units. Emulated chips turn this into register values.
public struct SensorTruth: Sendable, Equatable {
    /// Specific force the accelerometer feels, m/s^2 (level and still: (0, 0, -9.80665)).
    public var specificForce: Vector3
    /// Angular rate, rad/s.
    public var rotationRate: Vector3
    /// Earth's magnetic field, microtesla, before any hard- or soft-iron distortion.
    public var magneticField: Vector3
    /// Static pressure, pascal.
    public var pressure: Double
    /// Air temperature, degrees Celsius.
    public var temperature: Double
    /// Relative humidity, percent.
    public var humidity: Double

    public init(
        specificForce: Vector3, rotationRate: Vector3, magneticField: Vector3,
        pressure: Double, temperature: Double, humidity: Double
    ) {
        self.specificForce = specificForce
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.pressure = pressure
        self.temperature = temperature
        self.humidity = humidity
    }

    /// Level, still, at sea level on a mild day with a mid-latitude field.
    public static let still = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero,
        magneticField: Vector3(21.5, 0.8, 43.0), pressure: 101_325, temperature: 15, humidity: 50)
}

/// Where an emulated chip gets the world's state from when the driver reads it.
public protocol SensorTruthSource: AnyObject, Sendable {
    func currentTruth() -> SensorTruth
}

/// A fixed truth, for tests.
public final class FixedTruth: SensorTruthSource, @unchecked Sendable {
    public var truth: SensorTruth
    public init(_ truth: SensorTruth = .still) { self.truth = truth }
    public func currentTruth() -> SensorTruth { truth }
}

/// Where the simulated board mounts its chips: every chip lies flat with x forward, y to the
/// left and z up (the usual breakout-board markings), so chip axes are (x, -y, -z) of the body.
public enum ChipMounting {
    @inline(__always) public static func chipAxes(fromBody v: Vector3) -> Vector3 { Vector3(v.x, -v.y, -v.z) }
    @inline(__always) public static func bodyAxes(fromChip v: Vector3) -> Vector3 { Vector3(v.x, -v.y, -v.z) }
}

/// A small, fast, deterministic random source (SplitMix64) so a seed reproduces a whole run.
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Normally distributed with the given standard deviation (Box-Muller).
    public mutating func gaussian(_ sigma: Double) -> Double {
        let u1 = max(uniform(), 1e-300)
        let u2 = uniform()
        return sigma * (-2 * Glibc.log(u1)).squareRoot() * Glibc.cos(2 * Double.pi * u2)
    }
}
