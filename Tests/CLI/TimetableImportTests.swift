import Glibc
import LodestoneCore
@testable import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneBench
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// The import is atomic and bounded: a kill at any instant leaves the old or the new
/// timetable, whole; a zip entry costs no more than its directory claims; the CSV is read row
/// by row with the same rows as when it was read whole.
@Suite struct TimetableImportTests {
    // MARK: Atomic replacement

    /// Two large feeds that answer differently at the hub (their trips pass it at other
    /// minutes); the import of one is killed at 20 instants spread over its run, and after
    /// each, `departures` answers from one whole timetable or the other, never from a mix or
    /// from none, and the killed import's leftovers are gone.
    @Test func aKilledImportLeavesTheOldOrTheNewTimetable() throws {
        let base = "/tmp/lodestone-tt-kill-\(getpid())"
        let feeds = [base + "-a", base + "-b"], data = base + "-data"
        defer { for path in feeds + [data] { removeTree(path) } }
        for path in feeds + [data] { removeTree(path) }
        #expect(SyntheticFeed(stops: 2000, stopTimes: 60_000, stopsPerTrip: 50).write(to: feeds[0]))
        #expect(SyntheticFeed(stops: 2000, stopTimes: 60_000, stopsPerTrip: 40).write(to: feeds[1]))
        let end = EndToEndTests()
        let ask = ["departures", "--stop", SyntheticFeed.busyStopID, "--at", "2026-03-16T07:00:00+01:00", "--count", "4", "--json", "--data-dir", data]
        func answer() throws -> (status: Int32, output: String) { end.finish(try end.spawn(ask)) }
        // Each feed imported whole once: its answer, and how long its import takes.
        var answers: [String] = [], durations: [Double] = []
        for feed in feeds {
            let start = SystemMonotonicClock().now()
            let (status, said) = end.finish(try end.spawn(["timetable", "import", feed, "--data-dir", data]))
            try #require(status == 0, "\(said)")
            durations.append(Double(SystemMonotonicClock().now() - start) / 1e9)
            let (asked, text) = try answer()
            try #require(asked == 0 && text.contains("\"departures\":[{"), "\(text)")
            answers.append(text)
        }
        try #require(answers[0] != answers[1], "the two feeds must answer differently")
        var current = 1
        var keptOld = 0, tookNew = 0
        for instant in 1...20 {
            let next = 1 - current
            let child = try end.spawn(["timetable", "import", feeds[next], "--data-dir", data])
            usleep(UInt32(durations[next] * Double(instant) / 20 * 1e6))
            kill(child.pid, SIGKILL)
            _ = end.finish(child)
            let (status, text) = try answer()
            let found = answers.firstIndex(of: text)
            #expect(status == 0 && found != nil, "instant \(instant)/20: \(text)")
            if found == next { tookNew += 1 } else { keptOld += 1 }
            current = found ?? current
            let leftovers = directoryEntries(data).filter { $0.hasPrefix("timetable.") }
            #expect(leftovers.isEmpty, "instant \(instant)/20: \(leftovers) left beside the timetable")
        }
        print("20 killed imports: the old timetable answered after \(keptOld), the new one after \(tookNew)")
    }

    /// A staging folder left by an import that died is removed when the store is next opened,
    /// and a timetable renamed aside by a swap cut short is put back.
    @Test func whatAKilledImportLeftIsTidiedAtTheNextStart() throws {
        let data = "/tmp/lodestone-tt-tidy-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(TimetableTests.timetable()))
        // A process id that has ended: a child that ran and was waited for.
        let end = EndToEndTests()
        let gone = try end.spawnProgram("/bin/true", [])
        _ = end.finish(gone)
        let staging = data + "/timetable.new-\(gone.pid)"
        #expect(makeDirectories(staging) && writeFileAtomically(staging + "/stops.txt", Array("half a feed".utf8)))
        let running = data + "/timetable.new-\(getppid())"
        #expect(makeDirectories(running))
        _ = TimetableStore(dataDirectory: data)
        #expect(!fileExists(staging), "the dead import's folder is removed")
        #expect(fileExists(running), "a live process's folder is left alone")
        removeTree(running)
        // Cut between the two renames of a file system that cannot exchange.
        let aside = data + "/timetable.old-\(gone.pid)"
        #expect(rename(data + "/timetable", aside) == 0)
        let store = TimetableStore(dataDirectory: data)
        #expect(store.exists && !fileExists(aside))
        #expect(try store.load().stops.map(\.id) == ["IW", "LB"])
    }

    // MARK: Bounded zip entries

    /// A zip of `entries` (name, bytes, the size its directory claims, deflated or stored).
    static func zip(_ entries: [(name: String, bytes: [UInt8], claimed: Int?, deflated: Bool)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [], directory: [UInt8] = []
        for entry in entries {
            let packed = entry.deflated ? Array(Deflate.zlib(entry.bytes).dropFirst(2).dropLast(4)) : entry.bytes
            let crc = Int(CRC32.checksum(entry.bytes)), name = Array(entry.name.utf8), size = entry.claimed ?? entry.bytes.count
            let fields = u16(20) + u16(0) + u16(entry.deflated ? 8 : 0) + u16(0) + u16(0) + u32(crc) + u32(packed.count) + u32(size) + u16(name.count) + u16(0)
            directory += u32(0x0201_4B50) + u16(20) + fields + u16(0) + u16(0) + u16(0) + u32(0) + u32(out.count) + name
            out += u32(0x0403_4B50) + fields + name + packed
        }
        return out + directory + u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count)
            + u32(directory.count) + u32(out.count) + u16(0)
    }

