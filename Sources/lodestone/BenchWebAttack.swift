import LodestoneBench
import LodestoneCore
import LodestoneEncoding

/// The web attack bench's figures as `lodestone bench` prints them.
extension BenchCommand {
    /// Each attack by name: the gpsd socket's longest gap (ms) and the peak resident memory (kB).
    static func webAttackJSON(_ run: WebAttackBench.Run) -> String {
        var all = JSONObjectWriter()
        for figures in [run.quiet] + run.attacks {
            var w = JSONObjectWriter()
            w.number("socketGapMs", figures.socketGapMs, decimals: 1)
            w.integer("peakRSSKB", figures.peakRSSKB)
            all.raw(figures.name, w.finished)
        }
        return all.finished
    }

    static func webAttackLines(_ run: WebAttackBench.Run) -> String {
        "quiet: the socket's longest gap \(fixed(run.quiet.socketGapMs, 0)) ms, \(run.quiet.peakRSSKB) kB resident; "
            + run.attacks.map {
                "\($0.name): \(fixed($0.socketGapMs, 0)) ms, \($0.peakRSSKB) kB (+\($0.peakRSSKB - run.quiet.peakRSSKB))"
            }.joined(separator: "; ")
            + " (budgets: a gap of at most 200 ms, at most 2 MB above quiet)"
    }
}
