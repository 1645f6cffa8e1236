import Glibc
import Testing

@testable import LodestoneCore

/// Work handed to a thread of its own and taken back: every job's output is its own input's,
/// a take waits for a slow job, a second start while one runs is refused, and a worker freed
/// with a job under way waits for it. Run again under ThreadSanitizer (scripts/test).
@Suite struct BackgroundWorkerTests {
    @Test func eachJobsOutputIsWhatItsInputGave() {
        var input: [Int] = []
        input.reserveCapacity(1000)
        let worker = BackgroundWorker<[Int], Int>(name: "test-worker", input: input) { values in
            values.reduce(0, &+)
        }
        #expect(worker.take() == nil)
        for job in 1...200 {
            let started = worker.start { values in
                values.removeAll(keepingCapacity: true)
                values.append(contentsOf: 0..<(job * 5))
            }
            #expect(started)
            // A second job while one runs is refused and fills nothing.
            #expect(!worker.start { $0 = [1_000_000] })
            if job % 3 == 0 { usleep(200) }
            let n = job * 5
            #expect(worker.take() == n * (n - 1) / 2)
            #expect(!worker.isBusy)
        }
    }

    @Test func aSlowJobIsWaitedForAndAWorkerFreedWhileBusyWaitsToo() {
        var worker: BackgroundWorker<Int, Int>? = BackgroundWorker(name: "test-slow", input: 0) { value in
            usleep(20_000)
            return value * 2
        }
        #expect(worker?.start { $0 = 21 } == true)
        #expect(worker?.take() == 42)
        #expect(worker?.start { $0 = 5 } == true)
        worker = nil  // joins the thread after its job
        #expect(worker == nil)
    }
}
