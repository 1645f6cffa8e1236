import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs

/// The motion features, on the output thread, fed from the IMU ring (every sample, in order)
/// and the published state: steps and motion state, the flip gesture, the bubble level with
/// its surface offset, and the bearing lock. Their changes become EVENT reports; their values
/// go into ATT and a once-a-second MOTION report.
final class MotionService {
    private(set) var steps = StepCounter()
    private(set) var classifier = MotionClassifier()
    private var flip = FlipDetector()
    private(set) var level = BubbleLevel()
    private(set) var lock = BearingLock()
    /// The display's night theme, toggled by the flip gesture.
    private(set) var nightTheme = false
    /// Set when the level has just been reached, for the buzzer/LED pulse.
    private(set) var levelReached = false
    private var lastSample: MonotonicNanoseconds = 0
    private var lastTick: MonotonicNanoseconds = 0
    private var events: [String] = []
    /// The device's time for the events made now (set by the output loop before each round).
    var stamp = ""
    private let calibrationDirectory: String?
    private var levelFile: String? { calibrationDirectory.map { $0 + "/level.json" } }

    init(dataDirectory: String?) {
        calibrationDirectory = dataDirectory.map { CalibrationStore(dataDirectory: $0).directory }
        if let levelFile, fileExists(levelFile), let text = try? readTextFile(levelFile, limit: 4096),
           let json = try? JSONValue.parse(text), let roll = json["roll"]?.numberValue, let pitch = json["pitch"]?.numberValue,
           abs(roll) < 45, abs(pitch) < 45 {
            _ = level.setOffset(roll: roll, pitch: pitch)
        }
    }

    var motion: MotionState { classifier.state }

    /// One IMU sample (body axes) from the ring; `gpsSpeed` from the latest fix when it is recent.
    func add(_ sample: ImuSample, gpsSpeed: Double?) {
        defer { lastSample = sample.time }
        guard lastSample != 0, sample.time > lastSample else { return }
        let interval = Double(sample.time - lastSample) / 1e9
        guard interval < 0.5 else { return }   // a gap (the output thread stalled): start afresh next time
        _ = steps.update(specificForce: sample.acceleration, interval: interval)
        if let change = classifier.update(specificForce: sample.acceleration, rotationRate: sample.rotationRate,
                                          cadence: steps.cadence, gpsSpeed: gpsSpeed, interval: interval) {
            events.append(event("motion", [("state", .text(change.to.rawValue)), ("from", .text(change.from.rawValue))]))
        }
        if flip.update(specificForce: sample.acceleration, rotationRate: sample.rotationRate, interval: interval) != nil {
            nightTheme.toggle()
            events.append(event("flip", [("action", .text("nightTheme")), ("nightTheme", .flag(nightTheme))]))
        }
    }

    /// Level and bearing lock from the newest state; returns the EVENTs since the last call.
    func tick(_ state: NavigationState, now: MonotonicNanoseconds) -> [String] {
        let interval = lastTick == 0 ? 0 : Double(now &- lastTick) / 1e9
        lastTick = now
        levelReached = false
        if let attitude = state.attitude, interval > 0 {
            switch level.update(roll: attitude.roll, pitch: attitude.pitch, interval: interval) {
            case .becameLevel?:
                levelReached = true
                events.append(event("level", [("level", .flag(true))]))
            case .leftLevel?:
                events.append(event("level", [("level", .flag(false))]))
            case nil:
                break
            }
            let heading = state.trueHeading ?? attitude.magneticHeading
            switch lock.update(heading: heading) {
            case .offCourse(let deviation)?:
                events.append(event("offCourse", [("deviation", .number(deviation)), ("bearing", .number(lock.bearing ?? .nan))]))
            case .backOnCourse?:
                events.append(event("onCourse", [("bearing", .number(lock.bearing ?? .nan))]))
            case nil:
                break
            }
        }
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    // MARK: Commands (socket, CLI, buttons)

    /// Locks a given bearing, or the current heading; returns the report to answer with.
    func lockBearing(_ bearing: Double?) -> String {
        if let bearing { lock.lock(bearing: bearing) } else if !lock.lockCurrentHeading() {
            return GPSDReports.error("no heading to lock yet")
        }
        return lockReport()
    }

    func unlockBearing() -> String {
        lock.unlock()
        return lockReport()
    }

    /// The button toggles: lock the current heading, or release the lock.
    func toggleLock() -> String {
        lock.bearing == nil ? lockBearing(nil) : unlockBearing()
    }

    func lockReport() -> String {
        var fields: [(String, Value)] = [("locked", .flag(lock.bearing != nil))]
        if let bearing = lock.bearing { fields.append(("bearing", .number(bearing))) }
        return event("bearingLock", fields)
    }

    /// Takes the current roll and pitch as level (on a reference surface), or forgets it; saved.
    func zeroLevel(clear: Bool) -> String {
        // A reference surface is nearly level; a large offset is a device held at an angle.
        if !clear && (abs(level.roll) > 15 || abs(level.pitch) > 15) {
            return GPSDReports.error("the device is tilted \(fixed(level.tilt, 0))°: set it down on the reference surface and zero again")
        }
        _ = clear ? level.clearOffset() : level.zero()
        if let calibrationDirectory, let levelFile, makeDirectories(calibrationDirectory) {
            var w = JSONObjectWriter()
            w.number("roll", level.rollOffset, decimals: 3)
            w.number("pitch", level.pitchOffset, decimals: 3)
            writeFileAtomically(levelFile, Array((w.finished + "\n").utf8))
        }
        return event("levelOffset", [("roll", .number(level.rollOffset)), ("pitch", .number(level.pitchOffset))])
    }

    /// MOTION (Lodestone): steps, cadence (steps/min), distance (m), motion state, level.
    func report(time: String) -> String {
        var w = JSONObjectWriter(class: "MOTION")
        w.string("time", time)
        w.string("state", classifier.state.rawValue)
        w.integer("steps", steps.steps)
        w.number("cadence", steps.cadence, decimals: 1)
        w.number("distance", steps.distance, decimals: 1)
        w.bool("level", level.isLevel)
        w.number("tilt", level.tilt, decimals: 2)
        w.bool("nightTheme", nightTheme)
        return w.finished
    }

    enum Value {
        case text(String), number(Double), flag(Bool)
    }

    private func event(_ kind: String, _ fields: [(String, Value)]) -> String {
        var w = JSONObjectWriter(class: "EVENT")
        w.string("event", kind)
        for (name, value) in fields {
            switch value {
            case .text(let text): w.string(name, text)
            case .number(let number): w.number(name, number, decimals: 2)
            case .flag(let flag): w.bool(name, flag)
            }
        }
        w.string("time", stamp)
        return w.finished
    }
}
