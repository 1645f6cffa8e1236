/// One reading from the accelerometer/gyroscope, in SI units, stamped when it was read.
public struct ImuSample: Sendable, Equatable {
    public var time: MonotonicNanoseconds
    /// Specific force in m/s^2 (reads +9.81 on z when lying flat, z up out of the chip).
    public var acceleration: Vector3
    /// Angular rate in rad/s.
    public var rotationRate: Vector3
    /// Die temperature in degrees Celsius.
    public var temperature: Double

    public init(time: MonotonicNanoseconds, acceleration: Vector3, rotationRate: Vector3, temperature: Double) {
        self.time = time
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.temperature = temperature
    }
}

/// One magnetometer reading in microtesla, in the sensor's own axes.
public struct MagneticSample: Sendable, Equatable {
    public var time: MonotonicNanoseconds
    public var field: Vector3

    public init(time: MonotonicNanoseconds, field: Vector3) {
        self.time = time
        self.field = field
    }
}

/// One barometer reading.
public struct PressureSample: Sendable, Equatable {
    public var time: MonotonicNanoseconds
    /// Station pressure in pascal.
    public var pressure: Double
    /// Sensor temperature in degrees Celsius.
    public var temperature: Double

    public init(time: MonotonicNanoseconds, pressure: Double, temperature: Double) {
        self.time = time
        self.pressure = pressure
        self.temperature = temperature
    }
}
