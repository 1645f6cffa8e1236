import LodestoneDomain
import Testing

/// Events through a dead band: a change holds before it is told, and changes are spaced.
@Suite struct EventDeadBandTests {
    /// A condition flickering every 0.2 s for a minute (a boat rolling through level) changes
    /// the announced state at most twice a minute with 30 s between changes; one that holds
    /// is told once it has held.
    @Test func aFlickerIsNotAStream() {
        var band = EventDeadBand(EventDeadBand.Settings(onAfter: 1, offAfter: 0.5, leastBetween: 30))
        var changes = 0
        for step in 0..<600 {
            if band.update(step % 4 < 2, interval: 0.1) != nil { changes += 1 }
        }
        #expect(changes == 0, "never held for a second: \(changes) changes")
        var steady = EventDeadBand(EventDeadBand.Settings(onAfter: 1, offAfter: 0.5, leastBetween: 30))
        var told: [(Int, Bool)] = []
        for step in 0..<1200 {
            // On for 2 s, off for 2 s, over and over.
            if let state = steady.update((step / 20) % 2 == 0, interval: 0.1) { told.append((step, state)) }
        }
        #expect(told.first.map { (9...10).contains($0.0) && $0.1 } == true, "on after a second: \(told)")
        #expect(told.count <= 5 && told.count >= 3, "120 s of a 4 s cycle: \(told)")
        for (earlier, later) in zip(told, told.dropFirst()) {
            #expect(Double(later.0 - earlier.0) * 0.1 >= 30 - 1e-9)
            #expect(earlier.1 != later.1)
        }
    }

    /// A change due within the least time waits, and is dropped if the condition goes back.
    @Test func aChangeTooSoonWaitsOrIsDropped() {
        var band = EventDeadBand(EventDeadBand.Settings(onAfter: 0, offAfter: 0, leastBetween: 10))
        #expect(band.update(true, interval: 1) == true)
        #expect(band.update(false, interval: 1) == nil)
        #expect(band.update(true, interval: 1) == nil && band.isOn)
        for _ in 0..<5 { #expect(band.update(false, interval: 1) == nil) }
        #expect(band.update(false, interval: 3) == false, "10 s after the last change")
    }
}
