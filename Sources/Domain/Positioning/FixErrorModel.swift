import LodestoneCore

/// A fix's one-sigma errors when the receiver does not state them (GST): its dilutions of
/// precision times the error of one satellite's range as a typical receiver without
/// corrections sees it (clock, orbit, atmosphere, multipath). Vertical errors are larger than
/// horizontal ones for the same geometry; a Doppler velocity is good to a few tenths of a metre
/// per second.
public enum FixErrorModel {
    /// Metres of range error behind the horizontal position, per unit of HDOP.
    public static let horizontalRangeError = 5.0
    /// Metres behind the altitude, per unit of VDOP.
    public static let verticalRangeError = 8.0
    /// Metres per second behind the speed, per unit of HDOP.
    public static let speedRangeError = 0.2

    /// Metres: the receiver's own figure, else HDOP's.
    public static func horizontal(_ fix: GPSFix) -> Double? {
        if fix.eph.isFinite && fix.eph > 0 { return fix.eph }
        return fix.hdop.isFinite && fix.hdop > 0 ? fix.hdop * horizontalRangeError : nil
    }

    /// Metres: the receiver's own figure, else VDOP's (from PDOP and HDOP when only they came).
    public static func vertical(_ fix: GPSFix) -> Double? {
        guard fix.mode == .threeD else { return nil }
        if fix.epv.isFinite && fix.epv > 0 { return fix.epv }
        if fix.vdop.isFinite && fix.vdop > 0 { return fix.vdop * verticalRangeError }
        guard fix.pdop.isFinite, fix.hdop.isFinite, fix.pdop > fix.hdop else { return nil }
        return (fix.pdop * fix.pdop - fix.hdop * fix.hdop).squareRoot() * verticalRangeError
    }

    /// Metres per second, for a fix with a speed.
    public static func speed(_ fix: GPSFix) -> Double? {
        guard fix.speed.isFinite, fix.hdop.isFinite, fix.hdop > 0 else { return nil }
        return fix.hdop * speedRangeError
    }
}
