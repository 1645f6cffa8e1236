import Glibc
import LodestoneCore
import LodestoneDomain

extension TrackStore {
    /// A track brought in by `importTracks`: its summary as filed, whether the file gave no
    /// times, and what was changed to keep it (a name cut, control characters removed), in words.
    public struct Imported: Sendable {
        public var summary: Summary
        public var timeless: Bool
        public var warnings: [String]
    }

    /// Why an import added nothing: the file could not be read or was refused (`reading`, said
    /// with its line or place), or the tracks could not be written (`storing`).
    public enum ImportFailure: Error, CustomStringConvertible {
        case reading(String)
        case storing(StorageError)

        public var description: String {
            switch self {
            case .reading(let text): text
            case .storing(let error): error.description
            }
        }
    }

    /// Imports a GPX or JSON file's tracks, all or none. Each point is written to its track's
    /// file as it is parsed, through the writer a recording uses, and the track's statistics
    /// worked out as it goes, so what the import holds does not grow with the file (a piece of
    /// it, and a point). Each track is written to a temporary (`import-PID-N.track`, never
    /// listed, and removed by `lodestone run` when an import was stopped half-way) and filed
    /// under its id only once the whole file has been read: a file refused half-way (a wrong
    /// point, XML cut short, over `limit` bytes) adds nothing. A track without times is filed
    /// as brought in at `now`, a second a point.
    public func importTracks(
        file path: String, limit: Int, tags: [String] = [], now: Double = Double(time(nil)),
        progress: ((_ read: Int, _ size: Int) -> Void)? = nil
    ) throws(ImportFailure) -> [Imported] {
        let filer = TrackImportFiler(store: self, tags: tags, now: now)
        do { try filer.begin() } catch { throw .storing(error) }
        do { try TrackImport.read(file: path, limit: limit, into: filer, progress: progress) } catch {
            filer.abandon()
            throw filer.failure.map { .storing($0) } ?? .reading(error.description)
        }
        do { return try filer.fileAll() } catch { throw .storing(error) }
    }

    /// Files imported tracks as tracks like any other, all or none: when one cannot be
    /// written, the ones already filed by this import are removed again.
    public func add(_ tracks: [TrackImport.Track], tags: [String] = []) throws(StorageError) -> [Summary] {
        let filer = TrackImportFiler(store: self, tags: tags, now: Double(time(nil)))
        try filer.begin()
        for track in tracks where !track.points.isEmpty {
            do { try TrackImport.hand(track, to: filer) } catch {
                filer.abandon()
                throw filer.failure ?? StorageError(error.description)
            }
        }
        return try filer.fileAll().map(\.summary)
    }
}

/// Writes an import's tracks as they are read (see `TrackStore.importTracks`): each to a
/// temporary track file through `TrackRecording` (keeping none of its points), with its
/// statistics accumulated from the points as stored; filed under their ids at the end.
final class TrackImportFiler: TrackImportReceiver {
    let store: TrackStore
    let tags: [String]
    /// When the tracks without times are said to have been brought in.
    let now: Double
    /// Why writing failed, when it did (the reader is stopped with a failure saying so).
    private(set) var failure: StorageError?

    /// A track written whole, waiting to be filed.
    private struct Written {
        var path: String
        var name: String
        var started: Double
        var extra: TrackFile.Extra
        var statistics: TrackStatistics
        var warnings: [String]
    }
    private var written: [Written] = []
    /// The track being written: its recording, the header it was started with, and its figures so far.
    private var recording: TrackRecording?
    private var header = (name: "", notes: "", timeless: false, started: 0.0)
    private var elevation = TrackElevation.Stream()
    private var statistics = TrackStatistics.Accumulator(keepsProfile: false)
    private var temporaries = 0

    init(store: TrackStore, tags: [String], now: Double) {
        (self.store, self.tags, self.now) = (store, tags, now)
    }

    /// Nothing written is left behind by an import that did not finish.
    deinit { abandon() }

    func begin() throws(StorageError) {
        guard makeDirectories(store.directory) else { throw StorageError("cannot create \(store.directory)") }
    }

    private func nextTemporary() -> String {
        defer { temporaries += 1 }
        return store.directory + "/import-\(getpid())-\(temporaries).track"
    }

    private func fail(_ error: StorageError) -> TrackImport.Failure {
        failure = error
        return TrackImport.Failure(description: error.description)
    }

    private func failedWrite(_ name: String) -> TrackImport.Failure {
        fail(StorageError("cannot file the imported track '\(name)' in \(store.directory) (check the free space); nothing was added"))
    }

