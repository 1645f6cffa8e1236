/// Which points of a long track a screen draws: every k-th, with the first and the last always
/// kept, k the smallest step that keeps at most `limit`. Evenly in the order recorded, so a
/// points every 5 s recording thins to the same points on every screen and on every reload
/// (the kept indices depend on the count alone), and a line of 20 000 points draws in 500.
public enum TrackThinning {
    /// The indices kept of `count` points, ascending; all of them when `count <= limit`.
    /// A `limit` below 2 is taken as 2 (the first and the last).
    public static func indices(count: Int, limit: Int) -> [Int] {
        guard count > 0 else { return [] }
        let limit = max(2, limit)
        guard count > limit else { return Array(0..<count) }
        // Indices 0, k, 2k... up to the last one below count - 1 are at most ceil((count - 1) / k),
        // the last point adds one: k = ceil((count - 1) / (limit - 1)) keeps at most `limit`.
        let step = (count - 1 + limit - 2) / (limit - 1)
        var kept = Array(stride(from: 0, to: count - 1, by: step))
        kept.append(count - 1)
        return kept
    }
}
