import Glibc
import LodestoneCore
import LodestoneDomain

/// The compass's background calibration fit, on a thread of its own: a fit over thousands of
/// readings costs millions of instructions and hundreds of allocations, which the output
/// thread (the socket's clients, the display) should not wait for. The readings are copied
/// into storage the fit keeps (nothing allocated on the output thread), and the outcome is
/// taken at a time fixed in the readings' own clock, waiting for the fit if it is not done:
/// when a fit is adopted never depends on how fast the machine fits, so a trip's calibration
/// is the same on any machine and at any speed.
final class BackgroundFit {
    /// How long after a fit starts, on the readings' clock, its outcome is taken.
    static let delay: MonotonicNanoseconds = 500_000_000

    /// When the fit under way is taken; nil when none is.
    private(set) var due: MonotonicNanoseconds?
    private let shared: Shared
    private var thread: LoopThread?

    /// What the two threads share: the fit's inputs and outcome, and the two semaphores that
    /// hand them over (each a full memory barrier between the threads).
    private final class Shared: @unchecked Sendable {
        var readings: [Vector3] = []
        var forces: [Vector3] = []
        var up: Vector3?
        var field: (strength: Double, dip: Double)?
        var mode = CalibrationMode.figure8
        var outcome: CalibrationOutcome?
        var stopping = false
        let work = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

        init() {
            readings.reserveCapacity(CalibrationSession.capacity)
            forces.reserveCapacity(CalibrationSession.capacity)
            sem_init(work, 0, 0)
            sem_init(done, 0, 0)
        }

        deinit {
            sem_destroy(work)
            sem_destroy(done)
            work.deallocate()
            done.deallocate()
        }

        /// The fitting thread: a fit each time one is handed over, until told to stop.
        func serve() {
            while true {
                while sem_wait(work) != 0 {}
                if stopping { return }
                outcome = MagnetometerCalibration.fit(readings: readings, specificForces: forces, up: up, field: field, mode: mode)
                sem_post(done)
            }
        }
    }

    init() { shared = Shared() }

    deinit {
        guard let thread else { return }
        if due != nil { while sem_wait(shared.done) != 0 {} }
        shared.stopping = true
        sem_post(shared.work)
        thread.join()
    }

    /// Starts fitting `session`'s readings at `time`; false (and nothing started) when a fit is
    /// under way or the thread cannot start, and the caller fits on its own thread instead.
    func start(_ session: CalibrationSession, up: Vector3?, field: ExpectedField?, at time: MonotonicNanoseconds) -> Bool {
        guard due == nil else { return false }
        if thread == nil {
            let started = LoopThread()
            let shared = self.shared
            guard started.start(name: "compass-fit", { shared.serve() }) else { return false }
            thread = started
        }
        shared.readings.removeAll(keepingCapacity: true)
        shared.readings.append(contentsOf: session.readings)
        shared.forces.removeAll(keepingCapacity: true)
        shared.forces.append(contentsOf: session.forces)
        (shared.up, shared.field, shared.mode) = (up, field.map { ($0.strength, $0.inclination) }, session.mode)
        due = time &+ Self.delay
        sem_post(shared.work)
        return true
    }

    /// The outcome of the fit under way, waiting for it if need be.
    func take() -> CalibrationOutcome? {
        guard due != nil else { return nil }
        while sem_wait(shared.done) != 0 {}
        due = nil
        defer { shared.outcome = nil }
        return shared.outcome
    }
}
