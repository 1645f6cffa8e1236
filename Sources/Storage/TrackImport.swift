import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Tracks brought in from files: GPX 1.0 and 1.1 from any app (every `<trk>`, its segments,
/// elevations and times) and the JSON `track export --format json` writes (one track, or a
/// list of them). Every point is checked; the first one wrong refuses the whole file with its
/// line (GPX) or its place (JSON), so nothing is half added. A track whose points lack times
/// keeps its shape and says it has none.
public enum TrackImport {
    public struct Track: Sendable {
        public var name: String
        public var notes: String
        public var points: [TrackPoint]
        /// The file gave no times (or not for every point): the shape only.
        public var timeless: Bool
        /// What was changed to keep it (a name cut to length, control characters removed), in words.
        public var warnings: [String] = []
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The tracks of a GPX or JSON file's text, by its first character.
    public static func tracks(_ text: String) throws(Failure) -> [Track] {
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first
        return start == "{" || start == "[" ? try json(text) : try gpx(text)
    }

    /// The tracks of a GPX or JSON file, by its first character; a file larger than `limit`
    /// bytes is refused before it is read. GPX is read in pieces as it is parsed, so what the
    /// import holds is the points, never the file. `progress`: bytes read, and the file's size.
    public static func tracks(file path: String, limit: Int, progress: ((_ read: Int, _ size: Int) -> Void)? = nil) throws(Failure) -> [Track] {
        let collector = Collector()
        try read(file: path, limit: limit, into: collector, progress: progress)
        return collector.tracks
    }

    /// Reads a GPX or JSON file (by its first character) into `receiver`, track by track and
    /// point by point; a file larger than `limit` bytes is refused before it is read. GPX is
    /// read in pieces as it is parsed and each point handed on as it is read, so nothing here
    /// holds the file or its points. `progress`: bytes read, and the file's size.
    static func read(
        file path: String, limit: Int, into receiver: some TrackImportReceiver, progress: ((_ read: Int, _ size: Int) -> Void)? = nil
    ) throws(Failure) {
        let fd: Int32
        do { fd = try GuardedOpen.input(path) } catch { throw Failure(description: error.description) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        let size = Int(status.st_size)
        func tooLarge(_ bytes: Int) -> Failure {
            Failure(
                description: "it is \(DecimalText.compact(Double(bytes) / 1e6, 1)) MB, more than tracks.importMaxMB allows "
                    + "(\(DecimalText.compact(Double(limit) / 1e6, 1)) MB): raise that setting to import it")
        }
        guard size <= limit else { throw tooLarge(size) }
        var piece = [UInt8](repeating: 0, count: 64 << 10)
        var done = 0
        func next() throws(Failure) -> ArraySlice<UInt8>? {
            while true {
                let count = piece.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
                if count == 0 { return nil }
                done += count
                // A file that grows while it is read is held to the same limit.
                guard done <= limit else { throw tooLarge(done) }
                progress?(done, max(size, done))
                return piece[0..<count]
            }
        }
        guard let first = try next() else { throw Failure(description: "the file is empty") }
        let start = first.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if start == UInt8(ascii: "{") || start == UInt8(ascii: "[") {
            // JSON is read whole (it is what `track export --format json` wrote), within the limit.
            var bytes = Array(first)
            while let more = try next() { bytes += more }
            for track in try json(String(decoding: bytes, as: UTF8.self)) { try hand(track, to: receiver) }
            return
        }
        var pending: ArraySlice<UInt8>? = first
        try gpx(
            reading: { () throws(Failure) -> ArraySlice<UInt8>? in
                if let given = pending {
                    pending = nil
                    return given
                }
                return try next()
            }, into: receiver)
    }

    /// Hands a track read whole (JSON's) on to `receiver` as a streamed one is.
    static func hand(_ track: Track, to receiver: some TrackImportReceiver) throws(Failure) {
        for point in track.points {
            var given = point
            if track.timeless { given.time = .nan }
            try receiver.point(given, hasTime: !track.timeless, name: track.name, notes: track.notes)
        }
        try receiver.end(name: track.name, notes: track.notes, timeless: track.timeless, warnings: track.warnings)
    }

    /// The tracks of the whole GPX text.
    public static func gpx(_ text: String) throws(Failure) -> [Track] {
        var whole: ArraySlice<UInt8>? = Array(text.utf8)[...]
        let collector = Collector()
        try gpx(
            reading: { () throws(Failure) -> ArraySlice<UInt8>? in
                defer { whole = nil }
                return whole
            }, into: collector)
        return collector.tracks
    }

    /// Reads a GPX file a piece at a time into `receiver`: `next` gives the next piece of its
    /// bytes, nil at the end. Each point is handed on as soon as it is read and checked, and
    /// each track's end once its times are checked (running forward, or none) and its name and
    /// notes made fit to keep; nothing here holds the file or the points.
    static func gpx(reading next: () throws(Failure) -> ArraySlice<UInt8>?, into receiver: some TrackImportReceiver) throws(Failure) {
        // The track being read: its name and notes so far, its points handed on, whether every
        // one had a time, where its times first went backwards, and the last point's time.
        var track: (name: String, notes: String, count: Int, timed: Bool, back: Int?, last: Double)?
        var tracks = 0
        var newSegment = false
        var point: (TrackPoint, hasTime: Bool, line: Int)?
        var field: String?, value = ""
        do {
            var scanner = GPXScanner()
            let handle = { (event: GPXReader.Event) throws(GPXReader.Failure) -> Void in
                switch event {
                case .text(let text): if field != nil { value += text }
                case .open(let name, let attributes, _, let line):
                    switch name {
                    case "trk": track = ("", "", 0, true, nil, .nan)
                    case "trkseg": newSegment = (track?.count ?? 0) > 0
                    case "trkpt":
                        guard track != nil else { return }
                        guard let latitude = attributes["lat"].flatMap(DecimalNumber.parse), abs(latitude) <= 90,
                            let longitude = attributes["lon"].flatMap(DecimalNumber.parse), abs(longitude) <= 180
                        else {
                            throw GPXReader.Failure(
                                description: "line \(line): a <trkpt> needs lat from -90 to 90 and lon from -180 to 180, "
                                    + "found lat=\"\(attributes["lat"] ?? "")\" lon=\"\(attributes["lon"] ?? "")\"")
                        }
                        var p = TrackPoint(time: .nan, latitude: latitude, longitude: longitude)
                        p.startsSegment = newSegment
                        newSegment = false
                        point = (p, false, line)
                    case "name", "desc", "ele", "time":
                        if track != nil { (field, value) = (name, "") }
                    default: break
                    }
                case .close(let name, let line):
                    let text = value.trimmedWhitespace
                    switch name {
                    case "trkpt":
                        if let done = point, var current = track {
                            if !done.hasTime {
                                current.timed = false
                            } else if current.timed {
                                // The first point whose time is before the one before it.
                                if current.back == nil, current.count > 0, done.0.time < current.last { current.back = current.count }
                                current.last = done.0.time
                            }
                            current.count += 1
                            track = current
                            do throws(Failure) {
                                try receiver.point(done.0, hasTime: done.hasTime, name: current.name, notes: current.notes)
                            } catch {
                                throw GPXReader.Failure(description: error.description)
                            }
                        }
                        point = nil
                    case "ele" where point != nil:
                        guard let metres = DecimalNumber.parse(text), abs(metres) < 100_000 else {
                            throw GPXReader.Failure(description: "line \(line): <ele> must be metres, found '\(text)'")
                        }
                        point?.0.gpsAltitude = metres
                    case "time" where point != nil:
                        guard let time = CivilTime.parseISO8601(text), CivilTime.writableSeconds.contains(time) else {
                            throw GPXReader.Failure(description: "line \(line): <time> must be an ISO 8601 time, found '\(text)'")
                        }
                        point?.0.time = time
                        point?.hasTime = true
                    case "name" where point == nil: track?.name = text
                    case "desc" where point == nil: track?.notes = text
                    case "trk":
                        if let done = track, done.count > 0 {
                            let place = "line \(line)"
                            if done.timed, let back = done.back {
                                throw GPXReader.Failure(description: "\(place): the track's times go backwards at its point \(back + 1)")
                            }
                            let kept = cleaned(name: done.name, notes: done.notes, place: place)
                            tracks += 1
                            do throws(Failure) {
                                try receiver.end(name: kept.name, notes: kept.notes, timeless: !done.timed, warnings: kept.warnings)
                            } catch {
                                throw GPXReader.Failure(description: error.description)
                            }
                        }
                        track = nil
                    default: break
                    }
                    if field == name { field = nil }
                }
            }
            while let piece = try next() { try scanner.feed(piece, handle) }
            try scanner.finish(handle)
        } catch let failure as GPXReader.Failure {
            throw Failure(description: failure.description)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(error)")
        }
        guard tracks > 0 else {
            throw Failure(description: "no track points: the file has no <trk> with a <trkpt> (waypoints go in with 'lodestone waypoint import')")
        }
    }

    /// A track's name and notes made fit to keep (see `TrackImportText`), and what was changed, in words.
    static func cleaned(name: String, notes: String, place: String) -> (name: String, notes: String, warnings: [String]) {
        var warnings: [String] = []
        var kept = TrackImportText.kept(name, as: "name", of: place, longest: TrackImportText.longestName, keeping: [], warnings: &warnings)
        if kept.isEmpty { kept = "Imported track" }
        let notes = TrackImportText.kept(
            notes, as: "notes", of: place, longest: TrackImportText.longestNotes, keeping: ["\n", "\t"], warnings: &warnings)
        return (kept, notes, warnings)
    }

    /// A track as read: its times checked to run forward, or made up (a second apart, from
    /// 2000-01-01) when any point has none.
    static func finished(_ name: String, _ notes: String, _ read: [TrackPoint], timeless: Bool, where place: String) throws(GPXReader.Failure) -> Track {
        var points = read
        if timeless {
            for index in points.indices { points[index].time = 946_684_800 + Double(index) }
        } else if let back = points.indices.dropFirst().first(where: { points[$0].time < points[$0 - 1].time }) {
            throw GPXReader.Failure(description: "\(place): the track's times go backwards at its point \(back + 1)")
        }
        let kept = cleaned(name: name, notes: notes, place: place)
        return Track(name: kept.name, notes: kept.notes, points: points, timeless: timeless, warnings: kept.warnings)
    }

    public static func json(_ text: String) throws(Failure) -> [Track] {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw Failure(description: error.description) }
        let list = value.arrayValue ?? [value]
        var tracks: [Track] = []
        for (index, item) in list.enumerated() {
            let place = list.count > 1 ? "track \(index + 1)" : "the track"
            guard let points = item["points"]?.arrayValue else {
                throw Failure(description: "\(place): no \"points\" list (is it 'track export --format json' output?)")
            }
            var read: [TrackPoint] = []
            var timed = true
            for (number, p) in points.enumerated() {
                guard let latitude = p["lat"]?.numberValue, abs(latitude) <= 90, let longitude = p["lon"]?.numberValue, abs(longitude) <= 180 else {
                    throw Failure(description: "\(place), point \(number + 1): needs \"lat\" from -90 to 90 and \"lon\" from -180 to 180")
                }
                var point = TrackPoint(time: .nan, latitude: latitude, longitude: longitude)
                func metres(_ key: String) throws(Failure) -> Double {
                    guard let given = p[key], given != .null else { return .nan }
                    guard let figure = given.numberValue, abs(figure) < 100_000 else {
                        throw Failure(description: "\(place), point \(number + 1): \"\(key)\" must be a number")
                    }
                    return figure
                }
                point.gpsAltitude = try metres("gpsAltitude")
                if !point.gpsAltitude.isFinite { point.gpsAltitude = try metres("elevation") }
                point.baroAltitude = try metres("baroAltitude")
                point.pressure = try metres("pressure")
                point.speed = try metres("speed")
                point.accuracy = try metres("accuracy")
                point.startsSegment = p["startsSegment"]?.boolValue ?? false
                var hasTime = false
                if let given = p["time"]?.stringValue {
                    guard let time = CivilTime.parseISO8601(given), CivilTime.writableSeconds.contains(time) else {
                        throw Failure(description: "\(place), point \(number + 1): \"time\" must be an ISO 8601 time, found '\(given)'")
                    }
                    (point.time, hasTime) = (time, true)
                }
                read.append(point)
                if !hasTime { timed = false }
            }
            guard !read.isEmpty else { continue }
            do { tracks.append(try finished(item["name"]?.stringValue ?? "", item["notes"]?.stringValue ?? "", read, timeless: !timed, where: place)) } catch {
                throw Failure(description: error.description)
            }
        }
        guard !tracks.isEmpty else { throw Failure(description: "no track points in the file") }
        return tracks
    }
}

/// Where a track import hands what it reads, as it reads it: each track's points one at a
/// time, then the track's end. A reader holds no points of its own; the receiver decides what
/// it keeps (a list, for `TrackImport.tracks`; nothing but a file being written, for
/// `TrackStore.importTracks`).
protocol TrackImportReceiver: AnyObject {
    /// The next point of the track being read (its time NaN when it had none), with the
    /// track's name and notes as read so far (a GPX file may give them after its points).
    func point(_ point: TrackPoint, hasTime: Bool, name: String, notes: String) throws(TrackImport.Failure)
    /// The track whose points were handed on ends: its name and notes made fit to keep, whether
    /// it has no times (then any given are not kept), and what was changed to keep it.
    func end(name: String, notes: String, timeless: Bool, warnings: [String]) throws(TrackImport.Failure)
}

extension TrackImport {
    /// Keeps the tracks as lists of points (what `tracks` answers). A track without times gets
    /// made-up ones, a second apart, from 2000-01-01.
    final class Collector: TrackImportReceiver {
        var tracks: [Track] = []
        private var points: [TrackPoint] = []

        func point(_ point: TrackPoint, hasTime: Bool, name: String, notes: String) {
            points.append(point)
        }

        func end(name: String, notes: String, timeless: Bool, warnings: [String]) {
            if timeless { for index in points.indices { points[index].time = 946_684_800 + Double(index) } }
            tracks.append(Track(name: name, notes: notes, points: points, timeless: timeless, warnings: warnings))
            points = []
        }
    }
}
