import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Tracks as other tools read them: GPX 1.1 (every GPS app, gpsbabel), CSV and JSON.
enum TrackExport {
    /// `elevations`: one per point (see `TrackElevation`); computed from the points when nil.
    /// `photos`: each a waypoint linking its file (`photos/NAME.jpg`, as `export-all` and
    /// `export --with-photos` lay them out beside the GPX).
    static func gpx(name: String, points: [TrackPoint], elevations: [Double]? = nil, notes: String = "", photos: [TrackPhoto] = []) -> String {
        let elevation = aligned(elevations, points)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<gpx version="1.1" creator="Lodestone" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        for photo in photos where photo.hasPlace {
            out += "  <wpt lat=\"\(fixed(photo.latitude, 7))\" lon=\"\(fixed(photo.longitude, 7))\">"
            if points.first?.time.isFinite ?? true { out += "<time>\(CivilTime(unixSeconds: photo.time).iso8601)</time>" }
            out += "<name>\(escape(photo.file))</name><link href=\"photos/\(escape(photo.file))\"><type>image/jpeg</type></link>"
            out += "<sym>Scenic Area</sym></wpt>\n"
        }
        out += "  <trk>\n    <name>\(escape(name))</name>\n" + (notes.isEmpty ? "" : "    <desc>\(escape(notes))</desc>\n") + "    <trkseg>\n"
        for (index, (p, ele)) in zip(points, elevation).enumerated() {
            // A pause ends the segment: apps draw no line across it.
            if p.startsSegment && index > 0 { out += "    </trkseg>\n    <trkseg>\n" }
            out += "      <trkpt lat=\"\(fixed(p.latitude, 7))\" lon=\"\(fixed(p.longitude, 7))\">"
            if ele.isFinite { out += "<ele>\(fixed(ele, 1))</ele>" }
            if p.time.isFinite { out += "<time>\(CivilTime(unixSeconds: p.time).iso8601)</time>" }
            out += "</trkpt>\n"
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return out
    }

    /// `elevation` is the track's one elevation (as in the GPX and the profile); the receiver's
    /// and the barometer's own altitudes follow it.
    static func csv(_ points: [TrackPoint], elevations: [Double]? = nil) -> String {
        func n(_ v: Double, _ d: Int) -> String { v.isFinite ? fixed(v, d) : "" }
        var out = "time,lat,lon,elevation,gpsAltitude,baroAltitude,pressure,speed,accuracy\n"
        for (p, ele) in zip(points, aligned(elevations, points)) {
            out +=
                [
                    p.time.isFinite ? CivilTime(unixSeconds: p.time).iso8601 : "", n(p.latitude, 7), n(p.longitude, 7), n(ele, 1),
                    n(p.gpsAltitude, 1), n(p.baroAltitude, 1), n(p.pressure, 2), n(p.speed, 2), n(p.accuracy, 1)
                ].joined(separator: ",") + "\n"
        }
        return out
    }

    static func json(
        name: String, points: [TrackPoint], statistics: TrackStatistics, elevations: [Double]? = nil, notes: String = "",
        photos: [TrackPhoto] = []
    ) -> String {
        var w = JSONObjectWriter()
        w.string("name", name)
        if !notes.isEmpty { w.string("notes", notes) }
        w.raw("statistics", statisticsJSON(statistics))
        let list = zip(points, aligned(elevations, points)).map { p, ele -> String in
            var item = JSONObjectWriter()
            if p.time.isFinite { item.string("time", CivilTime(unixSeconds: p.time).iso8601) }
            item.number("lat", p.latitude, decimals: 7)
            item.number("lon", p.longitude, decimals: 7)
            item.number("elevation", ele, decimals: 1)
            item.number("gpsAltitude", p.gpsAltitude, decimals: 1)
            item.number("baroAltitude", p.baroAltitude, decimals: 1)
            item.number("pressure", p.pressure, decimals: 2)
            item.number("speed", p.speed, decimals: 2)
            item.number("accuracy", p.accuracy, decimals: 1)
            if p.startsSegment { item.bool("startsSegment", true) }
            return item.finished
        }
        w.raw("points", "[" + list.joined(separator: ",") + "]")
        if !photos.isEmpty {
            w.raw(
                "photos",
                "["
                    + photos.map { photo in
                        var item = JSONObjectWriter()
                        item.string("file", photo.file)
                        if points.first?.time.isFinite ?? true { item.string("time", CivilTime(unixSeconds: photo.time).iso8601) }
                        if photo.hasPlace {
                            item.number("lat", photo.latitude, decimals: 7)
                            item.number("lon", photo.longitude, decimals: 7)
                        }
                        return item.finished
                    }.joined(separator: ",") + "]")
        }
        return w.finished + "\n"
    }

    /// The statistics; with the elevation profile (distance m, altitude m pairs) for a track's
    /// own export, without it for the summaries that `list` reads.
    static func statisticsJSON(_ s: TrackStatistics, includeProfile: Bool = true) -> String {
        var w = JSONObjectWriter()
        w.integer("points", s.points)
        w.number("distance", s.distance, decimals: 1)
        w.number("totalTime", s.totalTime, decimals: 0)
        w.number("movingTime", s.movingTime, decimals: 0)
        w.number("averageSpeed", s.averageMovingSpeed, decimals: 2)
        w.number("maximumSpeed", s.maximumSpeed, decimals: 2)
        w.number("pace", s.averagePace, decimals: 0)
        // The fastest whole kilometre, s/km (absent before the first one is done).
        w.number("bestPace", s.splits.min() ?? .nan, decimals: 0)
        w.number("elevationGain", s.elevationGain, decimals: 1)
        w.number("elevationLoss", s.elevationLoss, decimals: 1)
        w.raw("splits", "[" + s.splits.map { JSONObjectWriter.format($0, decimals: 0) }.joined(separator: ",") + "]")
        if includeProfile {
            w.raw(
                "profile",
                "["
                    + s.profile.map {
                        "[" + JSONObjectWriter.format($0.distance, decimals: 0) + ","
                            + JSONObjectWriter.format($0.altitude, decimals: 1) + "]"
                    }.joined(separator: ",") + "]")
        }
        return w.finished
    }

    /// The given elevations when there is one per point, else the points' own.
    static func aligned(_ elevations: [Double]?, _ points: [TrackPoint]) -> [Double] {
        elevations.flatMap { $0.count == points.count ? $0 : nil } ?? TrackElevation.of(points)
    }

    static func escape(_ text: String) -> String { MarkupText.escaped(text) }
}
