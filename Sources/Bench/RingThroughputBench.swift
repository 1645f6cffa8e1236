import LodestoneCore
import CLinux
import Synchronization

/// Items per second through one `SPSCRing` between two threads pinned to different CPUs.
public enum RingThroughputBench {
    public struct Result: Sendable {
        public var bestMops: Double
        public var medianMops: Double
        public var trials: [Double]
        public var itemsPerTrial: Int
    }

    public static func run(trials: Int = 7, items: Int = 50_000_000, capacity: Int = 65_536) -> Result {
        var rates: [Double] = []
        for _ in 0..<max(trials, 1) {
            rates.append(trial(items: items, capacity: capacity))
        }
        let sorted = rates.sorted()
        return Result(bestMops: sorted.last ?? 0, medianMops: sorted[sorted.count / 2], trials: rates, itemsPerTrial: items)
    }

    /// One trial: returns millions of items per second.
    static func trial(items: Int, capacity: Int) -> Double {
        let ring = SPSCRing<Int>(capacity: capacity, policy: .dropNewest)
        let clock = SystemMonotonicClock()
        let consumer = LoopThread()
        let shared = Shared(ring: ring)
        consumer.start(name: "bench-pop") {
            _ = lodestone_pin_to_cpu(1)
            shared.ready.store(1, ordering: .releasing)
            var expected = 0
            var sum = 0
            while expected < items {
                if let value = shared.ring.pop() {
                    sum &+= value
                    expected += 1
                }
            }
            shared.sum.store(sum, ordering: .releasing)
        }
        _ = lodestone_pin_to_cpu(0)
        while shared.ready.load(ordering: .acquiring) == 0 {}
        let start = clock.now()
        var next = 0
        while next < items {
            if ring.push(next) { next += 1 }
        }
        consumer.join()
        let elapsed = Double(clock.now() - start) / 1e9
        _ = lodestone_unpin()
        return Double(items) / elapsed / 1e6
    }

    final class Shared: Sendable {
        let ring: SPSCRing<Int>
        let ready = Atomic<Int>(0)
        let sum = Atomic<Int>(0)
        init(ring: SPSCRing<Int>) { self.ring = ring }
    }
}
