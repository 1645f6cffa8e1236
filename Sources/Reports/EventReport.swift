import LodestoneCore
import LodestoneDomain

/// Something that happened (EVENT), stamped with the time it happened on the device's time
/// base (nil for the calibration's progress, which clients read as it comes).
public struct EventReport: Sendable {
    public var event: Event
    public var time: Double?
    public init(_ event: Event, time: Double?) {
        self.event = event
        self.time = time
    }
}

/// What happened.
public enum Event: Sendable {
    /// The motion state changed (still, walking, running, vehicle...).
    case motion(from: MotionState, to: MotionState)
    /// The flip gesture: what it did (`flipAction`: nightTheme, nextPage, markedDepartures or
    /// none) and the night theme after it.
    case flip(action: String, nightTheme: Bool)
    /// The bubble level was reached (true) or left.
    case level(Bool)
    case levelOffset(roll: Double, pitch: Double)
    /// The bearing lock was set (a bearing) or released (nil).
    case bearingLock(bearing: Double?)
    case offCourse(deviation: Double, bearing: Double)
    case onCourse(bearing: Double)
    /// Taking the person back: they left the recorded path (or came back to it).
    case offTrack(active: Bool, crossTrack: Double)
    case alert(AlertRules.Alert)
    /// A sun event passed (sunrise, the golden hour...) at `at`, told in the local zone.
    case sky(kind: String, at: Double, zone: TimeZoneRules)
    /// A departure asked to be reminded of leaves soon.
    case departureReminder(stop: String, route: String, headsign: String, departure: Double, zone: TimeZoneRules)
    /// A visible pass of a satellite (the ISS) begins soon.
    case satellitePass(satellite: String, rise: Double, culmination: Double, maximumAltitude: Double, riseAzimuth: Double)
    case calibration(CalibrationProgress)
    /// A GPS warning became active or cleared.
    case gps(warning: FixQuality.Warning, active: Bool, secondsWithoutFix: Double)
    /// The track's writes started failing (active) or work again.
    case storage(active: Bool, message: String)
    /// A button on the device: "press", "longPress" or "release".
    case button(name: String, action: String)
}

/// A magnetometer calibration's status and progress, and what to do next.
public struct CalibrationProgress: Sendable {
    public var status: CalibrationStatus
    /// 0...1
    public var progress: Double
    public var missing: [CoverageDirection]
    public var expectedHeadingError: Double?
    public var message: String
    public init(status: CalibrationStatus, progress: Double, missing: [CoverageDirection], expectedHeadingError: Double?, message: String) {
        (self.status, self.progress, self.missing, self.expectedHeadingError, self.message) = (status, progress, missing, expectedHeadingError, message)
    }
}
