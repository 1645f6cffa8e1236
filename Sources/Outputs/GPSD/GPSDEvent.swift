import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

extension GPSDReports {
    /// EVENT (Lodestone): `event` names what happened; the fields after it say the rest.
    static func event(_ report: EventReport, into w: inout JSONBuffer) {
        w.beginReport("EVENT")
        switch report.event {
        case .motion(let from, let to):
            w.string("event", "motion")
            w.string("state", to.rawValue)
            w.string("from", from.rawValue)
        case .flip(let action, let night):
            w.string("event", "flip")
            w.string("action", action)
            w.bool("nightTheme", night)
        case .level(let level):
            w.string("event", "level")
            w.bool("level", level)
        case .levelOffset(let roll, let pitch):
            w.string("event", "levelOffset")
            w.number("roll", roll, decimals: 2)
            w.number("pitch", pitch, decimals: 2)
        case .bearingLock(let bearing):
            w.string("event", "bearingLock")
            w.bool("locked", bearing != nil)
            if let bearing { w.number("bearing", bearing, decimals: 2) }
        case .offCourse(let deviation, let bearing):
            w.string("event", "offCourse")
            w.number("deviation", deviation, decimals: 2)
            w.number("bearing", bearing, decimals: 2)
        case .onCourse(let bearing):
            w.string("event", "onCourse")
            w.number("bearing", bearing, decimals: 2)
        case .offTrack(let active, let crossTrack):
            w.string("event", "offTrack")
            w.bool("active", active)
            w.number("crossTrack", crossTrack, decimals: 1)
        case .alert(let alert):
            w.string("event", "alert")
            w.string("alert", alert.kind.rawValue)
            w.number("value", alert.value, decimals: 2)
            w.number("threshold", alert.threshold, decimals: 2)
            w.string("unit", alert.kind.unit)
            w.string("message", alert.message)
        case .sky(let kind, let at, let zone):
            w.string("event", "sky")
            w.string("kind", kind)
            w.localTime("at", at, zone: zone)
        case .departureReminder(let stop, let route, let headsign, let departure, let zone):
            w.string("event", "departure")
            w.string("stop", stop)
            w.string("route", route)
            w.string("headsign", headsign)
            w.localTime("departure", departure, zone: zone)
        case .satellitePass(let satellite, let rise, let culmination, let maximumAltitude, let riseAzimuth):
            w.string("event", "satellitePass")
            w.string("satellite", satellite)
            w.time("rise", rise)
            w.time("culmination", culmination)
            w.number("maximumAltitude", maximumAltitude, decimals: 1)
            w.number("riseAzimuth", riseAzimuth, decimals: 1)
        case .calibration(let c):
            w.string("event", "calibration")
            w.string("sensor", "magnetometer")
            w.string("status", c.status.rawValue)
            w.number("progress", c.progress, decimals: 2)
            w.beginArray("missing")
            for direction in c.missing { w.element(direction.rawValue) }
            w.endArray()
            if let error = c.expectedHeadingError { w.number("expectedHeadingError", error, decimals: 2) }
            w.string("message", c.message)
        case .gps(let warning, let active, let age):
            w.string("event", "gps")
            w.string("warning", warning.rawValue)
            w.bool("active", active)
            if warning == .noFix && age.isFinite { w.number("secondsWithoutFix", age, decimals: 0) }
            w.string("message", active ? warning.advice() : "cleared: " + warning.rawValue)
        case .storage(let active, let message):
            w.string("event", "storage")
            w.string("warning", "writeFailed")
            w.bool("active", active)
            w.string("message", message)
        case .button(let name, let action):
            w.string("event", "button")
            w.string("button", name)
            w.string("action", action)
        }
        if let time = report.time { w.time("time", time) }
        w.endObject()
    }
}
