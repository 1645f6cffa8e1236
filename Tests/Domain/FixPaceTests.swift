import LodestoneCore
import LodestoneDomain
import Testing

@Suite struct FixPaceTests {
    static func at(_ seconds: Double) -> MonotonicNanoseconds { MonotonicNanoseconds(seconds * 1e9) }

    @Test func aShorteningCountsAfterOneOldIntervalAndALengtheningAtOnce() {
        var pace = FixPace()
        pace.set(5, at: Self.at(10))
        #expect(pace.expected(at: Self.at(10)) == 5)
        pace.set(1, at: Self.at(20))
        #expect(pace.interval == 1)
        #expect(pace.expected(at: Self.at(26.9)) == 5, "the fix already scheduled 5 s on still counts")
        #expect(pace.expected(at: Self.at(27.1)) == 1)
        for bad in [0, -1, .nan, .infinity, 1e19] as [Double] { pace.set(bad, at: Self.at(30)) }
        #expect(pace.interval == 1 && pace.expected(at: Self.at(30)) == 1)
    }
}
