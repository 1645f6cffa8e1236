import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

extension GPSDReports {
    /// TPV. `time` is the fix's own UTC; fields the receiver did not give are left out.
    /// Lodestone adds `confidence` (0..100) when the running device has assessed the fix.
    public static func tpv(_ report: PositionReport, into w: inout JSONBuffer) {
        let fix = report.fix
        w.beginReport("TPV")
        w.string("device", report.device)
        w.integer("mode", fix.mode.rawValue)
        if fix.deadReckoning { w.integer("status", 5) }
        if let utc = fix.utc { w.time("time", utc) }
        if fix.mode.rawValue >= 2 {
            w.number("lat", fix.latitude, decimals: 9)
            w.number("lon", fix.longitude, decimals: 9)
        }
        // Like gpsd, an altitude the receiver gave is reported even with a 2D fix.
        if fix.mode.rawValue >= 2 {
            w.number("altHAE", fix.altitudeHAE, decimals: 3)
            w.number("altMSL", fix.altitudeMSL, decimals: 3)
            w.number("alt", fix.altitudeMSL, decimals: 3)
            w.number("geoidSep", fix.geoidSeparation, decimals: 3)
        }
        w.number("track", fix.course, decimals: 4)
        w.number("speed", fix.speed, decimals: 3)
        w.number("eph", fix.eph, decimals: 3)
        w.number("epv", fix.epv, decimals: 3)
        if let eps = report.speedError { w.number("eps", eps, decimals: 3) }
        if let climb = report.climb { w.number("climb", climb, decimals: 3) }
        if let magvar = report.magneticVariation { w.number("magvar", magvar, decimals: 1) }
        if let confidence = report.confidence { w.integer("confidence", confidence) }
        w.endObject()
    }

    /// SKY: `PRN`, `el`, `az` (degrees), `ss` (dB-Hz), `used` for each satellite.
    public static func sky(_ report: SatelliteReport, into w: inout JSONBuffer) {
        w.beginReport("SKY")
        w.string("device", report.device)
        w.number("hdop", report.hdop, decimals: 2)
        w.number("pdop", report.pdop, decimals: 2)
        w.number("vdop", report.vdop, decimals: 2)
        w.integer("nSat", report.satellites.count)
        var used = 0
        for satellite in report.satellites where satellite.used { used += 1 }
        w.integer("uSat", used)
        w.beginArray("satellites")
        for s in report.satellites {
            w.beginObject()
            w.integer("PRN", s.prn)
            w.number("el", s.elevation, decimals: 1)
            w.number("az", s.azimuth, decimals: 1)
            w.number("ss", s.snr, decimals: 1)
            w.bool("used", s.used)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// WAYPOINT (Lodestone): the waypoint, and the way to it when known.
    static func waypoint(_ report: WaypointReport, into w: inout JSONBuffer) {
        w.beginReport("WAYPOINT")
        if let waypoint = report.waypoint {
            w.string("name", waypoint.name)
            w.number("lat", waypoint.latitude, decimals: 7)
            w.number("lon", waypoint.longitude, decimals: 7)
        }
        if let bearing = report.bearing { w.number("bearing", bearing, decimals: 1) }
        if let distance = report.distance { w.number("distance", distance, decimals: 1) }
        if let relative = report.relativeBearing { w.number("relativeBearing", relative, decimals: 1) }
        if let eta = report.timeToGo { w.number("timeToGo", eta, decimals: 0) }
        if report.arrived { w.bool("arrived", true) }
        if let back = report.backtrack {
            w.bool("backtrack", true)
            w.number("remaining", back.remaining, decimals: 1)
            w.number("crossTrack", back.crossTrack, decimals: 1)
            w.bool("offTrack", back.offTrack)
        }
        if let message = report.message { w.string("message", message) }
        w.endObject()
    }

    /// TRACK (Lodestone): the recording's state, name, points and distance so far.
    static func track(_ report: TrackReport, into w: inout JSONBuffer) {
        w.beginReport("TRACK")
        w.string("state", report.state)
        w.bool("autoPaused", report.autoPaused)
        if let recording = report.recording {
            w.string("name", recording.name)
            strings("tags", recording.tags, into: &w)
            w.string("interval", recording.interval)
            w.integer("points", recording.points)
            w.number("distance", recording.distance, decimals: 1)
            if recording.started.isFinite { w.time("started", recording.started) }
            w.number("elapsed", recording.elapsed, decimals: 0)
            w.number("movingTime", recording.movingTime, decimals: 0)
            w.number("climb", recording.climb, decimals: 0)
            w.number("descent", recording.descent, decimals: 0)
            w.beginObject("split")
            w.number("length", recording.splitLength, decimals: 1)
            w.integer("completed", recording.splits)
            w.number("last", recording.lastSplit, decimals: 0)
            w.number("distance", recording.splitDistance, decimals: 1)
            w.number("time", recording.splitTime, decimals: 0)
            w.endObject()
        }
        if let message = report.message { w.string("message", message) }
        w.endObject()
    }
}
