import Glibc
import LodestoneCore
import LodestoneDomain

/// A track on disk, on the record log's frames (`RecordLog`: sync, length, payload, CRC-32):
/// the first record is the header, each one after it a point. Points are appended with
/// write(2) and flushed with fsync at most once a second: a cut loses at most the last second,
/// a torn frame is recognised by its CRC and cut off, and a corrupt one is skipped.
///
///     # lodestone track 2 name=Morning walk started=1782028800 tags=hike,alps
///     1782028801.0,47.3769,8.5417,408.2,410.1,965.12,1.35,4.0
///
/// Tracks recorded before (version 1: text lines, each point ending in `*` and a two-digit
/// XOR checksum) are read as they are, and a recording left in that form is converted.
package enum TrackFile {
    /// The header of the text tracks of version 1, and of the record tracks of version 2.
    static let magic = "# lodestone track 1"
    static let recordMagic = "# lodestone track 2"

    package typealias Parsed = (
        name: String, started: Double, tags: [String], points: [TrackPoint], skipped: Int, validBytes: Int,
        headerDamaged: Bool, extra: Extra, photos: [TrackPhoto]
    )

    /// A photo's record among the points: `# photo FILE TIME LAT LON` (empty figures unknown).
    static let photoMark = "# photo "

    static func photoRecord(_ photo: TrackPhoto) -> String {
        func n(_ v: Double, _ d: Int) -> String { v.isFinite ? fixed(v, d) : "-" }
        return photoMark + photo.file + " " + n(photo.time, 1) + " " + n(photo.latitude, 7) + " " + n(photo.longitude, 7)
    }

    static func photo(_ text: Substring) -> TrackPhoto? {
        let parts = text.dropFirst(photoMark.count).split(separator: " ")
        guard parts.count == 4, let time = DecimalNumber.parse(parts[1]), CivilTime.writableSeconds.contains(time),
            parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" })
        else { return nil }
        let latitude = DecimalNumber.parse(parts[2]).flatMap { abs($0) <= 90 ? $0 : nil } ?? .nan
        let longitude = DecimalNumber.parse(parts[3]).flatMap { abs($0) <= 180 ? $0 : nil } ?? .nan
        return TrackPhoto(file: String(parts[0]), time: time, latitude: latitude, longitude: longitude)
    }

    /// What else the header keeps, so a recording recovered after a crash goes on as it was:
    /// how points were taken (`interval=5`, `interval=adaptive`), the notes, and what the
    /// track is (`source=import` for one brought in from a file, `times=none` for one whose
    /// file had no times: its times are made up, one second apart, and never exported).
    package struct Extra: Sendable, Equatable {
        package var interval: String?
        package var notes = ""
        package var imported = false
        package var timeless = false
        /// Started as private: filed private, never published.
        package var isPrivate = false
        package init(interval: String? = nil, notes: String = "", imported: Bool = false, timeless: Bool = false, isPrivate: Bool = false) {
            (self.interval, self.notes, self.imported, self.timeless, self.isPrivate) = (interval, notes, imported, timeless, isPrivate)
        }
    }

    static func header(name: String, started: Double, tags: [String], extra: Extra = Extra()) -> String {
        func line(_ text: String) -> String { String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }) }
        return recordMagic + " name=" + line(name) + " started=" + String(Int64(started))
            + (tags.isEmpty ? "" : " tags=" + tags.joined(separator: ","))
            + (extra.interval.map { " interval=" + $0 } ?? "")
            + (extra.imported ? " source=import" : "") + (extra.timeless ? " times=none" : "") + (extra.isPrivate ? " private=yes" : "")
            // The notes run to the end of the line (they may hold spaces): always last.
            + (extra.notes.isEmpty ? "" : " notes=" + line(extra.notes)) + "\n"
    }

    /// Tags as given by a person ("Hike, Alps "): lower case, no spaces or commas, no repeats.
    package static func tags(_ text: String) -> [String] {
        var seen: [String] = []
        for part in text.split(separator: ",") {
            let tag = String(part.lowercased().filter { !$0.isWhitespace })
            if !tag.isEmpty && !seen.contains(tag) { seen.append(tag) }
        }
        return seen
    }

    /// A point's record: its figures, comma-separated, empty where unknown.
    static func body(_ p: TrackPoint) -> String {
        func n(_ v: Double, _ d: Int) -> String { v.isFinite ? fixed(v, d) : "" }
        // A ninth field "s" marks the first point after a pause (older readers skip it whole).
        return [
            n(p.time, 1), n(p.latitude, 7), n(p.longitude, 7), n(p.gpsAltitude, 1), n(p.baroAltitude, 1),
            n(p.pressure, 2), n(p.speed, 2), n(p.accuracy, 1)
        ].joined(separator: ",") + (p.startsSegment ? ",s" : "")
    }

    /// A point as it reads back from its record (its figures rounded as they are written).
    static func stored(_ p: TrackPoint) -> TrackPoint {
        point(Substring(body(p))) ?? p
    }

    /// A point as version 1 wrote it: its figures, `*` and the checksum.
    static func line(_ p: TrackPoint) -> String {
        let body = body(p)
        return body + "*" + checksum(body) + "\n"
    }

    /// A point from its figures; nil unless there are eight with a time and a position (and
    /// perhaps the segment's mark).
    static func point(_ body: Substring) -> TrackPoint? {
        var parts = body.split(separator: ",", omittingEmptySubsequences: false)
        let startsSegment = parts.count == 9 && parts.last == "s"
        if startsSegment { parts.removeLast() }
        let fields = parts.map { DecimalNumber.parse($0) ?? .nan }
        guard fields.count == 8, fields[0].isFinite, fields[1].isFinite, fields[2].isFinite else { return nil }
        var point = TrackPoint(
            time: fields[0], latitude: fields[1], longitude: fields[2], gpsAltitude: fields[3],
            baroAltitude: fields[4], pressure: fields[5], speed: fields[6], accuracy: fields[7])
        point.startsSegment = startsSegment
        return point
    }

    /// The name, start and tags of a header line (either version); what is damaged reads as unknown.
    static func headerFields(_ raw: Substring) -> (name: String, started: Double, tags: [String], extra: Extra) {
        var name = "", started = 0.0, tags: [String] = []
        var extra = Extra()
        var raw = raw
        // Searched after the start, so a name holding " notes=" stays whole.
        let afterStart = raw.firstRange(of: " started=")?.upperBound ?? raw.startIndex
        if let notes = raw[afterStart...].firstRange(of: " notes=") {
            extra.notes = String(raw[notes.upperBound...]).trimmingNewline
            raw = raw[..<notes.lowerBound]
        }
        // The record form's header ends in "\n": it is no part of the last field.
        for part in raw.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if part.hasPrefix("interval=") { extra.interval = String(part.dropFirst(9)) }
            if part == "source=import" { extra.imported = true }
            if part == "times=none" { extra.timeless = true }
            if part == "private=yes" { extra.isPrivate = true }
            // A start no calendar can write (a damaged header) is unknown: 0.
            if part.hasPrefix("started="), let t = DecimalNumber.parse(part.dropFirst(8)), CivilTime.writableSeconds.contains(t) {
                started = t
            }
            if part.hasPrefix("tags=") { tags = Self.tags(String(part.dropFirst(5))) }
        }
        // The name may hold spaces: it runs from " name=" to " started=".
        if let nameStart = raw.firstRange(of: " name="), let nameEnd = raw.firstRange(of: " started="), nameStart.upperBound <= nameEnd.lowerBound {
            name = String(raw[nameStart.upperBound..<nameEnd.lowerBound])
        }
        return (name, started, tags, extra)
    }

    /// A track file's contents, in either version: torn or corrupt points are skipped and
    /// counted; a damaged header loses the name, start and tags, never the points after it.
    /// `validBytes` is the length up to the end of the last intact point.
    package static func parse(_ bytes: [UInt8]) -> Parsed? {
        guard bytes.count >= 2, bytes[0] == RecordLog.sync[0], bytes[1] == RecordLog.sync[1] else {
            return parse(String(decoding: bytes, as: UTF8.self))
        }
        let log = RecordLog.parseSkipping(bytes)
        var header = (name: "", started: 0.0, tags: [String](), extra: Extra())
        var points: [TrackPoint] = []
        var photos: [TrackPhoto] = []
        var headerDamaged = true
        var skipped = (log.skippedBytes > 0 ? 1 : 0) + (log.validBytes < bytes.count ? 1 : 0)
        for (index, record) in log.records.enumerated() {
            let text = Substring(String(decoding: record, as: UTF8.self))
            if index == 0 && text.hasPrefix(recordMagic) {
                header = headerFields(text)
                headerDamaged = false
            } else if let point = point(text) {
                points.append(point)
            } else if text.hasPrefix(photoMark), let photo = photo(text) {
                photos.append(photo)
            } else {
                skipped += 1
            }
        }
        return (header.name, header.started, header.tags, points, skipped, log.validBytes, headerDamaged, header.extra, photos)
    }

    static func checksum(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let digits = Array("0123456789ABCDEF")
        return String(digits[Int(sum >> 4)]) + String(digits[Int(sum & 15)])
    }

    /// A track of version 1 (text lines); torn or corrupt lines are skipped and counted.
    package static func parse(_ text: String) -> Parsed? {
        guard !text.isEmpty else { return nil }
        var header = (name: "", started: 0.0, tags: [String](), extra: Extra())
        var points: [TrackPoint] = []
        var skipped = 0, offset = 0, valid = 0
        var first = true, headerDamaged = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let length = raw.utf8.count + 1
            defer { offset += length }
            // The last piece has no newline after it: a line still being written when the power went.
            guard offset + length <= text.utf8.count else {
                if !raw.isEmpty { skipped += 1 }
                continue
            }
            if first {
                first = false
                if raw.hasPrefix(magic) {
                    header = headerFields(raw)
                    valid = offset + length
                    continue
                }
                headerDamaged = true  // read as a point (it may be one, with the header lost before it)
            }
            guard let star = raw.lastIndex(of: "*"), checksum(String(raw[..<star])) == raw[raw.index(after: star)...],
                let point = point(raw[..<star])
            else {
                skipped += 1
                continue
            }
            points.append(point)
            valid = offset + length
        }
        return first ? nil : (header.name, header.started, header.tags, points, skipped, valid, headerDamaged, header.extra, [])
    }
}

