import LodestoneEncoding
import LodestoneReports

extension GPSDReports {
    /// PHOTO (Lodestone): the photo just taken, its file under the data directory's photos,
    /// when and where, the compass's direction, the track it belongs to.
    static func photo(_ report: PhotoReport, into json: inout JSONBuffer) {
        json.beginReport("PHOTO")
        json.string("file", report.file)
        json.time("time", report.time)
        if let latitude = report.latitude, let longitude = report.longitude {
            json.number("lat", latitude, decimals: 7)
            json.number("lon", longitude, decimals: 7)
        }
        if let altitude = report.altitude { json.number("alt", altitude, decimals: 1) }
        if let direction = report.direction {
            json.number("direction", direction, decimals: 1)
            json.string("directionRef", report.directionIsTrue ? "true" : "magnetic")
        }
        if let track = report.track { json.string("track", track) }
        json.integer("width", report.width)
        json.integer("height", report.height)
        json.integer("bytes", report.bytes)
        json.string("format", report.format)
        json.number("shutterMs", report.milliseconds, decimals: 1)
        json.endObject()
    }
}
