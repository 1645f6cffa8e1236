import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneReports
import LodestoneSampling
import LodestoneStorage

/// The compass's slow work, on the output thread: Earth's field at the device's position for
/// the sampling side (true north, interference), the magnetometer calibration (loaded at
/// start, fitted in a guided figure-8 session, refined in the background on a thread of its
/// own, `BackgroundFit`), and the
/// calibration status and progress as EVENT reports.
package final class CompassService {
    /// A calibration good enough to call good, degrees of expected heading error.
    static let goodHeadingError = 3.0
    /// A guided session gives up after this long, seconds.
    static let guidedTimeout: UInt64 = 180_000_000_000
    /// Background refinement fits every minute and adopts only a clearly better result; with
    /// no calibration yet it tries every few seconds, so a person who never asks for one is
    /// calibrated soon after turning the device as the README shows.
    static let refinementPeriod: UInt64 = 60_000_000_000
    static let uncalibratedRefinementPeriod: UInt64 = 5_000_000_000
    /// A good calibration is tried again less often: a fit costs millions of instructions, and
    /// one good to 3 degrees has little left to gain minute by minute.
    static let goodRefinementPeriod: UInt64 = 300_000_000_000

    private let expectedField: LatestValue<ExpectedField?>
    /// The field last handed to the sampling side, for the fits here: the cell has one reader,
    /// the sampling thread (a second reader would take its updates from it, and make what a
    /// fit is given depend on when each thread looked).
    private var publishedField: ExpectedField?
    private let calibrationCell: LatestValue<MagnetometerCalibration?>
    private let magnetometerAxes: AxisMapping
    private let store: CalibrationStore?
    private var environment = MagneticEnvironment()
    private(set) var calibration: MagnetometerCalibration?
    private var guided: CalibrationSession?
    /// Where the compass is read: a boat's compass calibrates from swings, guided or in the background.
    package let use: CompassUse
    private var background: CalibrationSession
    private var addedAtLastFit = 0
    /// The background fit's own thread.
    private let backgroundFit = BackgroundFit()
    /// New readings (each turned at least 3 degrees from the last) before the background fit is tried again.
    static let newReadingsPerFit = 20
    private var nextProgress: MonotonicNanoseconds = 0
    private var nextRefinement: MonotonicNanoseconds
    private var nextEnvironment: MonotonicNanoseconds = 0
    package private(set) var progress = 0.0
    /// The degrees a guided swing has turned so far (nil outside a swing).
    package private(set) var swingTurned: Double?
    private var events: [Report] = []

    package init(pipeline: any SamplingControl, use: CompassUse = .handheld, dataDirectory: String?, now: MonotonicNanoseconds) {
        self.use = use
        expectedField = pipeline.expectedField
        calibrationCell = pipeline.magnetometerCalibration
        magnetometerAxes = pipeline.magnetometerAxes
        store = dataDirectory.map { CalibrationStore(dataDirectory: $0) }
        // The background fit's kind: a boat's compass only ever turns about the vertical.
        background = CalibrationSession(started: now, mode: use == .boat ? .swing : .figure8)
        nextRefinement = now + Self.uncalibratedRefinementPeriod
        if let loaded = store?.loadLogging(sensor: "magnetometer") {
            calibration = loaded
            calibrationCell.publish(loaded)
            Log.info("magnetometer calibration loaded: expected heading error \(fixed(loaded.expectedHeadingError, 1))°")
        }
    }

    package var status: CalibrationStatus {
        if guided != nil { return .inProgress }
        guard let calibration else { return .uncalibrated }
        return calibration.expectedHeadingError <= Self.goodHeadingError ? .good : .poor
    }

    var isCalibrating: Bool { guided != nil }

    /// The device's up axis (body -z) in the magnetometer's axes, where the fit works.
    private var deviceUp: Vector3 { magnetometerAxes.inverse.apply(Vector3(0, 0, -1)) }

    /// One magnetometer reading (the chip's raw field, with the accelerometer's reading of the
    /// same moment). The background fit is tried on the readings' own clock, so the readings
    /// it fits are the same however late this thread drains them: the calibration a trip
    /// ends up with does not depend on the machine's load or the simulation's speed.
    package func add(_ sample: MagneticSample) {
        guard let specificForce = sample.specificForce else { return }
        let force = magnetometerAxes.inverse.apply(specificForce)
        guided?.add(raw: sample.raw, force: force)
        background.add(raw: sample.raw, force: force)
        if let due = backgroundFit.due, sample.time >= due, let outcome = backgroundFit.take(), guided == nil {
            adoptIfBetter(outcome)
        }
        if guided == nil, backgroundFit.due == nil, sample.time >= nextRefinement {
            refine(at: sample.time)
            nextRefinement = sample.time + refinementPeriod
        }
    }

    package func startGuided(at now: MonotonicNanoseconds, mode: CalibrationMode = .figure8) {
        guided = CalibrationSession(started: now, mode: mode)
        progress = 0
        swingTurned = mode == .swing ? 0 : nil
        nextProgress = now + 1_000_000_000
        events.append(
            event(
                status: .inProgress,
                detail: mode == .swing
                    ? "turn the boat slowly and steadily through a full circle"
                    : "turn the device slowly through every direction, a figure-8 in the air"))
    }

    /// Whether this compass calibrates by a slow full circle (the guided session in progress
    /// is a swing, or, outside one, the compass is a boat's), so the display asks for that
    /// motion instead of figure-8s.
    package var calibratesBySwing: Bool { guided.map { $0.mode == .swing } ?? (use == .boat) }

    /// Ends a guided session without a result; `reason` is the EVENT's message. Returns
    /// whether a session was running.
    @discardableResult
    package func cancelGuided(_ reason: String = "calibration cancelled") -> Bool {
        guard guided != nil else { return false }
        guided = nil
        swingTurned = nil
        events.append(event(status: status, detail: reason))
        return true
    }

    /// Periodic work; returns EVENTs to publish.
    package func tick(_ state: NavigationState, now: MonotonicNanoseconds) -> [Report] {
        if now >= nextEnvironment {
            nextEnvironment = now + 1_000_000_000
            updateEnvironment(state)
        }
        if let session = guided, now >= nextProgress {
            nextProgress = now + 1_000_000_000
            evaluateGuided(session, now: now)
        }
        // Handed over, not emptied in place: the caller's copy would make emptying it copy
        // the list every tick. An empty list costs nothing.
        guard !events.isEmpty else { return [] }
        defer { events = [] }
        return events
    }

    private func updateEnvironment(_ state: NavigationState) {
        let fix = state.fix
        guard fix.hasPosition, let utc = fix.utc else { return }
        let altitude = fix.altitudeHAE.isFinite ? fix.altitudeHAE : fix.altitudeMSL
        if environment.update(latitude: fix.latitude, longitude: fix.longitude, altitude: altitude, unixTime: utc),
            let field = environment.expected
        {
            publishedField = ExpectedField(field)
            expectedField.publish(publishedField)
            if let warning = field.warning { Log.warning(warning) }
        }
    }

    private func evaluateGuided(_ session: CalibrationSession, now: MonotonicNanoseconds) {
        // The session's own kind (a swing is fitted as one) and the model's field at the fix.
        let outcome = session.evaluate(up: deviceUp, field: publishedField)
        if session.mode == .swing {
            // The share of the circle, never backwards: a refit that reads the circle a little
            // shorter is not the boat turning back.
            if let turned = outcome.turned { swingTurned = max(swingTurned ?? 0, turned) }
            progress = min(1, (swingTurned ?? 0) / 360)
        } else {
            // Never backwards either: a refit may count the directions a little differently,
            // and a bar that shrinks reads as the person undoing their work.
            progress = max(progress, min(1, (outcome.calibration?.coverage ?? 0) / CalibrationAcceptance().progressCoverage))
        }
        if outcome.isAccepted, let fitted = outcome.calibration {
            adopt(fitted)
            guided = nil
            swingTurned = nil
            events.append(event(status: status, detail: "calibrated: expected heading error \(fixed(fitted.expectedHeadingError, 1))°"))
            return
        }
        if now &- session.started >= Self.guidedTimeout {
            guided = nil
            swingTurned = nil
            events.append(event(status: status, detail: "calibration failed: " + (outcome.reason ?? "no usable fit")))
            return
        }
        if session.mode == .swing {
            let detail =
                swingTurned.flatMap { $0 > 0 ? Int(rounding: $0, in: 0...360) : nil }
                .map { "keep turning, \($0) degrees done" } ?? "keep turning, slowly and steadily through a full circle"
            events.append(event(status: .inProgress, detail: detail))
            return
        }
        let missing = outcome.missingDirections.first.map { ": " + $0.advice } ?? ""
        events.append(event(status: .inProgress, detail: "keep turning\(missing)", missing: outcome.missingDirections))
    }

    /// How long until the background fit is tried again, on the readings' clock.
    private var refinementPeriod: UInt64 {
        guard let calibration else { return Self.uncalibratedRefinementPeriod }
        return calibration.expectedHeadingError <= Self.goodHeadingError ? Self.goodRefinementPeriod : Self.refinementPeriod
    }

    /// A background fit replaces the calibration only when it is clearly better.
    private func refine(at time: MonotonicNanoseconds) {
        // A fit costs milliseconds over thousands of readings: only try again when the device
        // has been turned to something new since the last try.
        guard background.count >= 150, background.added - addedAtLastFit >= Self.newReadingsPerFit else { return }
        addedAtLastFit = background.added
        if backgroundFit.start(background, up: deviceUp, field: publishedField, at: time) { return }
        adoptIfBetter(background.evaluate(up: deviceUp, field: publishedField))
    }

    private func adoptIfBetter(_ outcome: CalibrationOutcome) {
        guard outcome.isAccepted, let fitted = outcome.calibration else { return }
        if let current = calibration, fitted.expectedHeadingError > 0.8 * current.expectedHeadingError { return }
        adopt(fitted)
        events.append(event(status: status, detail: "calibration refined: expected heading error \(fixed(fitted.expectedHeadingError, 1))°"))
    }

    private func adopt(_ fitted: MagnetometerCalibration) {
        calibration = fitted
        calibrationCell.publish(fitted)
        do { try store?.save(fitted, sensor: "magnetometer") } catch {
            Log.warning("calibration not saved: \(error.message)")
        }
    }

    private func event(status: CalibrationStatus, detail: String, missing: [CoverageDirection] = []) -> Report {
        let progress = status == .inProgress ? progress : (calibration == nil ? 0 : 1)
        return .event(
            EventReport(
                .calibration(
                    CalibrationProgress(
                        status: status, progress: progress, missing: missing,
                        expectedHeadingError: calibration?.expectedHeadingError, message: detail)),
                time: nil))
    }
}
