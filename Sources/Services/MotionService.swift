import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneReports
import LodestoneSettings
import LodestoneStorage

/// The motion features, on the output thread, fed from the IMU ring (every sample, in order)
/// and the published state: steps and motion state, the flip gesture, the bubble level with
/// its surface offset, and the bearing lock. Their changes become EVENT reports; their values
/// go into ATT and a once-a-second MOTION report.
package final class MotionService {
    package private(set) var steps = StepCounter()
    private(set) var classifier = MotionClassifier()
    private var flip = FlipDetector()
    package private(set) var level = BubbleLevel()
    package private(set) var lock = BearingLock()
    /// The level's and the course's EVENTs (and the buzzer's tick) through a dead band: a boat
    /// rolling through level, a heading hovering at the lock's edge, is one event, not a stream.
    private var levelEvents = EventDeadBand(MotionService.levelDeadBand)
    private var courseEvents = EventDeadBand(MotionService.courseDeadBand)
    static let levelDeadBand = EventDeadBand.Settings(onAfter: 1, offAfter: 0.5, leastBetween: 30)
    static let courseDeadBand = EventDeadBand.Settings(onAfter: 2, offAfter: 2, leastBetween: 10)
    /// The display's night theme, toggled by the flip gesture when that is what it does.
    private(set) var nightTheme = false
    /// What a flip does (the configuration's `flipAction`): the EVENT says the theme changed
    /// only when the flip changes it.
    package var flipAction = Configuration.FlipAction.nightTheme
    /// Flips since the start: the display acts on each as `flipAction` says.
    package private(set) var flips = 0
    /// Set when the level has just been reached, for the buzzer/LED pulse.
    package private(set) var levelReached = false
    private var lastSample: MonotonicNanoseconds = 0
    private var lastTick: MonotonicNanoseconds = 0
    private var events: [Report] = []
    private let levelFile: LevelOffsetFile?

    package init(dataDirectory: String?) {
        levelFile = dataDirectory.map(LevelOffsetFile.init)
        if let saved = levelFile?.load() { _ = level.setOffset(roll: saved.roll, pitch: saved.pitch) }
    }

    package var motion: MotionState { classifier.state }

    /// One IMU sample (body axes) from the ring, with its time on the device's time base;
    /// `gpsSpeed` from the latest fix when it is recent.
    package func add(_ sample: ImuSample, gpsSpeed: Double?, time: Double) {
        defer { lastSample = sample.time }
        guard lastSample != 0, sample.time > lastSample else { return }
        let interval = Double(sample.time - lastSample) / 1e9
        guard interval < 0.5 else { return }  // a gap (the output thread stalled): start afresh next time
        _ = steps.update(specificForce: sample.acceleration, interval: interval)
        if let change = classifier.update(
            specificForce: sample.acceleration, rotationRate: sample.rotationRate,
            cadence: steps.cadence, gpsSpeed: gpsSpeed, interval: interval)
        {
            events.append(.event(EventReport(.motion(from: change.from, to: change.to), time: time)))
        }
        if flip.update(specificForce: sample.acceleration, rotationRate: sample.rotationRate, interval: interval) != nil {
            if flipAction == .nightTheme { nightTheme.toggle() }
            flips += 1
            events.append(.event(EventReport(.flip(action: flipAction.rawValue, nightTheme: nightTheme), time: time)))
        }
    }

    /// Level and bearing lock from the newest state (computed at `time`); returns the EVENTs
    /// since the last call.
    package func tick(_ state: NavigationState, now: MonotonicNanoseconds, time: Double) -> [Report] {
        var reports: [Report] = []
        tick(state, now: now, time: time) { reports.append($0) }
        return reports
    }

    /// `tick`, each EVENT since the last call handed to `send` (the list kept with its storage:
    /// a change of motion allocates nothing on the output thread).
    package func tick(_ state: NavigationState, now: MonotonicNanoseconds, time: Double, send: (Report) -> Void) {
        let interval = lastTick == 0 ? 0 : Double(now &- lastTick) / 1e9
        lastTick = now
        levelReached = false
        if let attitude = state.attitude, interval > 0 {
            _ = level.update(roll: attitude.roll, pitch: attitude.pitch, interval: interval)
            if let isLevel = levelEvents.update(level.isLevel, interval: interval) {
                levelReached = isLevel
                events.append(.event(EventReport(.level(isLevel), time: time)))
            }
            let heading = state.trueHeading ?? attitude.magneticHeading
            _ = lock.update(heading: heading)
            // Released: no course to be on or off (and no "back on course" for the release).
            if lock.bearing == nil { courseEvents = EventDeadBand(Self.courseDeadBand) }
            if lock.bearing != nil, let offCourse = courseEvents.update(lock.isOffCourse, interval: interval) {
                events.append(
                    .event(
                        EventReport(
                            offCourse
                                ? .offCourse(deviation: lock.deviation ?? .nan, bearing: lock.bearing ?? .nan)
                                : .onCourse(bearing: lock.bearing ?? .nan), time: time)))
            }
        }
        guard !events.isEmpty else { return }
        for event in events { send(event) }
        events.removeAll(keepingCapacity: true)
    }

    // MARK: Commands (socket, CLI, buttons)

    /// Locks a given bearing, or the current heading; returns the report to answer with.
    package func lockBearing(_ bearing: Double?, time: Double) -> Report {
        if let bearing {
            lock.lock(bearing: bearing)
        } else if !lock.lockCurrentHeading() {
            return .error("no heading to lock yet")
        }
        return lockReport(time: time)
    }

    package func unlockBearing(time: Double) -> Report {
        lock.unlock()
        return lockReport(time: time)
    }

    /// The button toggles: lock the current heading, or release the lock.
    package func toggleLock(time: Double) -> Report {
        lock.bearing == nil ? lockBearing(nil, time: time) : unlockBearing(time: time)
    }

    func lockReport(time: Double) -> Report {
        .event(EventReport(.bearingLock(bearing: lock.bearing), time: time))
    }

    /// `?LEVEL`: the MOTION report, or the level zeroed or cleared.
    package func handle(_ request: LevelRequest, time: Double) -> Report {
        switch request {
        case .report: return .motion(report(time: time))
        case .zero: return zeroLevel(clear: false, time: time)
        case .clear: return zeroLevel(clear: true, time: time)
        }
    }

    /// Takes the current roll and pitch as level (on a reference surface), or forgets it; saved.
    func zeroLevel(clear: Bool, time: Double) -> Report {
        // A reference surface is nearly level; a large offset is a device held at an angle.
        if !clear && (abs(level.roll) > 15 || abs(level.pitch) > 15) {
            return .error("the device is tilted \(fixed(level.tilt, 0))°: set it down on the reference surface and zero again")
        }
        _ = clear ? level.clearOffset() : level.zero()
        levelFile?.save(roll: level.rollOffset, pitch: level.pitchOffset)
        return .event(EventReport(.levelOffset(roll: level.rollOffset, pitch: level.pitchOffset), time: time))
    }

    /// MOTION: steps, cadence, distance, motion state, level, at `time`.
    package func report(time: Double) -> MotionReport {
        MotionReport(
            time: time, state: classifier.state, steps: steps.steps, cadence: steps.cadence, distance: steps.distance,
            level: level.isLevel, tilt: level.tilt, nightTheme: nightTheme)
    }
}
