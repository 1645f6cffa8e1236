import LodestoneDomain
import Testing

/// The line a screen draws of a long recording: at most the limit, the first and the last
/// point always among them, evenly spaced, and the same for the same count.
@Suite struct TrackThinningTests {
    @Test(arguments: [0, 1, 2, 3, 499, 500, 501, 997, 1000, 1001, 17_280, 100_000])
    func keepsTheEndsAndStaysWithinTheLimit(count: Int) {
        let kept = TrackThinning.indices(count: count, limit: 500)
        #expect(kept.count <= 500)
        #expect(kept.count == min(count, 500) || count > 500)
        guard count > 0 else {
            #expect(kept.isEmpty)
            return
        }
        #expect(kept.first == 0 && kept.last == count - 1, "\(kept.prefix(3)) ... \(kept.suffix(3))")
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, "ascending, no index twice")
        #expect(kept.allSatisfy { (0..<count).contains($0) })
        if count > 500 {
            // Evenly: every gap but the last is the same step, and the last no longer.
            let gaps = zip(kept, kept.dropFirst()).map { $1 - $0 }
            let step = gaps.first ?? 0
            #expect(gaps.dropLast().allSatisfy { $0 == step } && (gaps.last ?? 0) <= step, "\(Set(gaps))")
            // Not thinner than it must be: a smaller step would keep more than the limit.
            #expect(step == 1 || (count - 1 + step - 2) / (step - 1) + 1 > 500)
        }
    }

    @Test func aLimitBelowTwoStillKeepsBothEnds() {
        #expect(TrackThinning.indices(count: 10, limit: 0) == [0, 9])
        #expect(TrackThinning.indices(count: 10, limit: -5) == [0, 9])
        #expect(TrackThinning.indices(count: 1, limit: 1) == [0])
    }
}
