// Coverage-guided fuzz targets (libFuzzer). One binary holds them all; FUZZ_TARGET picks the
package  // one to run (scripts/fuzz builds and runs them). Each feeds the bytes to a reader of outside
    // input exactly as the program does; any trap, overflow or sanitizer report is a crash.
    import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneDevices
import LodestoneSim
import LodestoneDomain
import LodestoneOutputs
import LodestoneSettings
import LodestoneStorage
import LodestoneBoard

enum FuzzTarget: String, CaseIterable {
    case nmea, json, tle, timezone, recordlog, gpx, track, timetable, zip, w1, csv, backup, board, config, http, recording, manifest
}

/// A bus that is never used: it only names the drivers' generic parameter, to read their chip
/// lists (what `SupportedChips` gives the program).
final class UnusedBus: I2CBus {
    func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {}
}

let boardChips: [ChipInfo] =
    MPU6050<UnusedBus>.chips + MPU9250<UnusedBus>.chips + LSM6DS<UnusedBus>.chips
    + QMC5883L<UnusedBus>.chips + HMC5883L<UnusedBus>.chips + LIS3MDL<UnusedBus>.chips + AK8963<UnusedBus>.chips
    + BMP280<UnusedBus>.chips + BMP3<UnusedBus>.chips + LPS22HB<UnusedBus>.chips + MS5611<UnusedBus>.chips

let selectedTarget: FuzzTarget = {
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        fputs("set FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n", stderr)
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    switch selectedTarget {
    case .nmea:
        // The framer over the raw serial bytes, every sentence it frames through the parser.
        var framer = NMEAFramer()
        var parser = NMEAParser()
        var received: MonotonicNanoseconds = 1
        bytes.withUnsafeBytes { raw in
            framer.feed(raw) { sentence in
                received += 100_000_000
                if let fix = parser.parse(sentence, received: received) { _ = fix.utc.map { CivilTime(unixSeconds: $0).iso8601 } }
            }
        }
    case .http:
        // The web server's request parser over what a connection received, request by request,
        // and each answer's bytes as the server would write them.
        var rest = bytes[...]
        while true {
            switch HTTPRequestParser.parse(rest) {
            case .request(let request, let consumed):
                if consumed <= 0 || consumed > rest.count { fatalError("the parser took \(consumed) of \(rest.count) bytes") }
                _ = request.keepAlive
                _ = request.cookie("lodestone")
                _ = HTTPResponse.text(200, request.path).serialized(keepAlive: request.keepAlive)
                rest = rest.dropFirst(consumed)
                continue
            case .refused(let status, let reason):
                _ = HTTPResponse.text(status, reason).serialized(keepAlive: false)
            case .incomplete:
                break
            }
            break
        }
    case .json:
        // Configuration, board files and socket requests all go through this parser.
        if let value = try? JSONValue.parse(text) {
            _ = value["name"]?.stringValue
            _ = value.numberValue.flatMap { Int(whole: $0) }
        }
    case .tle:
        _ = TwoLineElements.all(in: text)
    case .timezone:
        _ = TimeZoneRules.parse(bytes)
    case .recordlog:
        _ = RecordLog.parse(bytes)
    case .gpx:
        // Waypoint import, and the streamed reader of track import: the bytes read whole and
        // in pieces of a size the input picks give the same events or the same refusal.
        _ = try? GPXReader.waypoints(text)
        let size = Int(bytes.last ?? 0) % 17 + 1
        let whole = gpxEvents(bytes, piece: max(bytes.count, 1)), pieces = gpxEvents(bytes, piece: size)
        if whole != pieces { fatalError("the GPX reader read pieces of \(size) differently:\n\(whole)\n\(pieces)") }
    case .track:
        _ = TrackFile.parse(bytes)
    case .timetable:
        // A timetable index with its checksums not compared (a hostile file can carry right
        // ones): opened, then asked as departures, a search and the nearest stop ask it.
        if let timetable = try? TimetableIndex.decode(bytes, verifying: false) {
            for stop in timetable.stops.indices.prefix(4) { _ = timetable.departures(from: stop, after: 1_785_000_000, count: 3) }
            _ = timetable.stops(matching: "a b")
            _ = (timetable.stops.prefix(4).map(\.name), timetable.trips.prefix(4).map(\.headsign), timetable.routes.prefix(4).map(\.id))
            _ = timetable.stops.indices.prefix(4).map { timetable.position(of: $0) }
        }
    case .zip:
        // A feed's zip: the directory, then each entry inflated within a bomb's limit.
        if let archive = try? ZipArchive(bytes) {
            for entry in archive.entries.prefix(4) { _ = try? archive.contents(entry, limit: 1 << 20) }
        }
        _ = try? Inflate.raw(bytes[...], limit: 1 << 20)
    case .csv:
        // The streamed CSV reader of a feed's files: the bytes read whole and in pieces of a
        // size the input picks give the same rows or the same refusal (a record, a quote or a
        // byte-order mark cut at a piece's edge reads as if it were not); each field then
        // through the checks of times, dates and zone names.
        let size = Int(bytes.last ?? 0) % 13 + 1
        let whole = csvRows(bytes, piece: max(bytes.count, 1)), pieces = csvRows(bytes, piece: size)
        if whole.text != pieces.text { fatalError("the CSV reader read pieces of \(size) differently:\n\(whole.text)\n\(pieces.text)") }
        for field in whole.fields.prefix(64) {
            _ = GTFSImport.seconds(field)
            _ = GTFSImport.date(field)
            _ = GTFSImport.ZoneCheck.isZoneName(field)
        }
    case .w1:
        // What the kernel's w1 driver shows of a DS18B20, both files.
        _ = DS18B20.parseSlave(text)
        _ = DS18B20.parseTemperature(text)
    case .backup:
        // An archive given to import-all: its entries, its manifest checked against them, each
        // file read back as the restore reads it; and the bytes as a manifest on their own.
        if let backup = try? CheckedBackup(ArchiveBytes(bytes)) {
            for (entry, file) in backup.files.prefix(4) { _ = try? backup.contents(entry, file) }
        }
        _ = try? BackupManifest.parse(bytes)
    case .recording:
        // A recording's header record (its JSON text), checked as every reader of recordings
        // checks it, then used as `recording info` and `replay` use it: the start as a date,
        // the board file and the configuration it carries read back.
        if let header = try? RecordingHeader.parse(bytes, file: "walk.rec") {
            if let start = header["startUTC"]?.numberValue { _ = TimeZoneRules.utc.iso8601(start) }
            if let board = header["board"]?["text"]?.stringValue { _ = try? BoardDescription.parse(board, file: "board", chips: boardChips) }
            if let object = header["configuration"] {
                var configuration = Configuration()
                try? configuration.load(text: object.serialized, file: "the recording's configuration")
            }
        }
    case .manifest:
        // A backup's manifest on its own, as import-all reads it first: the files of one it
        // accepts are written back and read again the same (its counts are free-form keys,
        // which a hostile file can make collide with the fixed ones, so only the files).
        if let manifest = try? BackupManifest.parse(bytes), let again = try? BackupManifest.parse(Array(manifest.json.utf8)),
            again.files != manifest.files
        {
            fatalError("a manifest's files read back differently after writing them")
        }
    case .board:
        // A board file's text, read as `--board FILE` reads it.
        if let board = try? BoardDescription.parse(text, file: "board.json", chips: boardChips) {
            _ = board.imu.map { board.bus(of: $0) }
        }
    case .config:
        // A configuration file's text, read over the defaults as `run --config FILE` and a
        // SIGHUP read it, then checked as a whole; a refusal must name the file.
        var configuration = Configuration()
        do {
            try configuration.load(text: text, file: "lodestone.json")
            try configuration.validate(file: "lodestone.json")
        } catch {
            if error.file != "lodestone.json" { fatalError("a configuration error that does not name its file: \(error)") }
            _ = error.description
        }
    }
    return 0
}

