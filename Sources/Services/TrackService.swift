import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// Track recording on the output thread: start, pause, resume, stop (socket, CLI, the track
/// button), points at a fixed interval of GPS time or adaptively (`TrackSampler`), and auto-pause while
/// standing still so GPS jitter adds no phantom distance. A recording left by a crash is found
/// at start and continued.
package final class TrackService {
    package enum State: String { case stopped, recording, paused }

    package let store: TrackStore
    /// How points are taken when a start does not say: every 5 s unless configured.
    var defaultMode = TrackSampler.Mode.every(5)
    private var sampler = TrackSampler(.every(5))
    /// Below `stillSpeed` (m/s) for `stillTime` seconds the recording pauses itself
    /// (`tracks.autoPauseSpeed`, `tracks.autoPauseSeconds`).
    let stillSpeed: Double
    let stillTime: Double
    package private(set) var state = State.stopped
    package private(set) var recording: TrackRecording?
    private var stillSince: Double?
    package private(set) var autoPaused = false
    /// The next point starts a segment: the recording was paused (by hand or by itself).
    private var segmentPending = false
    /// The recording's figures, a point at a time as they are taken: every face (TRACK, the
    /// display's track page, the web app's `GET /api/v1/track`) reads these, never its own.
    private var tally = RecordingTally()
    /// The splits' length (m): a kilometre, a mile or a nautical mile, by the units the device
    /// shows. A change while recording counts the points taken again, so the splits a face
    /// reads are always in its units, from the start of the track.
    package var splitLength = 1000.0 {
        didSet {
            guard splitLength != oldValue else { return }
            tally = RecordingTally(splitLength: splitLength)
            for point in recording?.points ?? [] { tally.add(point) }
        }
    }
    /// The last track saved (read from the store once, when first asked; then each stop's).
    package private(set) lazy var lastSaved: TrackStore.Summary? = store.list().first
    /// The newest time (UTC seconds) the service was told: a request's, or the last fix's.
    private var latestTime = Double.nan

    package init(store: TrackStore, mode: TrackSampler.Mode = .every(5), autoPause: (speed: Double, seconds: Double) = (0.3, 10)) {
        self.store = store
        (stillSpeed, stillTime) = autoPause
        defaultMode = mode
        sampler = TrackSampler(mode)
        if let recovered = TrackRecording(recovering: store.recordingPath) {
            recording = recovered
            state = .recording
            for point in recovered.points { tally.add(point) }
            // The way points were taken goes on as it was (a recording from before the header
            // kept it takes the configured way).
            if let kept = recovered.extra.interval.flatMap(TrackSampler.Mode.init) { sampler = TrackSampler(kept) }
            Log.info(
                "track '\(recovered.name)' recovered after an interruption: \(recovered.points.count) points kept, "
                    + "points \(sampler.mode.description == "adaptive" ? "adaptive" : "every \(sampler.mode.description) s"); recording continues")
        }
    }

    /// `?TRACK`: starts, pauses, resumes or stops the recording, or reports.
    package func handle(_ request: TrackRequest, at utc: Double) -> Report {
        if utc.isFinite { latestTime = utc }
        switch request {
        case .start(let name, let tags, let mode, let notes, let isPrivate):
            return start(name: name, tags: TrackFile.tags(tags.joined(separator: ",")), mode: mode, notes: notes, isPrivate: isPrivate, at: utc)
        case .pause: return pause()
        case .resume: return resume()
        case .stop: return stop()
        case .report: return report(nil)
        }
    }

    func start(
        name: String?, tags: [String] = [], mode: TrackSampler.Mode? = nil, notes: String? = nil, isPrivate: Bool = false,
        at utc: Double
    ) -> Report {
        if state != .stopped { return report("already recording '\(recording?.name ?? "")'") }
        guard makeDirectories(store.directory) else { return .error("cannot create \(store.directory)") }
        let title = name ?? "Track " + TrackStore.id(started: utc)
        let chosen = mode ?? defaultMode
        guard
            let started = TrackRecording(
                path: store.recordingPath, name: title, started: utc, tags: tags,
                extra: TrackFile.Extra(interval: chosen.description, notes: notes ?? "", isPrivate: isPrivate))
        else {
            return .error("cannot start recording: " + WriteFailure(path: store.recordingPath, errno: errno).description)
        }
        recording = started
        state = .recording
        tally = RecordingTally(splitLength: splitLength)
        latestTime = utc
        sampler = TrackSampler(chosen)
        segmentPending = false
        return report("recording")
    }

    func pause() -> Report {
        if state == .recording { state = .paused }
        return report(nil)
    }

    func resume() -> Report {
        if state == .paused {
            state = .recording
            sampler.reset()
            segmentPending = true
        }
        return report(nil)
    }

    func stop() -> Report {
        guard let recording else { return report("not recording") }
        // Nothing is filed half written: while the disk refuses the points, the recording
        // stays open (and in memory) and the stop says why.
        guard recording.flush() else {
            let reason = WriteFailure(path: recording.path, errno: recording.writeError).description
            return .error(
                "cannot save the track: \(recording.unwritten) points are not on the disk yet (\(reason)); "
                    + "the recording goes on in memory: stop again once there is space")
        }
        guard let summary = store.file(recording) else {
            return .error(
                "cannot save the track's summary in \(store.directory) (check the free space); "
                    + "its points are kept in \(recording.path)")
        }
        self.recording = nil
        tally = RecordingTally(splitLength: splitLength)
        state = .stopped
        storageProblem = nil
        finished.append(summary)
        lastSaved = summary
        return report("saved as \(summary.id): \(fixed(summary.distance / 1000, 2)) km")
    }

    /// The track button: start, or stop a running recording.
    package func toggle(at utc: Double) -> Report {
        if utc.isFinite { latestTime = utc }
        return state == .stopped ? start(name: nil, at: utc) : stop()
    }

    /// Tracks filed since the outputs last asked (`takeFinished`): MQTT sends them home.
    private var finished: [TrackStore.Summary] = []

    /// The tracks that ended since the last call.
    package func takeFinished() -> [TrackStore.Summary] {
        defer { finished.removeAll() }
        return finished
    }

    /// What the recording's writes last did: nil while they work, else why they fail.
    package private(set) var storageProblem: String?

    /// A new fix, with the barometer's view of the moment. Returns an EVENT when the disk
    /// stopped taking the points, or took them again.
    package func add(_ fix: GPSFix, state navigation: NavigationState, now: MonotonicNanoseconds, time: Double) -> Report? {
        guard state == .recording, let recording, fix.hasPosition, let utc = fix.utc else { return nil }
        if utc.isFinite { latestTime = utc }
        let change = record(fix, utc: utc, navigation: navigation, now: now, into: recording)
        return change.map { .event(EventReport(.storage(active: $0.active, message: $0.message), time: time)) }
    }

    private func record(
        _ fix: GPSFix, utc: Double, navigation: NavigationState, now: MonotonicNanoseconds,
        into recording: TrackRecording
    ) -> (active: Bool, message: String)? {
        let speed = fix.speed
        if speed.isFinite && speed < stillSpeed {
            if stillSince == nil { stillSince = utc }
            if let since = stillSince, utc - since >= stillTime { autoPaused = true }
        } else {
            stillSince = nil
            if autoPaused { segmentPending = true }
            autoPaused = false
        }
        guard !autoPaused,
            sampler.take(time: utc, latitude: fix.latitude, longitude: fix.longitude, speed: speed, course: fix.course)
        else { return nil }
        let accuracy = fix.eph.isFinite ? fix.eph : (fix.hdop.isFinite ? fix.hdop * 5 : .nan)
        var point = TrackPoint(
            time: utc, latitude: fix.latitude, longitude: fix.longitude, gpsAltitude: fix.altitudeMSL,
            baroAltitude: navigation.barometricAltitude, pressure: navigation.pressure.map { $0.pressure / 100 } ?? .nan,
            speed: speed, accuracy: accuracy)
        point.startsSegment = segmentPending && !recording.points.isEmpty
        segmentPending = false
        recording.append(point, now: now)
        tally.add(point)
        let failing = recording.writeError != 0
        if failing && storageProblem == nil {
            storageProblem = WriteFailure(path: recording.path, errno: recording.writeError).description
            let message = (storageProblem ?? "") + "; the points are kept in memory and written when the disk takes them"
            Log.warning("track: " + message)
            return (true, message)
        }
        if !failing, storageProblem != nil {
            storageProblem = nil
            Log.info("track: the disk takes the points again; every point kept in memory is written")
            return (false, "cleared: the track's points are written again, none lost")
        }
        return nil
    }

    /// The statistics of the recording so far (nil when none is open): the same as
    /// `TrackStatistics.of` its points, kept up a point at a time.
    package var statistics: TrackStatistics? { recording == nil ? nil : tally.statistics }

    /// TRACK: the recording's state, name, points, distance and figures so far, elapsed to
    /// `utc` (the newest time the service was told when nil).
    package func report(_ message: String?, at utc: Double? = nil) -> Report {
        let now = utc ?? latestTime
        return .track(
            TrackReport(
                state: state.rawValue, autoPaused: autoPaused,
                recording: recording.map { recording in
                    let s = tally.statistics
                    var figures = TrackReport.Recording(
                        name: recording.name, tags: recording.tags, interval: sampler.mode.description, points: s.points,
                        distance: s.distance)
                    figures.started = recording.started
                    // A clock set back after the start reads as no time yet, never negative.
                    figures.elapsed = now.isFinite ? max(0, now - recording.started) : .nan
                    (figures.movingTime, figures.climb, figures.descent) = (s.movingTime, s.elevationGain, s.elevationLoss)
                    (figures.splitLength, figures.splits, figures.lastSplit) = (s.splitLength, s.splits.count, s.splits.last ?? .nan)
                    (figures.splitDistance, figures.splitTime) = s.splitUnderWay
                    return figures
                }, message: message))
    }

    /// The recording's path for a screen: at most `limit` points, the first and the last
    /// always among them (`TrackThinning`), as latitude and longitude.
    package func path(limit: Int) -> [(latitude: Double, longitude: Double)] {
        guard let points = recording?.points else { return [] }
        return TrackThinning.indices(count: points.count, limit: limit).map { (points[$0].latitude, points[$0].longitude) }
    }
}
