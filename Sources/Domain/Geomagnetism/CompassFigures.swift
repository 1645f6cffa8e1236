import Glibc
import LodestoneCore

/// What the compass makes of a state once the attitude is known: the declination and true
/// heading from the model's field here, the measured field's strength and dip against the
/// model's (the dip in north-east-down axes, so it does not depend on the heading),
/// interference once a calibration has removed the sensor's own distortion, and the
/// heading's one-sigma accuracy. Kept by the sampling thread; no allocation.
public struct CompassFigures: Sendable {
    private var interference = InterferenceMonitor()
    /// When the field last steered the heading (not disturbed, the chip answering, the filter
    /// taking it), on the monotonic clock.
    private var lastCleanField: MonotonicNanoseconds = 0

    public init() {}

    /// Updates `state`'s compass figures. `calibration` is the one the field was corrected
    /// with; `orientation` the filter's (body to north-east-down); `magnetometerUsed` whether
    /// the filter took the field in this update; `magneticErrorSine` how far it disagrees.
    public mutating func update(
        _ state: inout NavigationState, expected: ExpectedField?, calibration: MagnetometerCalibration?,
        orientation: Quaternion, magnetometerUsed: Bool, magneticErrorSine: Double,
        interval: Double, now: MonotonicNanoseconds
    ) {
        state.calibrationHeadingError = calibration?.expectedHeadingError
        state.declination = expected?.declination
        state.expectedFieldStrength = expected?.strength ?? .nan
        state.expectedDip = expected?.inclination ?? .nan
        if let magnetic = state.magnetic, state.imu != nil {
            let earth = orientation.rotate(magnetic.field)
            let horizontal = (earth.x * earth.x + earth.y * earth.y).squareRoot()
            state.fieldStrength = magnetic.field.length
            state.dip = Angle.degrees(atan2(earth.z, horizontal))
            // Uncalibrated, the field's strength swings with orientation by the hard iron itself;
            // interference can only be told apart once the sensor's own distortion is removed.
            if let expected, calibration != nil {
                state.magneticInterference = interference.update(
                    fieldStrength: state.fieldStrength, dip: state.dip,
                    expected: expected, interval: interval)
            }
        }
        // The heading is on the gyro alone while the field is disturbed, the chip is silent, or
        // the filter is rejecting a reading that disagrees with it.
        if !state.magneticInterference, state.magnetic != nil, magnetometerUsed { lastCleanField = now }
        guard let attitude = state.attitude else { return }
        guard attitude.magneticHeading.isFinite else {
            state.trueHeading = nil
            state.headingAccuracy = .nan
            return
        }
        state.trueHeading = expected.map { Angle.heading(attitude.magneticHeading + $0.declination) }
        state.headingAccuracy = HeadingAccuracy.estimate(
            calibrationError: calibration?.expectedHeadingError,
            strengthError: state.expectedFieldStrength > 0 ? interference.strengthError : .nan,
            horizontalFraction: expected?.horizontalFraction ?? 0,
            secondsOnGyro: Double(now &- lastCleanField) / 1e9,
            // A disturbed field is the interference's share, not the filter's lag.
            disagreement: state.magneticInterference ? 0 : Angle.degrees(asin(magneticErrorSine)))
    }
}
