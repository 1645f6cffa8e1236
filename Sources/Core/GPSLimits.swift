/// What a GPS receiver can physically report. Civil receivers stop giving fixes above 515 m/s
/// (1,000 knots) or 18,000 m, the export limits they are built to, so a sentence beyond them
/// (or with a course off the compass, or a negative dilution of precision) is damaged or
/// forged, whatever its checksum says. A DOP of 0 is a receiver's "none", kept out of the fix.
/// (Plain numbers rather than ranges: literals need no lazy initialisation on the parser's path.)
public enum GPSLimits {
    /// Speed over ground, m/s (from 0).
    public static let highestSpeed = 515.0
    /// Height above mean sea level, metres: the Dead Sea shore is at -430.
    public static let lowestAltitude = -500.0
    public static let highestAltitude = 18_000.0
    /// Course over ground, degrees (from 0).
    public static let highestCourse = 360.0
}

/// Why a sentence was dropped: its first field beyond `GPSLimits`, with the value it gave.
public enum ImpossibleGPSField: Sendable, Equatable {
    case speed(Double)
    case altitude(Double)
    case course(Double)
    case dilution(Double)

    /// The reason in words, with the limit ("speed 277777.2 m/s outside 0-515 m/s").
    public var description: String {
        switch self {
        case .speed(let v): return "speed \(DecimalText.compact(v, 1)) m/s outside 0-515 m/s"
        case .altitude(let v): return "altitude \(DecimalText.compact(v, 1)) m outside -500-18000 m"
        case .course(let v): return "course \(DecimalText.compact(v, 1))° outside 0-360°"
        case .dilution(let v): return "dilution of precision \(DecimalText.compact(v, 2)) below 0"
        }
    }
}
