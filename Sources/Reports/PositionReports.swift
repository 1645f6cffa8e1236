import LodestoneCore
import LodestoneDomain

/// A position (TPV): the fix as filtered (or predicted across a short outage), stamped with
/// the fix's own UTC.
public struct PositionReport: Sendable {
    public var fix: GPSFix
    public var device: String
    /// 0...100, when the running device has assessed the fix.
    public var confidence: Int?
    /// The speed's one-sigma error (m/s), the altitude's rate (m/s, up positive) and the
    /// World Magnetic Model's declination here (degrees, east positive), when known.
    public var speedError: Double?
    public var climb: Double?
    public var magneticVariation: Double?
    /// What a person can act on while the fix is weak (each warning's advice in the table of
    /// words, in the face's language); not on the socket.
    public var warnings: [FixQuality.Warning] = []
    public init(fix: GPSFix, device: String, confidence: Int? = nil) {
        (self.fix, self.device, self.confidence) = (fix, device, confidence)
    }
}

/// The satellites in view at the end of a receiver's cycle (SKY), with its dilutions of precision.
public struct SatelliteReport: Sendable {
    public var satellites: [Satellite]
    public var hdop: Double, pdop: Double, vdop: Double
    public var device: String
    public init(satellites: [Satellite], hdop: Double, pdop: Double, vdop: Double, device: String) {
        (self.satellites, self.hdop, self.pdop, self.vdop, self.device) = (satellites, hdop, pdop, vdop, device)
    }
}
