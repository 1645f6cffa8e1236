import LodestoneCore

/// A one-sigma estimate of the heading's error in degrees, published with every heading so a
/// user or a program knows how far to trust it. Independent error sources add in quadrature:
/// what the calibration leaves, a field that differs from Earth's in strength (a distortion
/// the interference check did not catch, turned into an angle against the horizontal field),
/// while the magnetometer is being ignored, the gyro's drift since the last good fix, and how
/// far the filter's heading still is from the field's (it takes seconds to follow a new
/// calibration, and the heading is that far off meanwhile).
public enum HeadingAccuracy {
    /// Without any calibration a breakout near a battery is typically 5-15 degrees off.
    public static let uncalibratedError = 10.0
    /// A MEMS gyro after bias learning drifts about this much, degrees per second.
    public static let gyroDrift = 0.02

    /// - Parameter disagreement: degrees between the filter's heading and the field's.
    public static func estimate(
        calibrationError: Double?, strengthError: Double, horizontalFraction: Double,
        secondsOnGyro: Double, disagreement: Double = 0
    ) -> Double {
        let calibration = calibrationError ?? uncalibratedError
        var distortion = 0.0
        if strengthError.isFinite, horizontalFraction > 0.05 {
            // A stray field of size |dF| moves a horizontal field H by up to atan(dF / H).
            let ratio = min(abs(strengthError) / horizontalFraction, 1)
            distortion = Angle.degrees(ratio - ratio * ratio * ratio / 3)  // atan, to within 0.1 degree for ratio <= 1
        }
        let drift = gyroDrift * max(0, secondsOnGyro)
        let behind = disagreement.isFinite ? disagreement : 0
        return (calibration * calibration + distortion * distortion + drift * drift + behind * behind).squareRoot()
    }
}
