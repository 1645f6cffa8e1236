import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Tracks under `<dataDir>/tracks/`: `recording.track` while one is recorded, then
/// `<id>.track` with a `<id>.json` summary beside it (so listing reads summaries, not points).
/// An id is the start time as YYYYMMDD-HHMMSS.
public struct TrackStore: Sendable {
    public struct Summary: Sendable, Equatable {
        public var id: String
        public var name: String
        public var started: Double
        public var distance: Double
        public var movingTime: Double
        public var elevationGain: Double
        public var points: Int
        public var tags: [String] = []
        /// The person's notes, written after the fact.
        public var notes = ""
        /// From the first point to the last, pauses included.
        public var totalTime = 0.0
        /// Kept on the device: never published by MQTT, left out of exports unless asked.
        public var isPrivate = false
        /// Brought in from a file that had no times: its shape only.
        public var timeless = false

        /// Seconds per kilometre while moving (0 before any distance).
        public var pace: Double { distance > 0 ? movingTime / (distance / 1000) : 0 }
    }

    /// How `list` orders its answer: `date` (newest first), `distance` (longest first),
    /// `duration` (longest first), `pace` (fastest first), `name`; and the older words
    /// `newest`, `oldest`, `longest`, `shortest`.
    public enum Order: String, CaseIterable, Sendable {
        case date, distance, duration, pace, name, newest, oldest, longest, shortest
    }

    /// What `list` keeps: every given condition must hold.
    public struct Query: Sendable {
        /// Case-insensitive words, each found in the name, the id or a tag.
        public var text: String?
        public var tag: String?
        public var from: Double?
        public var to: Double?
        public var minimumDistance: Double?
        public var maximumDistance: Double?
        public var order = Order.newest

        public init(
            text: String? = nil, tag: String? = nil, from: Double? = nil, to: Double? = nil,
            minimumDistance: Double? = nil, maximumDistance: Double? = nil, order: Order = .newest
        ) {
            (self.text, self.tag, self.from, self.to) = (text, tag, from, to)
            (self.minimumDistance, self.maximumDistance, self.order) = (minimumDistance, maximumDistance, order)
        }

        func matches(_ s: Summary) -> Bool {
            if let from, s.started < from { return false }
            if let to, s.started >= to { return false }
            if let minimumDistance, s.distance < minimumDistance { return false }
            if let maximumDistance, s.distance > maximumDistance { return false }
            if let tag, !s.tags.contains(tag.lowercased()) { return false }
            guard let text else { return true }
            let haystack = ([s.name, s.id] + s.tags).joined(separator: " ").lowercased()
            return text.lowercased().split(separator: " ").allSatisfy { haystack.contains($0) }
        }

        func sort(_ list: inout [Summary]) {
            switch order {
            case .newest, .date: list.sort { $0.started > $1.started }
            case .distance: list.sort { $0.distance > $1.distance }
            case .duration: list.sort { $0.totalTime > $1.totalTime }
            // Tracks with no distance have no pace: last.
            case .pace: list.sort { ($0.pace > 0 ? $0.pace : .infinity) < ($1.pace > 0 ? $1.pace : .infinity) }
            case .oldest: list.sort { $0.started < $1.started }
            case .longest: list.sort { $0.distance > $1.distance }
            case .shortest: list.sort { $0.distance < $1.distance }
            case .name: list.sort { $0.name.lowercased() < $1.name.lowercased() }
            }
        }
    }

