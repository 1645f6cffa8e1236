import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// The Sun's path across one local day at a place, for the sky page's picture: its apparent
/// altitude and azimuth every `stepMinutes` from midnight to midnight, below the horizon too
/// (the page draws the ground over that part).
package enum SunPathAnswer {
    package static let stepMinutes = 10

    package static func json(latitude: Double, longitude: Double, zone: TimeZoneRules, date: (year: Int, month: Int, day: Int)) -> String {
        let (start, end) = SkyAnswer.day(date, zone: zone)
        var points: [String] = []
        var t = start
        while t <= end {
            let sun = SolarPosition.at(t, latitude: latitude, longitude: longitude, elevation: 0)
            points.append("[" + JSONObjectWriter.format(sun.apparentAltitude, decimals: 2) + "," + JSONObjectWriter.format(sun.azimuth, decimals: 2) + "]")
            t += Double(stepMinutes * 60)
        }
        var w = JSONObjectWriter()
        w.string("date", zeroPadded(date.year, 4) + "-" + zeroPadded(date.month, 2) + "-" + zeroPadded(date.day, 2))
        w.number("latitude", latitude, decimals: 6)
        w.number("longitude", longitude, decimals: 6)
        w.string("start", zone.iso8601(start))
        w.integer("stepMinutes", stepMinutes)
        w.raw("points", "[" + points.joined(separator: ",") + "]")
        return w.finished
    }
}
