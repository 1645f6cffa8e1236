import Glibc
import Testing

@testable import LodestoneCore

/// The byte ring between two threads: pieces go in whole or not at all, come out in order
/// across the storage's end, and a producer and a consumer on two threads lose and reorder
/// nothing. Run again under ThreadSanitizer (scripts/test).
@Suite struct ByteRingTests {
    @Test func piecesGoInWholeAndComeOutInOrderAcrossTheEnd() {
        let ring = ByteRing(capacity: 64)
        #expect(ring.capacity == 64)
        var out: [UInt8] = []
        for round in 0..<20 {
            let piece = (0..<UInt8(25)).map { $0 &+ UInt8(round) }
            #expect(piece.withUnsafeBufferPointer { ring.write($0) })
            #expect(piece.withUnsafeBufferPointer { ring.write($0) })
            // A third does not fit (75 > 64): refused whole.
            #expect(!piece.withUnsafeBufferPointer { ring.write($0) })
            #expect(ring.count == 50)
            ring.drain { out.append(contentsOf: $0) }
            #expect(out.count == 50 * (round + 1))
            #expect(Array(out.suffix(25)) == piece)
        }
        #expect(ring.drain { _ in } == 0)
    }

    @Test func twoThreadsLoseNothing() {
        let ring = ByteRing(capacity: 256)
        let total = 200_000
        let producer = LoopThread()
        let started = producer.start(name: "test-bytes") {
            var next = 0
            var piece = [UInt8](repeating: 0, count: 13)
            while next < total {
                let count = min(13, total - next)
                for index in 0..<count { piece[index] = UInt8(truncatingIfNeeded: next + index) }
                if piece.withUnsafeBufferPointer({ ring.write(UnsafeBufferPointer(rebasing: $0[0..<count])) }) {
                    next += count
                } else {
                    sched_yield()
                }
            }
        }
        #expect(started)
        var received = 0, wrong = 0
        while received < total {
            let taken = ring.drain { run in
                for byte in run {
                    if byte != UInt8(truncatingIfNeeded: received) { wrong += 1 }
                    received += 1
                }
            }
            if taken == 0 { sched_yield() }
        }
        producer.join()
        #expect(received == total && wrong == 0)
    }
}
