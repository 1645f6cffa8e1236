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

/// One magnetometer reading in microtesla. Drivers give it in the sensor's own axes; the
/// sampling pipeline publishes it calibrated and in body axes, keeping the reading as it came
/// from the chip in `raw` (what a calibration is fitted to).
public struct MagneticSample: Sendable, Equatable {
    public var time: MonotonicNanoseconds
    public var field: Vector3
    public var raw: Vector3
    /// The accelerometer's reading (body axes) when the field was read, nil without one: a
    /// calibration fit pairs each field with the gravity of its own moment, not with whatever
    /// the accelerometer says when a slower thread gets round to the reading.
    public var specificForce: Vector3?

    public init(time: MonotonicNanoseconds, field: Vector3, raw: Vector3? = nil, specificForce: Vector3? = nil) {
        self.time = time
        self.field = field
        self.raw = raw ?? field
        self.specificForce = specificForce
    }
}

/// One barometer reading.
public struct PressureSample: Sendable, Equatable {
    public var time: MonotonicNanoseconds
    /// Station pressure in pascal.
    public var pressure: Double
    /// Sensor temperature in degrees Celsius.
    public var temperature: Double
    /// Relative humidity in percent, from chips that measure it (BME280); nil otherwise.
    public var humidity: Double?

    public init(time: MonotonicNanoseconds, pressure: Double, temperature: Double, humidity: Double? = nil) {
        self.time = time
        self.pressure = pressure
        self.temperature = temperature
        self.humidity = humidity
    }
}

/// How good a GPS fix is, as gpsd's TPV `mode` counts it.
public enum FixMode: Int, Sendable, Equatable {
    case unknown = 0, noFix = 1, twoD = 2, threeD = 3
}

/// One GPS reporting epoch merged from the sentences of a cycle (GGA, RMC, GSA, VTG, ...).
/// Fields the receiver did not send are NaN (or nil for time), never a made-up zero.
public struct GPSFix: Sendable, Equatable {
    /// When the epoch's last sentence arrived, on the monotonic clock.
    public var received: MonotonicNanoseconds = 0
    /// UTC of the fix, seconds since 1970, when the receiver gave a date and a time.
    public var utc: Double? = nil
    public var mode: FixMode = .unknown
    public var latitude = Double.nan
    public var longitude = Double.nan
    /// Height above mean sea level and above the WGS84 ellipsoid, metres.
    public var altitudeMSL = Double.nan
    public var altitudeHAE = Double.nan
    public var geoidSeparation = Double.nan
    /// Speed over ground m/s, course over ground degrees true.
    public var speed = Double.nan
    public var course = Double.nan
    public var satellitesUsed = 0
    public var satellitesVisible = 0
    public var hdop = Double.nan
    public var vdop = Double.nan
    public var pdop = Double.nan
    /// Estimated horizontal and vertical error (one sigma), metres, from GST when sent.
    public var eph = Double.nan
    public var epv = Double.nan
    /// Predicted through a short gap in the receiver's fixes, not measured (gpsd's status 5).
    public var deadReckoning = false
    /// Bytes of the receiver's burst on the line up to `received` (its sentences before and
    /// including this fix's last): at the line's baud rate, how long before `received` the
    /// burst began, which is when the receiver starts sending after the fix's epoch.
    public var burstBytes: Int32 = 0
    /// The receiver's last pulse-per-second edge before the burst began (monotonic, the
    /// kernel's stamp), 0 without a pulse line: the start of the UTC second the fix is in, or
    /// of the one before.
    public var pulse: MonotonicNanoseconds = 0

    public init() {}

    public var hasPosition: Bool { mode.rawValue >= 2 && latitude.isFinite && longitude.isFinite }
}

/// One satellite as GSV reports it.
public struct Satellite: Sendable, Equatable {
    /// The PRN as the receiver numbers it (NMEA 4.x numbering varies by constellation).
    public var prn: Int
    public var elevation: Double
    public var azimuth: Double
    /// Signal to noise ratio, dB-Hz; NaN when the satellite is not tracked.
    public var snr: Double
    public var used: Bool

    public init(prn: Int, elevation: Double, azimuth: Double, snr: Double, used: Bool) {
        self.prn = prn
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
        self.used = used
    }
}

/// One satellite on its way from the sampling thread to the SKY report, with the cycle's
/// DOPs on the last one of a cycle.
public struct SkyItem: Sendable, Equatable {
    public var satellite: Satellite
    /// True on the last satellite of a GSV cycle: the view is complete.
    public var endsCycle: Bool
    public var hdop: Double
    public var pdop: Double
    public var vdop: Double

    public init(satellite: Satellite, endsCycle: Bool, hdop: Double, pdop: Double, vdop: Double) {
        self.satellite = satellite
        self.endsCycle = endsCycle
        self.hdop = hdop
        self.pdop = pdop
        self.vdop = vdop
    }
}

/// One NMEA sentence as the receiver sent it (without CR/LF), carried by value in a ring from
/// the sampling thread to the outputs that pass sentences through (gpsd's `"nmea":true`
/// watchers, the NMEA 0183 server). Inline storage: pushing one allocates nothing.
public struct RawSentence: Sendable {
    public static let capacity = 120
    public private(set) var length = 0
    private var bytes = InlineArray<120, UInt8>(repeating: 0)

    public init() {}

    /// A sentence from received bytes; longer ones are cut at `capacity` (the framer never
    /// passes longer ones).
    public init(_ source: UnsafeBufferPointer<UInt8>) {
        length = min(source.count, Self.capacity)
        for index in 0..<length { bytes[index] = source[index] }
    }

    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The sentence's bytes, for as long as `body` runs (copied to the stack: nothing allocated).
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity) { buffer in
            for index in 0..<length { buffer[index] = bytes[index] }
            return body(UnsafeBufferPointer(rebasing: buffer[0..<length]))
        }
    }
}
