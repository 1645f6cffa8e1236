/// What a client asked to stream with ?WATCH, as gpsd defines it (enable, json, nmea, raw,
/// device, and the flags it accepts without effect here: scaled, timing, split24, pps), plus
/// Lodestone's per-class rates.
public struct WatchOptions: Sendable, Equatable {
    public var enabled = false
    public var json = false
    /// Pass the receiver's NMEA sentences through as they came (raw 1 or more means the same
    /// for an NMEA receiver).
    public var nmea = false
    public var raw = 0
    public var scaled = false, timing = false, split24 = false, pps = false
    /// Only reports from this device (a path from DEVICES).
    public var device: String?
    /// At most this many reports a second of a class ("TPV": 1, "IMU": 0 for none); classes
    /// not named come as they are made.
    public var rates: [String: Double] = [:]
    public init() {}
}
