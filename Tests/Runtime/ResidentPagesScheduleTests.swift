import LodestoneCore
import Testing

@testable import LodestoneRuntime

/// When the running device gives back the pages it no longer runs: after start-up, after the
/// first minute's one-off work, then hourly; never twice for one moment, never in the past.
struct ResidentPagesScheduleTests {
    @Test func startUpThenAMinuteThenEveryHour() {
        typealias Loop = OutputLoop<SystemMonotonicClock>
        #expect(Loop.releaseSeconds(after: 0) == 10)
        #expect(Loop.releaseSeconds(after: 10) == 60)
        #expect(Loop.releaseSeconds(after: 59) == 60)
        #expect(Loop.releaseSeconds(after: 60) == 3600)
        #expect(Loop.releaseSeconds(after: 3600) == 7200)
        #expect(Loop.releaseSeconds(after: 7201) == 10_800)
        for seconds: UInt64 in [0, 9, 10, 61, 3599, 86_400, 1 << 40] { #expect(Loop.releaseSeconds(after: seconds) > seconds) }
    }
}