/// The events the GPX reader makes of `bytes` fed `piece` bytes at a time (text joined, as a
/// run of text may come in parts), or its refusal, as text.
func gpxEvents(_ bytes: [UInt8], piece: Int) -> String {
    var scanner = GPXScanner()
    var events: [String] = []
    let handle = { (event: GPXReader.Event) throws(GPXReader.Failure) -> Void in
        switch event {
        case .text(let text):
            if let last = events.last, last.hasPrefix("text ") { events[events.count - 1] = last + text } else { events.append("text " + text) }
        case .open(let name, let attributes, let selfClosing, let line):
            events.append("open \(name) \(attributes.sorted { $0.key < $1.key }) \(selfClosing) \(line)")
        case .close(let name, let line): events.append("close \(name) \(line)")
        }
    }
    do {
        try scanner.scan(bytes, inPiecesOf: piece, handle)
    } catch {
        events.append("refused: " + error.description)
    }
    return events.joined(separator: "\n")
}

/// What the CSV reader makes of `bytes` fed `piece` bytes at a time: its rows (or its refusal)
/// as text, and the fields it read.
func csvRows(_ bytes: [UInt8], piece: Int) -> (text: String, fields: [String]) {
    var reader = CSVReader(file: "f.txt", required: [])
    var text = "", fields: [String] = []
    let each = { (row: CSVReader.Row) throws(CSVReader.Failure) -> Void in
        text += "\(row.line):" + row.fields.joined(separator: "\u{1}") + "\n"
        fields += row.fields
    }
    do {
        var at = 0
        while at < bytes.count {
            let end = min(at + piece, bytes.count)
            try reader.feed(bytes[at..<end], each: each)
            at = end
        }
        try reader.finish(each: each)
        text += "columns " + reader.columns.index.sorted { $0.value < $1.value }.map(\.key).joined(separator: "\u{1}")
    } catch {
        text += "refused: " + error.description
    }
    return (text, fields)
}