    public let directory: String
    /// The data directory the tracks are kept under (their photos are beside them).
    public let dataDirectory: String
    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
        directory = dataDirectory + "/tracks"
    }

    package var recordingPath: String { directory + "/recording.track" }

    package static func id(started: Double) -> String {
        CivilTime(unixSeconds: started).compactStamp
    }

    /// Files a finished recording under its id with its summary; returns the summary, or nil
    /// with the recording untouched (still `recording.track`) when it cannot: the summary is
    /// written first, and the points are moved under the id only once it is.
    @discardableResult
    package func file(_ recording: TrackRecording) -> Summary? {
        // The points as they are stored (figures rounded), so the summary says what `show`
        // and the exports will work out from the file.
        let stored = recording.points.map { TrackFile.stored($0) }
        return file(recording, statistics: TrackStatistics.of(stored))
    }

    /// Files a recording whose statistics were worked out as its points were written (an
    /// import, which does not keep them): `statistics` of the points as stored.
    package func file(_ recording: TrackRecording, statistics: TrackStatistics) -> Summary? {
        recording.sync()
        return file(
            path: recording.path, name: recording.name, started: recording.started, tags: recording.tags, extra: recording.extra,
            statistics: statistics)
    }

    /// Files the track written (and flushed) at `path` under its id with its summary, as `file`
    /// does a recording.
    func file(path: String, name: String, started: Double, tags: [String], extra: TrackFile.Extra, statistics: TrackStatistics) -> Summary? {
        // Two tracks started in the same second get "-2", "-3": link() never replaces a file,
        // so a second recording can never overwrite the first.
        let stamp = Self.id(started: started)
        for suffix in 1...1000 {
            let id = suffix == 1 ? stamp : stamp + "-\(suffix)"
            let summaryPath = directory + "/" + id + ".json", trackPath = directory + "/" + id + ".track"
            if fileExists(summaryPath) || fileExists(trackPath) { continue }
            let summary = Summary(
                id: id, name: name, started: started, distance: statistics.distance,
                movingTime: statistics.movingTime, elevationGain: statistics.elevationGain, points: statistics.points,
                tags: tags, notes: extra.notes, totalTime: statistics.totalTime,
                isPrivate: extra.isPrivate)
            guard writeFileAtomically(summaryPath, Array(Self.summaryJSON(summary, statistics: statistics, extra: extra).utf8)) else { return nil }
            guard link(path, trackPath) == 0 else {
                let taken = errno == EEXIST
                unlink(summaryPath)
                if taken { continue }
                return nil
            }
            unlink(path)
            return summary
        }
        return nil
    }

    /// A summary file's text: what `list` reads without the points.
    static func summaryJSON(_ summary: Summary, statistics: TrackStatistics, extra: TrackFile.Extra) -> String {
        var w = JSONObjectWriter()
        w.string("id", summary.id)
        w.string("name", summary.name)
        w.raw("tags", "[" + summary.tags.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
        w.number("started", summary.started, decimals: 0)
        if !summary.notes.isEmpty { w.string("notes", summary.notes) }
        if summary.isPrivate { w.bool("private", true) }
        if extra.imported { w.bool("imported", true) }
        if extra.timeless { w.bool("timeless", true) }
        w.raw("statistics", TrackExport.statisticsJSON(statistics, includeProfile: false))
        return w.finished + "\n"
    }

    /// The summaries matching the query, in its order.
    public func list(_ query: Query = Query()) -> [Summary] { listReporting(query).summaries }

    /// The summaries matching the query, and what was damaged: every stored track is listed,
    /// and one whose summary is missing or damaged gets it rebuilt from its points (said).
    public func listReporting(_ query: Query = Query()) -> (summaries: [Summary], warnings: [String]) {
        guard let dir = opendir(directory) else { return ([], []) }
        defer { closedir(dir) }
        var result: [Summary] = []
        var warnings: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json"), !fileExists(directory + "/" + name.dropLast(5) + ".track") {
                warnings.append("\(directory)/\(name) is a summary without its track (\(name.dropLast(5)).track): not listed")
            }
            // An import's temporary (`import-PID-N.track`, being written, or left by an import
            // that was stopped) is no stored track: an import files its tracks whole or not.
            guard name.hasSuffix(".track"), name != "recording.track", !name.hasPrefix("import-") else { continue }
            let id = String(name.dropLast(6))
            let summaryPath = directory + "/" + id + ".json"
            guard let text = try? readStoreText(summaryPath, limit: 1 << 20), let json = try? JSONValue.parse(text),
                json["id"]?.stringValue == id
            else {
                guard let track = loadReporting(id: id) else {
                    warnings.append("\(directory)/\(name): unreadable, and its summary is missing or damaged")
                    continue
                }
                let statistics = TrackStatistics.of(track.points)
                let started = track.points.first?.time ?? 0
                let summary = Summary(
                    id: id, name: track.name, started: started.isFinite ? started : 0, distance: statistics.distance,
                    movingTime: statistics.movingTime, elevationGain: statistics.elevationGain,
                    points: statistics.points, tags: [], totalTime: statistics.totalTime)
                warnings.append("\(summaryPath) is missing or damaged: the summary was rebuilt from the track's \(statistics.points) points")
                if query.matches(summary) { result.append(summary) }
                continue
            }
            let s = json["statistics"]
            let summary = Summary(
                id: id, name: json["name"]?.stringValue ?? "", started: json["started"]?.numberValue ?? 0,
                distance: s?["distance"]?.numberValue ?? 0, movingTime: s?["movingTime"]?.numberValue ?? 0,
                elevationGain: s?["elevationGain"]?.numberValue ?? 0, points: Int(whole: s?["points"]?.numberValue ?? 0, in: 0...Int(Int32.max)) ?? 0,
                tags: json["tags"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            var annotated = summary
            annotated.notes = json["notes"]?.stringValue ?? ""
            annotated.totalTime = s?["totalTime"]?.numberValue ?? 0
            annotated.isPrivate = json["private"]?.boolValue ?? false
            annotated.timeless = json["timeless"]?.boolValue ?? false
            if query.matches(annotated) { result.append(annotated) }
        }
        query.sort(&result)
        return (result, warnings)
    }

    /// A stored track's name and points.
    public func load(id: String) -> (name: String, points: [TrackPoint])? {
        loadReporting(id: id).map { ($0.name, $0.points) }
    }

    /// A stored track's name and points, and what damage was found reading it (nil when none):
    /// points torn or corrupt are skipped and counted, a damaged header loses only the name.
    public func loadReporting(id: String) -> (name: String, points: [TrackPoint], warning: String?)? {
        loadWithPhotos(id: id).map { ($0.name, $0.points, $0.warning) }
    }

    /// A stored track's name, points and photos, read once, and what damage was found.
    public func loadWithPhotos(id: String) -> (name: String, points: [TrackPoint], photos: [TrackPhoto], warning: String?)? {
        let path = directory + "/" + id + ".track"
        guard !id.contains("/"), fileExists(path), let bytes = try? readStoreBytes(path), bytes.count <= 256 << 20,
            let parsed = TrackFile.parse(bytes)
        else { return nil }
        var problems: [String] = []
        if parsed.headerDamaged { problems.append("its header is damaged (the name and start are lost)") }
        if parsed.skipped > 0 { problems.append("\(parsed.skipped) damaged or torn lines were skipped") }
        let warning = problems.isEmpty ? nil : "\(path): " + problems.joined(separator: "; ") + "; \(parsed.points.count) points kept"
        return (parsed.name, parsed.points, parsed.photos, warning)
    }

    /// The photos filed with a stored track.
    public func photos(id: String) -> [TrackPhoto] { loadWithPhotos(id: id)?.photos ?? [] }

    /// Whether a track of that id is stored.
    public func contains(id: String) -> Bool { !id.contains("/") && access(directory + "/" + id + ".track", F_OK) == 0 }

    /// Renames a stored track and sets its notes (nil leaves either as it is), in its summary;
    /// the points are not touched. A summary missing or damaged is rebuilt from the points first.
    public func edit(id: String, name: String?, notes: String?, isPrivate: Bool? = nil) throws(StorageError) -> Summary {
        guard contains(id: id) else { throw StorageError("no track '\(id)' in \(directory); see 'lodestone track list'") }
        let summaryPath = directory + "/" + id + ".json"
        guard var json = (try? readStoreText(summaryPath, limit: 1 << 20)).flatMap({ try? JSONValue.parse($0) }), case .object(var members) = json,
            json["id"]?.stringValue == id
        else {
            // Rebuild from the points, then edit.
            guard let track = loadReporting(id: id) else { throw StorageError("\(directory)/\(id).track cannot be read") }
            let statistics = TrackStatistics.of(track.points)
            let started = track.points.first?.time ?? 0
            let rebuilt = Summary(
                id: id, name: name ?? track.name, started: started.isFinite ? started : 0, distance: statistics.distance,
                movingTime: statistics.movingTime, elevationGain: statistics.elevationGain, points: statistics.points,
                notes: notes ?? "", totalTime: statistics.totalTime, isPrivate: isPrivate == true)
            let text = Self.summaryJSON(rebuilt, statistics: statistics, extra: TrackFile.Extra())
            guard writeFileAtomically(summaryPath, Array(text.utf8)) else { throw StorageError("cannot write \(summaryPath)") }
            return try summary(id: id)
        }
        func set(_ key: String, _ value: String) {
            if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = .string(value) } else { members.append((key, .string(value))) }
        }
        if let name { set("name", name) }
        if let notes { set("notes", notes) }
        if let isPrivate {
            members.removeAll { $0.0 == "private" }
            if isPrivate { members.append(("private", .bool(true))) }
        }
        json = .object(members)
        guard writeFileAtomically(summaryPath, Array((json.serialized + "\n").utf8)) else { throw StorageError("cannot write \(summaryPath)") }
        return try summary(id: id)
    }

    /// One stored track's summary.
    public func summary(id: String) throws(StorageError) -> Summary {
        guard let found = list().first(where: { $0.id == id }) else { throw StorageError("no track '\(id)' in \(directory)") }
        return found
    }

    public func delete(id: String) -> Bool {
        guard !id.contains("/"), unlink(directory + "/" + id + ".track") == 0 else { return false }
        unlink(directory + "/" + id + ".json")
        return true
    }

    /// The track in GPX, CSV or JSON; trimmed for sharing when `privacy` is given.
    /// `summary`: the track's summary when the caller has listed it already (an export of
    /// every track lists them once, not once per track).
    public func export(id: String, format: String, privacy: PrivacyTrim? = nil, summary: Summary? = nil) -> String? {
        loadWithPhotos(id: id).flatMap { export(id: id, loaded: $0, format: format, privacy: privacy, summary: summary) }
    }

    /// The export of a track already read.
    public func export(
        id: String, loaded: (name: String, points: [TrackPoint], photos: [TrackPhoto], warning: String?), format: String,
        privacy: PrivacyTrim?, summary known: Summary? = nil
    ) -> String? {
        var track = loaded
        // The name given after the fact (the summary's) over the one recorded.
        let summary = known ?? (try? self.summary(id: id))
        if let summary, !summary.name.isEmpty { track.name = summary.name }
        // Elevations come from the whole recording, so a trimmed export shows each point at the
        // same height as the full one. Statistics come from the kept points with their times
        // (durations and speeds say nothing about when); the points shown lose their times if asked.
        let all = TrackElevation.of(track.points)
        let pairs = zip(track.points, all).filter { privacy?.keeps($0.0) ?? true }
        var kept = pairs.map(\.0)
        let elevations = pairs.map(\.1)
        let statistics = TrackStatistics.of(kept, elevations: elevations)
        // A track imported without times has made-up ones: never exported.
        if privacy?.dropTimes == true || summary?.timeless == true { for i in kept.indices { kept[i].time = .nan } }
        // A shared export leaves out the photos taken inside the places it trims.
        let photos = track.photos.filter { privacy?.keeps($0) ?? true }
        switch format {
        case "gpx":
            return TrackExport.gpx(name: track.name, points: kept, elevations: elevations, notes: summary?.notes ?? "", photos: photos)
        case "csv": return TrackExport.csv(kept, elevations: elevations)
        case "json":
            return TrackExport.json(
                name: track.name, points: kept, statistics: statistics, elevations: elevations, notes: summary?.notes ?? "",
                photos: photos)
        default: return nil
        }
    }
}