    func point(_ given: TrackPoint, hasTime: Bool, name: String, notes: String) throws(TrackImport.Failure) {
        if recording == nil {
            // The header as the track would be kept if it ended now; a name or notes given
            // after the points, or a point without a time after timed ones, rewrite it at the end.
            let kept = TrackImport.cleaned(name: name, notes: notes, place: "")
            header = (kept.name, kept.notes, !hasTime, hasTime ? given.time : now)
            let path = nextTemporary()
            let extra = TrackFile.Extra(notes: header.notes, imported: true, timeless: header.timeless)
            guard
                let started = TrackRecording(
                    path: path, name: header.name, started: header.started, tags: tags, extra: extra, keepsPoints: false)
            else {
                throw fail(StorageError("cannot write \(path): " + WriteFailure(path: path, errno: errno).description))
            }
            recording = started
            elevation = TrackElevation.Stream()
            statistics = TrackStatistics.Accumulator(keepsProfile: false)
        }
        guard let recording else { return }
        var point = given
        if header.timeless { point.time = now + Double(statistics.points) }
        recording.append(point, now: 0)
        guard recording.unwritten == 0 else { throw failedWrite(header.name) }
        let stored = TrackFile.stored(point)
        statistics.add(stored, altitude: elevation.next(stored))
    }

    func end(name: String, notes: String, timeless: Bool, warnings: [String]) throws(TrackImport.Failure) {
        guard let recording else { return }
        let path = recording.path
        guard recording.flush() else { throw failedWrite(name) }
        self.recording = nil
        var track = Written(
            path: path, name: header.name, started: header.started,
            extra: TrackFile.Extra(notes: header.notes, imported: true, timeless: header.timeless),
            statistics: statistics.statistics, warnings: warnings)
        if (name, notes, timeless) != (header.name, header.notes, header.timeless) {
            let started = timeless ? now : header.started
            let extra = TrackFile.Extra(notes: notes, imported: true, timeless: timeless)
            let rewritten = nextTemporary()
            // Listed as written before it is rewritten, so a failure removes it too.
            written.append(track)
            guard let figures = rewrite(path, to: rewritten, name: name, started: started, extra: extra, madeUpTimes: timeless) else {
                unlink(rewritten)
                throw failedWrite(name)
            }
            written.removeLast()
            unlink(path)
            track = Written(path: rewritten, name: name, started: started, extra: extra, statistics: figures, warnings: warnings)
        }
        written.append(track)
    }

    /// Writes the track at `path` again under a new header (its points as they are, or with
    /// made-up times a second apart from `started`), reading it back a piece at a time;
    /// answers its statistics, or nil when it cannot be read or written.
    private func rewrite(
        _ path: String, to destination: String, name: String, started: Double, extra: TrackFile.Extra, madeUpTimes: Bool
    ) -> TrackStatistics? {
        guard let input = try? GuardedOpen.store(path, O_RDONLY) else { return nil }
        defer { close(input) }
        guard let output = try? GuardedOpen.store(destination, O_WRONLY | O_CREAT | O_EXCL) else { return nil }
        defer { close(output) }
        var out = RecordLog.framed(Array(TrackFile.header(name: name, started: started, tags: tags, extra: extra).utf8))
        var elevation = TrackElevation.Stream()
        var statistics = TrackStatistics.Accumulator(keepsProfile: false)
        var carried: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 64 << 10)
        var first = true
        while true {
            let count = piece.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            carried += piece[0..<count]
            let parsed = RecordLog.parseSkipping(carried)
            guard parsed.skippedBytes == 0 else { return nil }
            carried.removeFirst(parsed.validBytes)
            for record in parsed.records {
                // The header it was written with is replaced.
                if first {
                    first = false
                    continue
                }
                var body = String(decoding: record, as: UTF8.self)
                if madeUpTimes, let comma = body.firstIndex(of: ",") {
                    // Only the time changes: the other figures stay as they were written.
                    body = fixed(started + Double(statistics.points), 1) + body[comma...]
                }
                guard let stored = TrackFile.point(Substring(body)) else { return nil }
                statistics.add(stored, altitude: elevation.next(stored))
                out += RecordLog.framed(Array(body.utf8))
                if out.count >= 64 << 10 {
                    guard out.withUnsafeBytes({ writeWhole(output, $0, path: destination) }) == 0 else { return nil }
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        // Every byte read back is a whole record of what was just written.
        guard carried.isEmpty, out.withUnsafeBytes({ writeWhole(output, $0, path: destination) }) == 0 else { return nil }
        CrashPoint.step("fsync")
        guard fsync(output) == 0 else { return nil }
        return statistics.statistics
    }

    /// Files every track written, all or none; what was written is removed when one cannot be.
    func fileAll() throws(StorageError) -> [TrackStore.Imported] {
        var filed: [TrackStore.Imported] = []
        for (index, track) in written.enumerated() {
            guard
                let summary = store.file(
                    path: track.path, name: track.name, started: track.started, tags: tags, extra: track.extra,
                    statistics: track.statistics)
            else {
                for done in filed { _ = store.delete(id: done.summary.id) }
                for left in written[index...] { unlink(left.path) }
                written = []
                throw StorageError(
                    "cannot file the imported track '\(track.name)' in \(store.directory) (check the free space); nothing was added")
            }
            filed.append(TrackStore.Imported(summary: summary, timeless: track.extra.timeless, warnings: track.warnings))
        }
        written = []
        return filed
    }

    /// Removes what was written and not filed.
    func abandon() {
        if let recording { unlink(recording.path) }
        recording = nil
        for track in written { unlink(track.path) }
        written = []
    }
}
