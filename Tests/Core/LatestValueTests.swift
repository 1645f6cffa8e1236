import LodestoneCore
import Synchronization
import Testing

@Suite struct LatestValueTests {
    struct Pair: Equatable { var a: Int; var b: Int }

    @Test func readsWhatWasLastPublished() {
        let cell = LatestValue(Pair(a: 0, b: 0))
        #expect(cell.read() == Pair(a: 0, b: 0))
        cell.publish(Pair(a: 1, b: -1))
        cell.publish(Pair(a: 2, b: -2))
        #expect(cell.read() == Pair(a: 2, b: -2))
        #expect(cell.read() == Pair(a: 2, b: -2))
    }

    /// The reader never sees a half-written value and never goes back in time.
    @Test func neverTearsAcrossThreads() {
        let cell = LatestValue(Pair(a: 0, b: 0))
        let stop = Stop()
        let result = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        defer { result.deallocate() }
        let address = Int(bitPattern: result)
        let reader = LoopThread()
        reader.start(name: "test-read") {
            var torn = 0, backwards = 0, last = 0
            while !stop.flag.load(ordering: .acquiring) {
                let value = cell.read()
                if value.a != -value.b { torn += 1 }
                if value.a < last { backwards += 1 }
                last = value.a
            }
            let out = UnsafeMutablePointer<Int>(bitPattern: address)
            out?[0] = torn
            out?[1] = backwards
        }
        for value in 1...500_000 { cell.publish(Pair(a: value, b: -value)) }
        stop.flag.store(true, ordering: .releasing)
        reader.join()
        #expect(result[0] == 0)
        #expect(result[1] == 0)
        #expect(cell.read().a == 500_000)
    }

    final class Stop: Sendable { let flag = Atomic<Bool>(false) }
}
