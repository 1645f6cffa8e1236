import LodestoneCore
import LodestoneDomain

/// Where the magnetometer's calibration stands, as the compass service judges it.
public enum CalibrationStatus: String, Sendable, CaseIterable {
    case uncalibrated, inProgress, good, poor
}

/// The attitude (ATT): heading, pitch and roll from the sampling side's filter, with what the
/// output side adds (the calibration's status, the bearing lock, the level), stamped with the
/// time of the samples the state was computed from.
public struct AttitudeReport: Sendable {
    public var state: NavigationState
    public var device: String
    /// UTC seconds on the device's time base.
    public var time: Double
    public var calibration: CalibrationStatus?
    public var lock: BearingLockFigures?
    public var level: Bool?
    public init(state: NavigationState, device: String, time: Double, calibration: CalibrationStatus? = nil,
                lock: BearingLockFigures? = nil, level: Bool? = nil) {
        (self.state, self.device, self.time, self.calibration, self.lock, self.level) = (state, device, time, calibration, lock, level)
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