/// The track being recorded: appends points durably and survives `kill -9` and power cuts.
package final class TrackRecording {
    package let path: String
    package let name: String
    package let started: Double
    package let tags: [String]
    /// The interval mode, notes and origin the header keeps.
    package let extra: TrackFile.Extra
    private var fd: Int32
    private var lastSync: MonotonicNanoseconds = 0
    package private(set) var points: [TrackPoint]
    /// The photos taken while recording, in their records among the points.
    package private(set) var photos: [TrackPhoto] = []
    /// Points kept in memory that could not be written yet (the newest ones), and why the
    /// last write failed (an errno; 0 when writing works). They are written as soon as the
    /// disk takes them again.
    package private(set) var unwritten = 0
    package private(set) var writeError: Int32 = 0
    /// Whether `points` keeps every point (a live recording's screens draw them); an import
    /// keeps only those not written yet, so what it holds does not grow with the track.
    private let keepsPoints: Bool

    /// Starts a new recording at `path` (which must not exist); nil with errno set when the
    /// file cannot be created or its header written (a full disk).
    package init?(
        path: String, name: String, started: Double, tags: [String] = [], extra: TrackFile.Extra = TrackFile.Extra(), keepsPoints: Bool = true
    ) {
        let fd: Int32
        do { fd = try GuardedOpen.store(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND) } catch {
            // Said by the caller through errno: a link or a foreign file in its place is EPERM.
            errno = error.found != nil ? EPERM : error.errno
            return nil
        }
        let header = RecordLog.framed(Array(TrackFile.header(name: name, started: started, tags: tags, extra: extra).utf8))
        let failure = header.withUnsafeBytes { writeWhole(fd, $0, path: path) }
        if failure == 0 { CrashPoint.step("fsync") }
        guard failure == 0, fsync(fd) == 0 else {
            let code = failure != 0 ? failure : errno
            close(fd)
            unlink(path)
            errno = code
            return nil
        }
        self.fd = fd
        self.path = path
        self.name = name
        self.started = started
        self.tags = tags
        self.extra = extra
        self.keepsPoints = keepsPoints
        points = []
    }

    /// Reopens a recording left behind by a crash: keeps every complete point, cuts off a torn
    /// last frame, and continues appending. One left in the text form of version 1 is first
    /// rewritten as records (whole, then renamed over it).
    package init?(recovering path: String) {
        guard fileExists(path), let bytes = try? readStoreBytes(path), var parsed = TrackFile.parse(bytes) else { return nil }
        if bytes.first != RecordLog.sync[0] {
            var converted = RecordLog.framed(
                Array(
                    TrackFile.header(
                        name: parsed.name, started: parsed.started, tags: parsed.tags,
                        extra: parsed.extra
                    ).utf8))
            for point in parsed.points { converted += RecordLog.framed(Array(TrackFile.body(point).utf8)) }
            guard writeFileAtomically(path, converted) else { return nil }
            parsed.validBytes = converted.count
        }
        guard let fd = try? GuardedOpen.store(path, O_WRONLY | O_APPEND) else { return nil }
        if ftruncate(fd, off_t(parsed.validBytes)) != 0 {
            close(fd)
            return nil
        }
        self.fd = fd
        self.path = path
        name = parsed.name
        started = parsed.started
        tags = parsed.tags
        extra = parsed.extra
        points = parsed.points
        photos = parsed.photos
        keepsPoints = true
    }

    deinit { close(fd) }

    /// Appends a point; flushed to the disk within a second. When the disk refuses (full,
    /// failing), the point is kept in memory with every one before it not yet written, the
    /// file is cut back to its last whole line, and they are all written with the next point
    /// the disk takes.
    package func append(_ point: TrackPoint, now: MonotonicNanoseconds) {
        points.append(point)
        unwritten += 1
        guard writeBacklog() else { return }
        if now &- lastSync >= 1_000_000_000 || writeError != 0 {
            CrashPoint.step("fsync")
            writeError = fsync(fd) == 0 ? 0 : errno
            lastSync = now
        }
    }

    func sync() {
        CrashPoint.step("fsync")
        fsync(fd)
    }

    /// Files a photo with the track: its record goes after the points written so far (those
    /// the disk refused first). False when the disk refuses it.
    package func append(_ photo: TrackPhoto) -> Bool {
        guard writeBacklog() else { return false }
        let frame = RecordLog.framed(Array(TrackFile.photoRecord(photo).utf8))
        guard frame.withUnsafeBytes({ writeWhole(fd, $0, path: path) }) == 0 else { return false }
        CrashPoint.step("fsync")
        guard fsync(fd) == 0 else { return false }
        photos.append(photo)
        return true
    }

    /// Writes whatever the disk refused before and flushes; true when everything is on the disk.
    package func flush() -> Bool {
        guard writeBacklog() else { return false }
        CrashPoint.step("fsync")
        guard fsync(fd) == 0 else {
            writeError = errno
            return false
        }
        writeError = 0
        return true
    }

    /// Writes the points not yet on the disk; on failure cuts the file back to its last whole
    /// frame (so the next write does not continue a torn one) and keeps them.
    private func writeBacklog() -> Bool {
        guard unwritten > 0 else { return true }
        let end = lseek(fd, 0, SEEK_END)
        var frames: [UInt8] = []
        for point in points.suffix(unwritten) { frames += RecordLog.framed(Array(TrackFile.body(point).utf8)) }
        let failure = frames.withUnsafeBytes { writeWhole(fd, $0, path: path) }
        guard failure == 0 else {
            writeError = failure
            if end >= 0 { _ = ftruncate(fd, end) }
            return false
        }
        unwritten = 0
        if !keepsPoints { points.removeAll(keepingCapacity: true) }
        return true
    }
}

extension String {
    /// Without the line's end ("\n", "\r\n").
    var trimmingNewline: String {
        var text = self
        while text.last == "\n" || text.last == "\r" || text.last == "\r\n" { text.removeLast() }
        return text
    }
}
