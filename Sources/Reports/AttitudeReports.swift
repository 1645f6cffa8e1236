import LodestoneCore
import LodestoneDomain

/// Where the magnetometer's calibration stands, as the compass service judges it.
public enum CalibrationStatus: String, Sendable, CaseIterable {
    case uncalibrated, inProgress, good, poor
}

/// The attitude (ATT): what the sampling side's filter measured, each value present only once
/// it is (a heading only with a magnetometer, a true heading only once a fix placed the
/// device), with what the output side adds (the calibration's status, the bearing lock, the
/// level), stamped with the time of the samples the state was computed from. The outputs
/// format these values; none reads the sampling side's state.
public struct AttitudeReport: Sendable {
    public var device: String
    /// UTC seconds on the device's time base.
    public var time: Double
    /// Degrees, right side down and nose up positive; nil without an attitude yet.
    public var roll: Double?
    public var pitch: Double?
    /// The filter's heading from magnetic north, degrees, once the magnetometer has spoken
    /// (carried on the gyro through interference), and the same when another program may take
    /// it as true (`NavigationState.trustedMagneticHeading`).
    public var magneticHeading: Double?
    public var trustedMagneticHeading: Double?
    public var trueHeading: Double?
    /// One sigma, degrees.
    public var headingAccuracy: Double?
    public var declination: Double?
    /// Degrees per second, starboard positive (`TurnRate`).
    public var rateOfTurn: Double?
    /// The measured field's dip, degrees.
    public var dip: Double?
    /// With a magnetic reading: whether the field is disturbed, and whether a calibration is in use.
    public var magneticStatus: (interference: Bool, calibrated: Bool)?
    public var imu: ImuSample?
    public var magnetic: MagneticSample?
    public var calibration: CalibrationStatus?
    public var lock: BearingLockFigures?
    public var level: Bool?
    /// A guided calibration's progress, 0...1 (nil when none runs).
    public var calibrationProgress: Double?
    /// The compass calibrates by a slow full circle (a boat's swing), not by figure-8s; how far
    /// a guided swing has come, degrees.
    public var calibratesBySwing = false
    public var swingTurned: Double?
    /// Roll and pitch from the level's own zero (degrees), as the level page shows them.
    public var levelAngles: (roll: Double, pitch: Double)?

    public init(device: String, time: Double) {
        (self.device, self.time) = (device, time)
    }

    /// The report of a published state: its measured values, nothing standing in for one not
    /// measured.
    public init(
        state: NavigationState, device: String, time: Double, calibration: CalibrationStatus? = nil,
        lock: BearingLockFigures? = nil, level: Bool? = nil
    ) {
        self.init(device: device, time: time)
        if let attitude = state.attitude {
            (roll, pitch) = (attitude.roll, attitude.pitch)
            magneticHeading = attitude.magneticHeading.isFinite ? attitude.magneticHeading : nil
            if magneticHeading != nil {
                headingAccuracy = state.headingAccuracy.isFinite ? state.headingAccuracy : nil
                trueHeading = state.trueHeading
            }
            declination = state.declination
        }
        trustedMagneticHeading = state.trustedMagneticHeading
        rateOfTurn = state.rateOfTurn
        dip = state.dip.isFinite ? state.dip : nil
        if state.magnetic != nil { magneticStatus = (state.magneticInterference, state.calibrationHeadingError != nil) }
        (imu, magnetic) = (state.imu, state.magnetic)
        (self.calibration, self.lock, self.level) = (calibration, lock, level)
    }
}

/// A locked bearing and how far the heading is from it (positive clockwise of it).
public struct BearingLockFigures: Sendable, Equatable {
    public var bearing: Double
    public var deviation: Double?
    public var offCourse: Bool
    public init(bearing: Double, deviation: Double?, offCourse: Bool) {
        (self.bearing, self.deviation, self.offCourse) = (bearing, deviation, offCourse)
    }
}

/// One inertial sample (IMU) with the newest magnetometer reading, stamped with the sample's time.
public struct InertialReport: Sendable {
    public var imu: ImuSample
    public var magnetic: MagneticSample?
    public var device: String
    public var time: Double
    public init(imu: ImuSample, magnetic: MagneticSample?, device: String, time: Double) {
        (self.imu, self.magnetic, self.device, self.time) = (imu, magnetic, device, time)
    }
}
