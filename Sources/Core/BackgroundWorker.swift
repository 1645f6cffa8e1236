import Glibc

/// Slow work for a thread of its own, handed over and taken back by one owner thread: the
/// owner fills the input (storage kept from job to job, so handing work over allocates
/// nothing), starts the job, and later takes the output, waiting for it if it is not done.
/// Two semaphores hand the job over and back, each a full barrier between the threads: the
/// input belongs to the owner while no job runs and to the worker while one does, the output
/// to the worker until it posts and to the owner after.
public final class BackgroundWorker<Input, Output> {
    private let shared: Shared
    private let name: String
    private var thread: LoopThread?
    /// Whether a job has been started and not yet taken.
    public private(set) var isBusy = false

    private final class Shared: @unchecked Sendable {
        var input: Input
        var output: Output?
        var stopping = false
        let work: (inout Input) -> Output
        let jobs = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

        init(input: Input, work: @escaping (inout Input) -> Output) {
            self.input = input
            self.work = work
            sem_init(jobs, 0, 0)
            sem_init(done, 0, 0)
        }

        deinit {
            sem_destroy(jobs)
            sem_destroy(done)
            jobs.deallocate()
            done.deallocate()
        }

        /// The worker thread: a job each time one is handed over, until told to stop.
        func serve() {
            while true {
                while sem_wait(jobs) != 0 {}
                if stopping { return }
                output = work(&input)
                sem_post(done)
            }
        }
    }

    /// `input` is the storage jobs fill (reserve its capacity here); `work` runs on the
    /// worker thread, named `name` (shown by top -H), started with the first job.
    public init(name: String, input: Input, work: @escaping (inout Input) -> Output) {
        self.name = name
        shared = Shared(input: input, work: work)
    }

    deinit {
        guard let thread else { return }
        if isBusy { while sem_wait(shared.done) != 0 {} }
        shared.stopping = true
        sem_post(shared.jobs)
        thread.join()
    }

    /// Fills the input with `fill` and starts the job; false (and nothing filled) while a job
    /// is under way or when the thread cannot start, and the caller does the work itself.
    public func start(_ fill: (inout Input) -> Void) -> Bool {
        guard !isBusy else { return false }
        if thread == nil {
            let started = LoopThread()
            let shared = self.shared
            guard started.start(name: name, { shared.serve() }) else { return false }
            thread = started
        }
        fill(&shared.input)
        isBusy = true
        sem_post(shared.jobs)
        return true
    }

    /// The job's output, waiting for it if it is not done; nil when no job was started.
    public func take() -> Output? {
        guard isBusy else { return nil }
        while sem_wait(shared.done) != 0 {}
        isBusy = false
        defer { shared.output = nil }
        return shared.output
    }
}
