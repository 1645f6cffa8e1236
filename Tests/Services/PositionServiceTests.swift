import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneServices

/// The running device's view of the receiver: outliers dropped before the socket and the
/// track see them, warnings raised once when they start and once when they clear.
@Suite struct PositionServiceTests {
    static func fix(_ second: Double, north: Double, satellites: Int = 9, hdop: Double = 0.9) -> GPSFix {
        var fix = GPSFix()
        fix.mode = .threeD
        fix.utc = 1_780_000_000 + second
        fix.latitude = 46.5 + north / 111_320
        fix.longitude = 7.5
        fix.satellitesUsed = satellites
        fix.hdop = hdop
        fix.speed = 1.4
        return fix
    }

    static func nanoseconds(_ second: Double) -> MonotonicNanoseconds { MonotonicNanoseconds(second * 1e9) }

    @Test func anImpossibleJumpIsNeitherPublishedNorRecorded() {
        let service = PositionService()
        for second in 0..<20 {
            #expect(service.add(Self.fix(Double(second), north: 1.4 * Double(second)), motion: .walking, now: Self.nanoseconds(Double(second))) != nil)
        }
        // 800 m in one second while walking.
        #expect(service.add(Self.fix(20, north: 800), motion: .walking, now: Self.nanoseconds(20)) == nil)
        let next = service.add(Self.fix(21, north: 1.4 * 21), motion: .walking, now: Self.nanoseconds(21))
        #expect(next != nil)
        if let next { #expect(abs((next.latitude - 46.5) * 111_320 - 1.4 * 21) < 5) }
        #expect(service.rejected == 1)
    }

    /// A warning starts once its condition has held (3 s for few satellites), clears once the
    /// fix has been good for 5 s and 20 s after it started, each once; a lost fix is told at once.
    @Test func warningsStartAndClearOnce() {
        let service = PositionService()
        var told: [(second: Int, line: String)] = []
        for second in 0...40 {
            _ = service.add(Self.fix(Double(second), north: 0, satellites: second < 6 ? 4 : 9), motion: .still, now: Self.nanoseconds(Double(second)))
            for line in service.tick(now: Self.nanoseconds(Double(second) + 0.5), time: 0).map(GPSDReports.line) { told.append((second, line)) }
        }
        #expect(told.count == 2, "\(told)")
        #expect(
            told.first.map { (3...4).contains($0.second) && $0.line.contains("\"warning\":\"fewSatellites\"") && $0.line.contains("\"active\":true") } == true,
            "\(told)")
        #expect(told.last.map { (20...25).contains($0.second) && $0.line.contains("\"active\":false") } == true, "\(told)")
        #expect(service.confidence > 80)
        // No fixes for 12 s: the no-fix warning, with how long.
        let lost = service.tick(now: Self.nanoseconds(52), time: 0).map(GPSDReports.line)
        #expect(lost.count == 1 && lost.first?.contains("\"warning\":\"noFix\"") == true && lost.first?.contains("\"secondsWithoutFix\":12") == true, "\(lost)")
        #expect(service.confidence == 0)
    }

    /// Walking off after standing still: adaptive sampling asks the receiver for a fix every
    /// second instead of every 5 s just after a fix was read. That fix, handled after the
    /// change, must not shorten the wait for the next one, which the receiver had already
    /// scheduled 5 s on: no noFix in between.
    @Test func aShorterFixIntervalCountsFromFixesReadAfterTheChange() {
        let service = PositionService()
        service.setFixInterval(5, at: Self.nanoseconds(0))
        var events: [String] = []
        for second in stride(from: 1.0, through: 11, by: 5) {
            var fix = Self.fix(second, north: 0)
            fix.received = Self.nanoseconds(second)
            _ = service.add(fix, motion: .still, now: Self.nanoseconds(second))
            events += service.tick(now: Self.nanoseconds(second), time: 0).map(GPSDReports.line)
        }
        // The fix read at 16.00 s is handled at 16.05 s, after the switch to 1 s at 16.02 s.
        service.setFixInterval(1, at: Self.nanoseconds(16.02))
        var late = Self.fix(16, north: 0)
        late.received = Self.nanoseconds(16)
        _ = service.add(late, motion: .walking, now: Self.nanoseconds(16.05))
        for tenth in 161...209 { events += service.tick(now: Self.nanoseconds(Double(tenth) / 10), time: 0).map(GPSDReports.line) }
        #expect(!events.contains { $0.contains("noFix") }, "\(events)")
        // From the fix after the change on, one second is the pace: three missed fixes warn.
        var next = Self.fix(21, north: 0)
        next.received = Self.nanoseconds(21)
        _ = service.add(next, motion: .walking, now: Self.nanoseconds(21))
        let silent = (211...260).flatMap { service.tick(now: Self.nanoseconds(Double($0) / 10), time: 0).map(GPSDReports.line) }
        #expect(silent.contains { $0.contains("noFix") && $0.contains(#""active":true"#) }, "\(silent)")
    }

    @Test func aMovingDeviceWhoseReceiverRepeatsOnePositionIsFrozen() {
        let service = PositionService()
        for second in 0..<12 {
            _ = service.add(Self.fix(Double(second), north: 0), motion: .still, now: Self.nanoseconds(Double(second)))
        }
        #expect(service.tick(now: Self.nanoseconds(12), time: 0).map(GPSDReports.line).isEmpty, "a still receiver holding its position is fine")
        for second in 12..<24 {
            _ = service.add(Self.fix(Double(second), north: 0), motion: .walking, now: Self.nanoseconds(Double(second)))
        }
        let events = service.tick(now: Self.nanoseconds(24), time: 0).map(GPSDReports.line)
        #expect(events.contains { $0.contains("\"warning\":\"frozen\"") })
    }

    @Test func aShortGapIsBridgedByPredictionAndALongOneIsNot() throws {
        let service = PositionService()
        for second in 0..<30 {
            _ = service.add(Self.fix(Double(second), north: 1.4 * Double(second)), motion: .walking, now: Self.nanoseconds(Double(second)))
        }
        #expect(service.bridge(now: Self.nanoseconds(30)) == nil, "a fix a second old needs no bridge")
        let bridged = try #require(service.bridge(now: Self.nanoseconds(34)))
        #expect(bridged.deadReckoning && bridged.utc == 1_780_000_000 + 34)
        // Walking on north at 1.4 m/s: 5 s after the last fix, 7 m further on.
        #expect(abs((bridged.latitude - 46.5) * 111_320 - 1.4 * 34) < 3, "\((bridged.latitude - 46.5) * 111_320)")
        #expect(GPSDReports.tpv(PositionReport(fix: bridged, device: "d")).contains("\"status\":5"), "gpsd's dead-reckoning status")
        #expect(service.bridge(now: Self.nanoseconds(41)) == nil, "nothing is invented beyond 10 s")
    }
}
