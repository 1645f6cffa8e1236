import LodestoneCore
import LodestoneEncoding

/// The first file of a backup, `manifest.json`: who wrote it, when, what it counts, and every
/// other file's path, size and SHA-256. SHA-256 rather than CRC-32 because a person can check
/// an unpacked backup with `sha256sum` (the digests are in its form), and because the digest
/// also holds against damage made on purpose to pass a 32-bit check; hashing costs about as
/// much as reading the card.
public struct BackupManifest: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var sha256: String
        public init(path: String, size: Int, sha256: String) {
            (self.path, self.size, self.sha256) = (path, size, sha256)
        }
    }

    public static let name = "manifest.json"
    public static let format = "lodestone-backup"
    public static let version = 1
    /// The most a manifest may take (bytes): some hundred thousand files.
    public static let largest = 32 << 20

    public var created: String
    public var by: String
    public var withTimetable: Bool
    /// What the archive holds, counted for a person (tracks, waypoints...), in order.
    public var counts: [(String, Int)]
    public var files: [File]

    public init(created: String, by: String, withTimetable: Bool, counts: [(String, Int)], files: [File]) {
        (self.created, self.by, self.withTimetable, self.counts, self.files) = (created, by, withTimetable, counts, files)
    }

    public static func == (a: BackupManifest, b: BackupManifest) -> Bool {
        a.created == b.created && a.by == b.by && a.withTimetable == b.withTimetable && a.files == b.files
            && a.counts.map(\.0) == b.counts.map(\.0) && a.counts.map(\.1) == b.counts.map(\.1)
    }

    public var json: String {
        var w = JSONObjectWriter()
        w.string("format", Self.format)
        w.integer("version", Self.version)
        w.string("created", created)
        w.string("by", by)
        w.bool("withTimetable", withTimetable)
        for (key, count) in counts { w.integer(key, count) }
        // One file a line: readable, and a diff of two backups shows what changed.
        w.raw(
            "files",
            files.isEmpty
                ? "[]"
                : "[\n"
                    + files.map { file in
                        var f = JSONObjectWriter()
                        f.string("path", file.path)
                        f.integer("size", file.size)
                        f.string("sha256", file.sha256)
                        return f.finished
                    }.joined(separator: ",\n") + "\n]")
        return w.finished + "\n"
    }

    /// Reads a manifest, holding every field to what a backup can hold: a path a store keeps
    /// (none reaching out of the data directory), a size within the store's largest file, a
    /// digest of 64 hex digits, each path once.
    public static func parse(_ bytes: [UInt8]) throws(TarReader.Damage) -> BackupManifest {
        let root: JSONValue
        do { root = try JSONValue.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw TarReader.Damage("its manifest is not JSON (\(error))")
        }
        guard root["format"]?.stringValue == format else { throw TarReader.Damage("its manifest is not a Lodestone backup's (no \"format\":\"\(format)\")") }
        guard let version = root["version"]?.numberValue, version == Double(Self.version) else {
            throw TarReader.Damage("its manifest is of a version this lodestone does not read (it reads version \(Self.version))")
        }
        guard let items = root["files"]?.arrayValue else { throw TarReader.Damage("its manifest has no file list") }
        var files: [File] = []
        var seen = Set<String>()
        let withTimetable = root["withTimetable"]?.boolValue ?? false
        for item in items {
            guard let path = item["path"]?.stringValue else { throw TarReader.Damage("its manifest lists a file without a path") }
            guard let store = BackupStores.locate(path)?.store else {
                throw TarReader.Damage("its manifest lists \(path), which is no file a backup holds (or reaches out of the data directory)")
            }
            guard !store.optional || withTimetable else { throw TarReader.Damage("its manifest lists \(path) but says it holds no timetable") }
            guard let sizeValue = item["size"]?.numberValue, let size = Int(whole: sizeValue, in: 0...store.largestFile) else {
                throw TarReader.Damage("its manifest gives \(path) a size that is not a whole number from 0 to \(store.largestFile) bytes")
            }
            guard let digest = item["sha256"]?.stringValue, digest.utf8.count == 64,
                digest.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
            else {
                throw TarReader.Damage("its manifest gives \(path) no SHA-256 (64 lowercase hex digits)")
            }
            guard seen.insert(path).inserted else { throw TarReader.Damage("its manifest lists \(path) twice") }
            files.append(File(path: path, size: size, sha256: digest))
        }
        var counts: [(String, Int)] = []
        if case .object(let members) = root {
            for (key, value) in members where value.numberValue != nil && !["version"].contains(key) {
                if let number = value.numberValue, let count = Int(whole: number, in: 0...Int(Int32.max)) { counts.append((key, count)) }
            }
        }
        return BackupManifest(
            created: root["created"]?.stringValue ?? "", by: root["by"]?.stringValue ?? "", withTimetable: withTimetable,
            counts: counts, files: files)
    }
}

/// An archive checked whole against its manifest: every file listed is there once with its size
/// and digest, nothing else is, and every path belongs to a store. Only then may anything be
/// restored from it.
public struct CheckedBackup {
    public let manifest: BackupManifest
    /// The files after the manifest, in archive order, each with its manifest line.
    public let files: [(entry: TarReader.Entry, file: BackupManifest.File)]
    public let source: any ArchiveSource

    public init(_ source: any ArchiveSource) throws(TarReader.Damage) {
        let entries = try TarReader.entries(source)
        guard let first = entries.first, first.name == BackupManifest.name else {
            throw TarReader.Damage("it does not begin with \(BackupManifest.name): it is not a backup 'lodestone export-all' wrote, or it was repacked")
        }
        guard first.size <= BackupManifest.largest, let manifestBytes = source.read(at: first.offset, count: first.size) else {
            throw TarReader.Damage("its manifest is larger than \(BackupManifest.largest >> 20) MiB or cannot be read")
        }
        let manifest = try BackupManifest.parse(manifestBytes)
        var listed: [String: BackupManifest.File] = [:]
        for file in manifest.files { listed[file.path] = file }
        var files: [(entry: TarReader.Entry, file: BackupManifest.File)] = []
        for entry in entries.dropFirst() {
            guard let file = listed.removeValue(forKey: entry.name) else {
                throw TarReader.Damage("\(entry.name) is in the archive but not in its manifest")
            }
            guard entry.size == file.size else {
                throw TarReader.Damage("\(entry.name) holds \(entry.size) bytes where the manifest says \(file.size)")
            }
            guard try TarReader.digest(of: entry, in: source) == file.sha256 else {
                throw TarReader.Damage("\(entry.name) does not match its SHA-256 in the manifest: the archive is damaged")
            }
            files.append((entry, file))
        }
        if let missing = manifest.files.first(where: { listed[$0.path] != nil }) {
            throw TarReader.Damage("\(missing.path) is in the manifest but missing from the archive")
        }
        self.manifest = manifest
        self.files = files
        self.source = source
    }

    /// A file's bytes, read again and checked again against the manifest (the archive is one
    /// open file, but the disk under it may still fail).
    public func contents(_ entry: TarReader.Entry, _ file: BackupManifest.File) throws(TarReader.Damage) -> [UInt8] {
        guard let bytes = source.read(at: entry.offset, count: entry.size), SHA256.hex(bytes) == file.sha256 else {
            throw TarReader.Damage("\(entry.name) could no longer be read whole from the archive")
        }
        return bytes
    }
}
