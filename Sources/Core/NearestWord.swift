/// The known word a mistyped one was probably meant to be, for "did you mean 'run'?".
public enum NearestWord {
    /// The known word closest to `word`, when it is close enough to be what was meant: within
    /// one edit for words of up to four letters, two up to eight, three beyond (a swap of two
    /// neighbouring letters counts as one edit), or a known word that `word` abbreviates (its
    /// first three letters or more). Nil when nothing is that close, or two are equally so.
    public static func to(_ word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let limit = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (word: String, distance: Int)?
        var tied = false
        for candidate in known where candidate != word {
            let letters = Array(candidate.lowercased().unicodeScalars)
            let distance = typed.count >= 3 && letters.starts(with: typed) ? 1 : editDistance(typed, letters, limit: limit)
            guard distance <= limit else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.word
    }

    /// "; did you mean 'WORD'?" or nothing, to append to an error that names `word`.
    public static func hint(_ word: String, among known: [String], prefix: String = "") -> String {
        to(word, among: known).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions and swaps of
    /// neighbours), giving up past `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
