import LodestoneCore
import LodestoneEncoding

extension TimetableBench.Result {
    /// The figures as `lodestone bench --json` gives them under `timetable`.
    public var json: String {
        let r = self
        var w = JSONObjectWriter()
        w.integer("stops", r.stops)
        w.integer("trips", r.trips)
        w.integer("stopTimes", r.stopTimes)
        w.number("importMs", r.importMilliseconds, decimals: 0)
        w.number("importPeakMB", Double(r.importPeakKilobytes) / 1024, decimals: 1)
        w.integer("indexBytes", r.indexBytes)
        w.number("busyStopMs", r.busyStopMilliseconds, decimals: 1)
        w.number("searchMs", r.searchMilliseconds, decimals: 1)
        w.number("nearestMs", r.nearestMilliseconds, decimals: 1)
        w.number("feedOnlyMs", r.feedMilliseconds, decimals: 0)
        w.integer("busyStopCalls", r.busyStopCalls)
        if let instructions = r.busyStopInstructions {
            w.number("busyStopInstructions", instructions, decimals: 0)
        } else {
            w.null("busyStopInstructions")
        }
        if let note = r.instructionsNote { w.string("note", note) }
        return w.finished
    }

    /// The figures as `lodestone bench` prints them.
    public var lines: String {
        let r = self
        return "\(r.stops) stops, \(r.trips) trips, \(r.stopTimes) stop times imported in \(fixed(r.importMilliseconds, 0)) ms "
            + "(peak memory of the import \(fixed(Double(r.importPeakKilobytes) / 1024, 1)) MB; index.bin \(r.indexBytes / 1024) KB)\n"
            + "  cold answers, load and query, best of 5: busiest stop (\(r.busyStopCalls) calls) \(fixed(r.busyStopMilliseconds, 1)) ms, "
            + "by name \(fixed(r.searchMilliseconds, 1)) ms, nearest \(fixed(r.nearestMilliseconds, 1)) ms; "
            + "from the feed without the index \(fixed(r.feedMilliseconds, 0)) ms\n"
            + "  one cold busiest-stop answer: "
            + (r.busyStopInstructions.map { "\(fixed($0 / 1e6, 1)) M instructions (callgrind)" } ?? "instructions not counted (\(r.instructionsNote ?? ""))")
    }

}
