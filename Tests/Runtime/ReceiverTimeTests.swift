import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing

/// One sentence with an impossible date (a ZDA for 2200, an RMC that reads as 2079) must not
/// move the device's clock nor stop its positions.
@Suite struct ReceiverTimeTests {
    static let start = 1_780_000_000.0  // 2026-05-28
    static func at(_ second: Double) -> MonotonicNanoseconds { MonotonicNanoseconds((100 + second) * 1e9) }

    @Test func aWildDateIsRefusedAndALastingCorrectionBelieved() {
        let clock = DeviceClock(utc: Self.start, at: Self.at(0))
        #expect(clock.gpsTime(Self.start + 1, receivedAt: Self.at(1)) == false)
        #expect(clock.gpsTimeKnown)
        let year2200 = 7_258_118_400.0
        #expect(!clock.believes(year2200, receivedAt: Self.at(2)))
        #expect(!clock.gpsTime(year2200, receivedAt: Self.at(2)), "asking again about the same fix")
        #expect(abs(clock.utc(at: Self.at(2)) - (Self.start + 2)) < 0.1, "the clock did not move")
        #expect(clock.believes(Self.start + 3, receivedAt: Self.at(3)))
        // Two hours off, fix after fix: the clock was wrong, not the receiver.
        var verdicts: [Bool] = []
        for second in 4...14 {
            verdicts.append(clock.believes(Self.start + 7200 + Double(second), receivedAt: Self.at(Double(second))))
            clock.gpsTime(Self.start + 7200 + Double(second), receivedAt: Self.at(Double(second)))
        }
        #expect(verdicts.prefix(DeviceClock.confirmations - 1).allSatisfy { !$0 })
        #expect(verdicts.suffix(2) == [true, true])
        #expect(abs(clock.utc(at: Self.at(14)) - (Self.start + 7214)) < 0.1, "the clock follows the confirmed time")
    }

    /// The clock follows each fix once: asked the time ten times or once between two fixes, it
    /// reads the same (the output side asks at moments that depend on its thread, a replay's
    /// at others).
    @Test func eachFixIsFollowedOnceHoweverOftenTheTimeIsAsked() {
        let once = DeviceClock(utc: Self.start, at: Self.at(0))
        let often = DeviceClock(utc: Self.start, at: Self.at(0))
        for second in 1...5 {
            // The receiver's epochs read 0.2 s later than the device's clock would say.
            let utc = Self.start + Double(second) - 0.2
            once.gpsTime(utc, receivedAt: Self.at(Double(second)))
            for _ in 0..<10 { often.gpsTime(utc, receivedAt: Self.at(Double(second))) }
        }
        #expect(once.offset == often.offset, "\(once.offset) against \(often.offset)")
    }

    @Test func aRolledOverWeekIsNeverBelievedEvenFirst() {
        let clock = DeviceClock(utc: Self.start, at: Self.at(0))
        let year2079 = 3_502_828_800.0, year1999 = 929_000_000.0
        #expect(!clock.believes(year2079 + 4_200_000_000, receivedAt: Self.at(1)))
        #expect(!clock.believes(year1999, receivedAt: Self.at(2)))
        #expect(!clock.gpsTimeKnown)
        #expect(clock.believes(year2079, receivedAt: Self.at(3)), "2079 is within the models' range: judged by the clock once GPS time is known")
    }

    @Test func positionsGoOnAfterATimeThatWentBack() {
        var filter = PositionFilter()
        let first = filter.add(latitude: 46.5, longitude: 7.5, accuracy: 3, time: 7_258_118_400, motion: .walking)
        #expect(first)
        var accepted = 0
        for second in 0..<10 {
            if filter.add(
                latitude: 46.5 + Double(second) * 1.4 / 111_320, longitude: 7.5, accuracy: 3, time: Self.start + Double(second),
                motion: .walking)
            {
                accepted += 1
            }
        }
        #expect(accepted == 10)
        #expect(filter.estimate(at: Self.start + 9) != nil)
    }
}
