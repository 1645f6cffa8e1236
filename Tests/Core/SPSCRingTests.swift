import LodestoneCore
import Synchronization
import Testing

@Suite struct SPSCRingTests {
    @Test func keepsOrderAndRoundsCapacityUp() {
        let ring = SPSCRing<Int>(capacity: 5)
        #expect(ring.capacity == 8)
        for value in 0..<8 { #expect(ring.push(value)) }
        for value in 0..<8 { #expect(ring.pop() == value) }
        #expect(ring.pop() == nil)
    }

    @Test func wrapsAroundManyTimes() {
        let ring = SPSCRing<Int>(capacity: 4)
        var next = 0
        for round in 0..<1000 {
            for _ in 0..<(round % 4 + 1) { #expect(ring.push(next + 0)); next += 1 }
            var expected = next - (round % 4 + 1)
            while let value = ring.pop() {
                #expect(value == expected)
                expected += 1
            }
            #expect(expected == next)
        }
    }

    /// The oldest item read where it lies, then taken off, under either policy; a class item
    /// is released once taken (no copy left behind in the slot).
    @Test func theOldestIsReadInPlaceThenTaken() {
        for policy in [RingFullPolicy.dropNewest, .overwriteOldest] {
            let ring = SPSCRing<[Int]>(capacity: 4, policy: policy)
            #expect(ring.withOldest { $0.pointee.count } == nil)
            for value in 0..<3 { #expect(ring.push([value, value])) }
            var seen: [Int] = []
            while let first = ring.withOldest({ $0.pointee.first ?? -1 }) { seen.append(first) }
            #expect(seen == [0, 1, 2] && ring.count == 0, "\(policy): \(seen)")
            // The slots are free again: a full ring's worth goes in and comes out in order.
            for value in 10..<14 { #expect(ring.push([value])) }
            #expect(ring.withOldest { $0.pointee } == [10] && ring.pop() == [11])
        }
    }

    /// A consumer takes items up to a mark the producer gave (its `pushed` count then), under
    /// either policy; the items after the mark stay queued, and dropped ones are skipped.
    @Test func itemsAreTakenUpToTheProducersMark() {
        for policy in [RingFullPolicy.dropNewest, .overwriteOldest] {
            let ring = SPSCRing<Int>(capacity: 4, policy: policy)
            for value in 0..<3 { ring.push(value) }
            let mark = ring.pushed
            #expect(mark == 3)
            ring.push(3)
            var taken: [Int] = []
            while let value = ring.pop(before: mark) { taken.append(value) }
            #expect(taken == [0, 1, 2], "\(policy)")
            #expect(ring.pop(before: mark) == nil)
            #expect(ring.pop(before: ring.pushed) == 3)
        }
        // Overwritten items are gone: the consumer starts at the oldest still held.
        let ring = SPSCRing<Int>(capacity: 2, policy: .overwriteOldest)
        for value in 0..<5 { ring.push(value) }
        var taken: [Int] = []
        while let value = ring.pop(before: ring.pushed) { taken.append(value) }
        #expect(taken == [3, 4] && ring.overflows == 3)
    }

    @Test func dropNewestKeepsWhatIsQueuedAndCounts() {
        let ring = SPSCRing<Int>(capacity: 4, policy: .dropNewest)
        for value in 0..<4 { #expect(ring.push(value)) }
        #expect(!ring.push(99))
        #expect(!ring.push(100))
        #expect(ring.overflows == 2)
        #expect((0..<4).map { _ in ring.pop() } == [0, 1, 2, 3])
        #expect(ring.pop() == nil)
    }

    @Test func overwriteOldestKeepsTheFreshest() {
        let ring = SPSCRing<Int>(capacity: 4, policy: .overwriteOldest)
        for value in 0..<10 { #expect(ring.push(value)) }
        #expect(ring.overflows == 6)
        var got: [Int] = []
        while let value = ring.pop() { got.append(value) }
        #expect(got == [6, 7, 8, 9])
    }

    @Test func releasesElementsItStillHolds() {
        final class Token { let counter: Counter; init(_ c: Counter) { counter = c; c.live += 1 }; deinit { counter.live -= 1 } }
        final class Counter { var live = 0 }
        let counter = Counter()
        do {
            let ring = SPSCRing<Token>(capacity: 4, policy: .overwriteOldest)
            for _ in 0..<7 { ring.push(Token(counter)) }
            #expect(counter.live == 4)
            _ = ring.pop()
            #expect(counter.live == 3)
        }
        #expect(counter.live == 0)
    }

    /// Two threads, a small ring, many items: every item arrives once and in order.
    @Test func twoThreadStressDropNewest() {
        let ring = SPSCRing<Int>(capacity: 64, policy: .dropNewest)
        let total = 2_000_000
        let received = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        defer { received.deallocate() }
        let address = Int(bitPattern: received)
        let consumer = LoopThread()
        consumer.start(name: "test-pop") {
            var expected = 0
            var outOfOrder = 0
            while expected < total {
                if let value = ring.pop() {
                    if value != expected { outOfOrder += 1 }
                    expected += 1
                }
            }
            let out = UnsafeMutablePointer<Int>(bitPattern: address)
            out?[0] = expected
            out?[1] = outOfOrder
        }
        var next = 0
        while next < total { if ring.push(next) { next += 1 } }
        consumer.join()
        #expect(received[0] == total)
        #expect(received[1] == 0)
    }

    /// With overwrite-oldest the consumer may miss items, but never sees one twice or out of
    /// order, and every item is either received or counted as overflow.
    @Test func twoThreadStressOverwriteOldest() {
        let ring = SPSCRing<Int>(capacity: 16, policy: .overwriteOldest)
        let total = 1_000_000
        let done = Done()
        let result = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        defer { result.deallocate() }
        let address = Int(bitPattern: result)
        let consumer = LoopThread()
        consumer.start(name: "test-pop") {
            var last = -1
            var count = 0
            var bad = 0
            while true {
                let finished = done.flag.load(ordering: .acquiring)
                var drained = false
                while let value = ring.pop() {
                    if value <= last { bad += 1 }
                    last = value
                    count += 1
                    drained = true
                }
                if finished && !drained { break }
            }
            let out = UnsafeMutablePointer<Int>(bitPattern: address)
            out?[0] = count
            out?[1] = bad
        }
        for value in 0..<total { ring.push(value) }
        done.flag.store(true, ordering: .releasing)
        consumer.join()
        #expect(result[1] == 0)
        #expect(result[0] + ring.overflows == total)
        #expect(result[0] > 0)
    }

    final class Done: Sendable { let flag = Atomic<Bool>(false) }
}
