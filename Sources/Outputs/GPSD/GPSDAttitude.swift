import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

extension GPSDReports {
    /// ATT: heading, pitch and roll in degrees; acceleration in m/s^2, rotation in deg/s,
    /// the magnetic field in microtesla (body frame x forward, y right, z down).
    ///
    /// gpsd's fields: `heading` (true; only once the position is known), `mheading`, `pitch`,
    /// `roll`, `dip` (degrees), `mag_st` (N normal, C calibration needed, O interference).
    /// Lodestone's: `headingAccuracy` (one sigma, degrees), `declination`, `calibration`
    /// (uncalibrated, inProgress, good, poor), `interference`, the bearing lock (`bearing`,
    /// signed `deviation`, positive clockwise of it, `offCourse`) and `level`.
    public static func att(_ report: AttitudeReport, into w: inout JSONBuffer) {
        w.beginReport("ATT")
        w.string("device", report.device)
        w.time("time", report.time)
        if let roll = report.roll, let pitch = report.pitch {
            if let heading = report.trueHeading { w.number("heading", heading, decimals: 2) }
            if let heading = report.magneticHeading { w.number("mheading", heading, decimals: 2) }
            w.number("pitch", pitch, decimals: 2)
            w.number("roll", roll, decimals: 2)
            // gpsd's rate of turn, degrees per minute: the gyro's (`TurnRate`).
            if let rate = report.rateOfTurn { w.number("rot", rate * 60, decimals: 1) }
            if let accuracy = report.headingAccuracy { w.number("headingAccuracy", accuracy, decimals: 1) }
            if let declination = report.declination { w.number("declination", declination, decimals: 2) }
        }
        if let dip = report.dip { w.number("dip", dip, decimals: 2) }
        if let status = report.magneticStatus {
            w.string("mag_st", status.interference ? "O" : (status.calibrated ? "N" : "C"))
            w.bool("interference", status.interference)
        }
        if let calibration = report.calibration { w.string("calibration", calibration.rawValue) }
        if let lock = report.lock {
            w.number("bearing", lock.bearing, decimals: 2)
            if let deviation = lock.deviation { w.number("deviation", deviation, decimals: 2) }
            w.bool("offCourse", lock.offCourse)
        }
        if let level = report.level { w.bool("level", level) }
        appendInertial(&w, imu: report.imu, magnetic: report.magnetic)
        w.endObject()
    }

    /// IMU: the raw inertial and magnetic readings of one sample, at the sample's time.
    public static func imu(_ report: InertialReport, into w: inout JSONBuffer) {
        w.beginReport("IMU")
        w.string("device", report.device)
        w.time("time", report.time)
        appendInertial(&w, imu: report.imu, magnetic: report.magnetic)
        w.endObject()
    }

    static func appendInertial(_ w: inout JSONBuffer, imu: ImuSample?, magnetic: MagneticSample?) {
        if let imu {
            w.number("acc_x", imu.acceleration.x)
            w.number("acc_y", imu.acceleration.y)
            w.number("acc_z", imu.acceleration.z)
            w.number("acc_len", imu.acceleration.length)
            w.number("gyro_x", Angle.degrees(imu.rotationRate.x))
            w.number("gyro_y", Angle.degrees(imu.rotationRate.y))
            w.number("gyro_z", Angle.degrees(imu.rotationRate.z))
            w.number("temp", imu.temperature, decimals: 1)
        }
        if let magnetic {
            w.number("mag_x", magnetic.field.x)
            w.number("mag_y", magnetic.field.y)
            w.number("mag_z", magnetic.field.z)
            w.number("mag_len", magnetic.field.length)
        }
    }

    /// MOTION (Lodestone): steps (and today's), cadence (steps/min), distance (m), floors up
    /// and down today, motion state, level.
    static func motion(_ report: MotionReport, into w: inout JSONBuffer) {
        w.beginReport("MOTION")
        w.time("time", report.time)
        w.string("state", report.state.rawValue)
        w.integer("steps", report.steps)
        if let today = report.stepsToday { w.integer("stepsToday", today) }
        if let distance = report.distanceToday { w.number("distanceToday", distance, decimals: 1) }
        if let active = report.activeSecondsToday { w.integer("activeSecondsToday", Int(active)) }
        if let up = report.floorsUp, let down = report.floorsDown {
            w.integer("floorsUp", up)
            w.integer("floorsDown", down)
        }
        w.number("cadence", report.cadence, decimals: 1)
        w.number("distance", report.distance, decimals: 1)
        w.bool("level", report.level)
        w.number("tilt", report.tilt, decimals: 2)
        w.bool("nightTheme", report.nightTheme)
        w.endObject()
    }
}
