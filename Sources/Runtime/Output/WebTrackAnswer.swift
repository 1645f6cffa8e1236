import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneServices

/// `GET /api/v1/track`: the recording as the recorder has it, whoever started it: the TRACK
/// report (state, name, start, points and distance of the whole recording, elapsed and moving
/// time, climb, descent, the splits) and its path since the start, thinned for a screen, so a
/// reload or a second browser draws the same line and says the same figures.
enum WebTrackAnswer {
    /// The most points the path carries (`TrackThinning`: every k-th, the first and the last kept).
    static let pathLimit = 500

    static func json(_ tracks: TrackService, now: Double) -> String {
        let line = GPSDReports.line(tracks.report(nil, at: now))
        let path = tracks.path(limit: pathLimit).filter {
            $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 && abs($0.longitude) <= 180
        }
        var json = String(line.dropLast())
        json += ",\"path\":["
        json += path.map { (point: (latitude: Double, longitude: Double)) -> String in
            let latitude: String = fixed(point.latitude, 6)
            let longitude: String = fixed(point.longitude, 6)
            return "[" + latitude + "," + longitude + "]"
        }.joined(separator: ",")
        json += "]}"
        return json
    }
}