    /// 4 MB of stop times that vary (they compress about 10 times, a real feed's ratio).
    static let largeText: [UInt8] = {
        var text: [UInt8] = []
        var trip = 0
        while text.count < 4 << 20 {
            text += Array("T\(trip),\(trip % 24):\(zeroPadded(trip * 7 % 60, 2)):00,S\(trip * 31 % 9973),\(trip % 50)\n".utf8)
            trip += 1
        }
        return text
    }()

    /// The directory claims 10 bytes for a 4 MB entry: refused as soon as the inflating goes
    /// past 10 bytes, with no more than 10 handed on; before, the whole entry was inflated (up
    /// to 1 GiB) and only then found to differ.
    @Test func anEntryIsInflatedOnlyUpToTheSizeItsDirectoryClaims() throws {
        let archive = try ZipArchive(Self.zip([("stop_times.txt", Self.largeText, 10, true)]))
        let entry = try #require(archive.entry("stop_times.txt"))
        var handed = 0
        do {
            try archive.stream(entry, limit: 1 << 30) { piece in
                handed += piece.count
                return true
            }
            Issue.record("an entry longer than its directory claims was accepted")
        } catch {
            #expect(error.description.contains("inflates past the 10 bytes its directory claims"), "\(error.description)")
        }
        #expect(handed <= 10, "\(handed) bytes handed on")
        // The whole import refuses it the same way, naming the archive.
        let path = "/tmp/lodestone-tt-liar-\(getpid()).zip"
        defer { unlink(path) }
        let liar = GTFSValidationTests.sound.sorted { $0.key < $1.key }.map { file in
            (name: file.key, bytes: Array(file.value.utf8), claimed: file.key == "stop_times.txt" ? 10 : Int?.none, deflated: true)
        }
        #expect(writeFileAtomically(path, Self.zip(liar)))
        #expect(throws: GTFSImport.Failure.self) { try GTFSImport.read(path) }
    }

    /// An entry claiming more than 200 times its compressed size is refused before a byte is
    /// inflated (before, it was inflated up to the 1 GiB limit).
    @Test func aRatioBombIsRefused() throws {
        // The device's own compressor reaches about 150 times on zeros; the directory claims 201.
        let zeros = [UInt8](repeating: 0x30, count: 2 << 20)
        let compressed = Deflate.zlib(zeros).count - 6
        let archive = try ZipArchive(Self.zip([("stop_times.txt", zeros, 201 * compressed, true)]))
        let entry = try #require(archive.entry("stop_times.txt"))
        #expect(entry.size > 200 * entry.compressedSize, "the test's entry must be a bomb: \(entry.size) from \(entry.compressedSize)")
        var handed = 0
        do {
            try archive.stream(entry, limit: 1 << 30) { piece in
                handed += piece.count
                return true
            }
            Issue.record("a ratio bomb was inflated")
        } catch {
            #expect(error.description.contains("more than 200 times") && error.description.contains("bomb"), "\(error.description)")
        }
        #expect(handed == 0)
        // A sound entry of the same archive format streams whole, its CRC-32 checked.
        let sound = try ZipArchive(Self.zip([("stop_times.txt", Self.largeText, nil, true), ("agency.txt", Array("a,b\n".utf8), nil, false)]))
        let large = try #require(sound.entry("stop_times.txt")), small = try #require(sound.entry("agency.txt"))
        var pieces = 0, crc: UInt32 = 0
        try sound.stream(large, limit: 1 << 30) { piece in
            pieces += 1
            crc = piece.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
            return true
        }
        #expect(pieces > 4 && crc == CRC32.checksum(Self.largeText), "handed in \(pieces) pieces")
        #expect(try sound.contents(small, limit: 100) == Array("a,b\n".utf8))
    }

    // MARK: The streamed CSV reader

    /// The rows the reader gave when it read a whole file, now fed in pieces of every size
    /// from 1 to 9 bytes (a quote, a CR LF and the byte-order mark cut at a piece's edge).
    @Test func theStreamedReaderGivesTheSameRows() throws {
        let text =
            "\u{FEFF}stop_id,stop_name,stop_desc\r\nS1,\"Spiez, Schiffstation\",\"the \"\"upper\"\" pier\nby the castle\"\r\n\r\nS2,Thun,\nS3,\"\",\"x\"\n"
        let expected = [(2, ["S1", "Spiez, Schiffstation", "the \"upper\" pier\nby the castle"]), (5, ["S2", "Thun", ""]), (6, ["S3", "", "x"])]
        let bytes = Array(text.utf8)
        for size in 1...9 {
            var reader = CSVReader(file: "stops.txt", required: ["stop_id"])
            var rows: [CSVReader.Row] = []
            var at = 0
            while at < bytes.count {
                try reader.feed(bytes[at..<min(at + size, bytes.count)]) { rows.append($0) }
                at += size
            }
            try reader.finish { rows.append($0) }
            #expect(rows.map(\.fields) == expected.map { $0.1 } && rows.map(\.line) == expected.map { $0.0 }, "pieces of \(size): \(rows.map(\.fields))")
            #expect(reader.columns.index == ["stop_id": 0, "stop_name": 1, "stop_desc": 2])
        }
    }
}
