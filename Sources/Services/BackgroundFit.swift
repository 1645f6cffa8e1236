import LodestoneCore
import LodestoneDomain

/// The compass's background calibration fit, on a thread of its own (`BackgroundWorker`): a
/// fit over thousands of readings costs millions of instructions and hundreds of allocations,
/// which the output thread (the socket's clients, the display) should not wait for. The
/// readings are copied into storage the fit keeps (nothing allocated on the output thread),
/// and the outcome is taken at a time fixed on the readings' own clock, waiting for the fit if
/// it is not done: when a fit is adopted never depends on how fast the machine fits, so a
/// trip's calibration is the same on any machine and at any speed.
final class BackgroundFit {
    /// How long after a fit starts, on the readings' clock, its outcome is taken.
    static let delay: MonotonicNanoseconds = 500_000_000

    /// When the fit under way is taken; nil when none is.
    private(set) var due: MonotonicNanoseconds?

    /// What a fit is given.
    struct Job {
        var readings: [Vector3] = []
        var forces: [Vector3] = []
        var up: Vector3?
        var field: (strength: Double, dip: Double)?
        var mode = CalibrationMode.figure8
    }

    private let worker: BackgroundWorker<Job, CalibrationOutcome>

    init() {
        var job = Job()
        job.readings.reserveCapacity(CalibrationSession.capacity)
        job.forces.reserveCapacity(CalibrationSession.capacity)
        worker = BackgroundWorker(name: "compass-fit", input: job) { job in
            MagnetometerCalibration.fit(readings: job.readings, specificForces: job.forces, up: job.up, field: job.field, mode: job.mode)
        }
    }

    /// Starts fitting `session`'s readings at `time`; false (and nothing started) when a fit is
    /// under way or the thread cannot start, and the caller fits on its own thread instead.
    func start(_ session: CalibrationSession, up: Vector3?, field: ExpectedField?, at time: MonotonicNanoseconds) -> Bool {
        let started = worker.start { job in
            job.readings.removeAll(keepingCapacity: true)
            job.readings.append(contentsOf: session.readings)
            job.forces.removeAll(keepingCapacity: true)
            job.forces.append(contentsOf: session.forces)
            (job.up, job.field, job.mode) = (up, field.map { ($0.strength, $0.inclination) }, session.mode)
        }
        if started { due = time &+ Self.delay }
        return started
    }

    /// The outcome of the fit under way, waiting for it if need be.
    func take() -> CalibrationOutcome? {
        due = nil
        return worker.take()
    }
}
