import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// One stream's history over a range as JSON: its minimum, maximum and mean and the points of
/// the graph. `lodestone history --json` prints it and the web app's `GET /api/v1/history` serves it.
package enum HistoryAnswer {
    package static func json(stream: String, range: History.Range, summary: History.Summary) -> String {
        var w = JSONObjectWriter()
        w.string("class", "HISTORY")
        w.string("stream", stream)
        w.string("range", range.rawValue)
        w.number("minimum", summary.minimum, decimals: 3)
        w.number("maximum", summary.maximum, decimals: 3)
        w.number("mean", summary.mean, decimals: 3)
        w.integer("samples", summary.samples)
        w.raw(
            "points",
            "["
                + summary.points.map { p in
                    var o = JSONObjectWriter()
                    o.string("time", CivilTime(unixSeconds: p.time).iso8601)
                    o.number("mean", p.mean, decimals: 3)
                    o.number("min", p.minimum, decimals: 3)
                    o.number("max", p.maximum, decimals: 3)
                    return o.finished
                }.joined(separator: ",") + "]")
        return w.finished
    }
}
