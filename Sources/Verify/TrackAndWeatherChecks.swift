import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// The referee's checks of what a person keeps and reads from a trip: the recorded track
/// against the path really walked, sailed or driven, and the weather's words against each other.
extension TripJudge {
    /// The track's distance against the true path length over the same stretch of time, and
    /// one elevation per point in every form the track is read in.
    func trackChecks() -> [RefereeCheck] {
        guard let track else {
            return [.missing(trip: trip.name, name: "track distance", "no track was saved (the client asked for one)")]
        }
        var rows: [RefereeCheck] = []
        let times = track.points.map(\.time).filter(\.isFinite)
        if let first = times.min(), let last = times.max() {
            let start = first - scenario.startUTC, end = last - scenario.startUTC
            let truth = truePathLength(from: start, to: end)
            // The receiver is good to about 4.5 m at each end of the track: over a shorter path
            // than this that alone is more than 1%, and the check would judge the sky, not the device.
            if truth >= Self.shortestJudgedPath {
                let error = abs(track.summary.distance - truth) / truth
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "track distance error", measured: 100 * error, atMost: 1, unit: "%",
                        "\(DecimalText.format(track.summary.distance, 0)) m recorded against \(DecimalText.format(truth, 0)) m travelled"))
            }
        }
        let gpx = track.gpxElevations, csv = track.csvElevations, (json, profile) = track.jsonElevations
        var disagreeing = 0
        for (index, ele) in gpx.enumerated() {
            let others = [index < csv.count ? csv[index] : .nan, index < json.count ? json[index] : .nan]
            if others.contains(where: { !Self.sameElevation($0, ele) }) { disagreeing += 1 }
        }
        if csv.count != gpx.count || json.count != gpx.count { disagreeing += abs(csv.count - gpx.count) + abs(json.count - gpx.count) }
        if !Self.isOrderedSubsequence(profile, of: gpx) { disagreeing += 1 }
        rows.append(
            RefereeCheck(
                trip: trip.name, name: "one elevation per point", measured: Double(disagreeing), atMost: 0, unit: "points",
                "points of \(gpx.count) whose GPX ele, CSV elevation and JSON elevation differ (plus 1 if the profile is not drawn from them)"))
        return rows
    }

    /// Metres; see `trackChecks`.
    static let shortestJudgedPath = 1000.0

    /// Metres travelled over ground between two world times (the world's own speed integrated).
    func truePathLength(from start: Double, to end: Double) -> Double {
        let step = 0.1
        var length = 0.0
        var t = max(0, start)
        while t < end {
            let dt = min(step, end - t)
            length += scenario.motion(at: t + dt / 2).speed * dt
            t += dt
        }
        return length
    }

    /// Exports round to 0.1 m.
    static func sameElevation(_ a: Double, _ b: Double) -> Bool {
        (a.isNaN && b.isNaN) || abs(a - b) <= 0.051
    }

    static func isOrderedSubsequence(_ part: [Double], of whole: [Double]) -> Bool {
        var index = whole.startIndex
        for value in part {
            while index < whole.endIndex, !sameElevation(whole[index], value) { index += 1 }
            guard index < whole.endIndex else { return false }
            index += 1
        }
        return true
    }

    /// The trend's band and forecast follow from its rate, and every pressure alert agrees
    /// with the band published at the same moment: a device that says "Weather deteriorating"
    /// while its alert says "storm approaching" tells the person two things.
    func weatherWordChecks() -> [RefereeCheck] {
        var judged = 0, disagreeing = 0
        var band: PressureTrend.Band?
        // An alert is judged against the band published just before it or just after it (the
        // trend and the alert change on the same minute, their reports in either order).
        var pending: [String] = []
        func agrees(_ message: String, _ band: PressureTrend.Band?) -> Bool {
            band.map { message.lowercased().contains($0.forecast.lowercased()) } ?? false
        }
        for report in reports {
            if report.reportClass == "ENV", let trend = report.json["trend"], let rate = trend["rate"]?.numberValue {
                judged += 1
                let published = trend["band"]?.stringValue.flatMap(PressureTrend.Band.init(rawValue:))
                // The rate is published to 0.01 hPa/h: a band edge within that rounding is not judged.
                let nearEdge = [-1.0, -0.5, 0.5, 1.0].contains { abs(rate - $0) <= 0.005 }
                if published == nil || (!nearEdge && published != PressureTrend.Band(hPaPerHour: rate))
                    || trend["forecast"]?.stringValue != published?.forecast
                {
                    disagreeing += 1
                }
                for message in pending where !agrees(message, band) && !agrees(message, published) { disagreeing += 1 }
                pending.removeAll()
                band = published
            }
            if report.reportClass == "EVENT", report.json["event"]?.stringValue == "alert",
                report.json["alert"]?.stringValue == AlertRules.Kind.rapidFall.rawValue
            {
                judged += 1
                pending.append(report.json["message"]?.stringValue ?? "")
            }
        }
        for message in pending where !agrees(message, band) { disagreeing += 1 }
        guard judged > 0 else { return [] }
        return [
            RefereeCheck(
                trip: trip.name, name: "weather words agree", measured: Double(disagreeing), atMost: 0, unit: "reports",
                "ENV trends and pressure alerts whose band, forecast and alert text disagree (\(judged) judged)")
        ]
    }
}
