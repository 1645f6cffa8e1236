/// A small graph in one line of text, for a terminal: eight block heights between the
/// series' minimum and maximum, resampled (by averaging) to `width` characters.
public enum Sparkline {
    static let blocks = Array("▁▂▃▄▅▆▇█")

    public static func draw(_ values: [Double], width: Int) -> String {
        let known = values.filter(\.isFinite)
        guard let low = known.min(), let high = known.max(), width > 0 else { return "" }
        let columns = min(width, values.count)
        var out = ""
        for column in 0..<columns {
            let slice = values[(column * values.count / columns)..<max(column * values.count / columns + 1, (column + 1) * values.count / columns)]
            let finite = slice.filter(\.isFinite)
            guard !finite.isEmpty else { out.append(" "); continue }
            let mean = finite.reduce(0, +) / Double(finite.count)
            let level = high > low ? Int(((mean - low) / (high - low) * 7).rounded()) : 3
            out.append(blocks[max(0, min(7, level))])
        }
        return out
    }
}
