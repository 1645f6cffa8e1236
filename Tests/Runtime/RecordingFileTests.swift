import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import Testing
@testable import LodestoneRuntime
@testable import LodestoneStorage

/// A recording on the card: written a piece at a time, read back whole, a torn end cut off
/// and said, never written over, bounded; and its tools (the private form, the summary).
@Suite struct RecordingFileTests {
    static func path(_ name: String) -> String { "/tmp/lodestone-recording-\(getpid())-\(name)" }

    static let header = JSONValue.object([("format", .string(RecordingFile.formatName)), ("codec", .number(1))])

    /// A stream of events like a sampling thread's: clocks, register reads, the receiver's bytes.
    static func events(seconds: Int) -> [UInt8] {
        var encoder = InputEventEncoder()
        var bytes: [UInt8] = []
        var time: MonotonicNanoseconds = 1_000_000_000
        let register: [UInt8] = [0x3B]
        for tick in 0..<(seconds * 200) {
            time += 5_000_000
            encoder.clock(time)
            let reading = (0..<14).map { UInt8(truncatingIfNeeded: tick &* 7 &+ $0) }
            register.withUnsafeBytes { w in reading.withUnsafeBytes { r in encoder.transfer(bus: 0, address: 0x68, write: w, read: r) } }
            if tick % 20 == 0 { Array("$GPGGA,120000.00,4916.45,N,12311.12,W,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8).withUnsafeBytes { encoder.serial($0) } }
            encoder.take { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    static func write(_ path: String, _ events: [UInt8], maximumBytes: Int = 1 << 30) throws {
        let writer = try RecordingWriter(path: path, header: header, maximumBytes: maximumBytes, now: 0)
        var offset = 0, second = 0.0
        while offset < events.count {
            let end = min(offset + 3000, events.count)
            second += 0.25
            try writer.take(events[offset..<end], now: second)
            offset = end
        }
        try writer.close(now: second)
    }

    @Test func aRecordingReadsBackAsItWasWrittenAndDeflated() throws {
        let path = Self.path("whole")
        unlink(path)
        defer { unlink(path) }
        let events = Self.events(seconds: 20)
        try Self.write(path, events)
        let contents = try RecordingFile.read(path: path)
        #expect(contents.events == events)
        #expect(contents.problems.isEmpty)
        #expect(contents.header["format"]?.stringValue == RecordingFile.formatName)
        let stored = contents.pieces.reduce(0) { $0 + $1.stored }
        #expect(stored < events.count, "deflated: \(stored) of \(events.count) bytes")
    }

    @Test func aTornEndKeepsEveryWholePieceAndSaysSo() throws {
        let path = Self.path("torn")
        unlink(path)
        defer { unlink(path) }
        let events = Self.events(seconds: 10)
        try Self.write(path, events)
        let whole = try #require(readFileBytes(path))
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = whole.prefix(whole.count - 7).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let contents = try RecordingFile.read(path: path)
        #expect(!contents.events.isEmpty)
        #expect(contents.events.count < events.count)
        #expect(Array(events.prefix(contents.events.count)) == contents.events)
        #expect(contents.problems.contains { $0.contains("torn") })
    }

    @Test func aRecordingIsNeverWrittenOverAndStopsAtItsLimit() throws {
        let path = Self.path("limit")
        unlink(path)
        defer { unlink(path) }
        _ = try RecordingWriter(path: path, header: Self.header, maximumBytes: 1 << 20, now: 0)
        #expect(throws: StorageError.self) { _ = try RecordingWriter(path: path, header: Self.header, maximumBytes: 1 << 20, now: 0) }
        unlink(path)
        #expect(throws: StorageError.self) { try Self.write(path, Self.events(seconds: 120), maximumBytes: 70_000) }
        let size = try #require(readFileBytes(path)).count
        #expect(size <= 70_000)
        #expect(try RecordingFile.read(path: path).events.count > 0)
    }

    @Test func somethingElseIsNotTakenForARecording() throws {
        let path = Self.path("other")
        unlink(path)
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        _ = "not a recording\n".withCString { Glibc.write(fd, $0, 16) }
        close(fd)
        #expect(throws: StorageError.self) { _ = try RecordingFile.read(path: path) }
    }

    @Test func thePrivateFormZeroesEveryPositionAndKeepsTheChecksumsRight() {
        let sentences = [
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n",
            "$GNRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n",
            "$GPGLL,4916.45,N,12311.12,W,225444,A*31\r\n",
            "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48\r\n"
        ]
        let stream = Array(sentences.joined().utf8)
        // Split at every place a read could end: the result never depends on where.
        for split in stride(from: 1, to: stream.count, by: 7) {
            var hider = PositionHider()
            let out = hider.rewrite(Array(stream[..<split])) + hider.rewrite(Array(stream[split...]))
            #expect(out.count == stream.count)
            let lines = String(decoding: out, as: UTF8.self).split(separator: "\r\n").map(String.init)
            #expect(lines.count == 4)
            for line in lines {
                #expect(NMEAChecksum.valid(line), "\(line)")
            }
            #expect(lines.first?.contains(",0000.000,N,00000.000,E,") == true)
            #expect(lines.dropFirst().first?.contains(",0000.000,N,00000.000,E,022.4,084.4,") == true)
            #expect(lines.dropFirst(2).first?.hasPrefix("$GPGLL,0000.00,N,00000.00,W,225444") == true)
            #expect(lines.last == "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48")
        }
    }

    @Test func theSummarySaysWhatTheRecordingHolds() {
        let summary = RecordingSummary(events: Self.events(seconds: 30))
        #expect(abs(summary.seconds - 30) < 0.01)
        #expect(summary.chips["bus 0 0x68"]?.transfers == 6000)
        #expect(summary.serialReads == 300)
        #expect(abs(summary.longestSerialSilence - 0.1) < 0.001)
        #expect(summary.gaps == 0 && summary.damage == nil)
    }
}

/// An NMEA sentence's checksum, checked the way a receiver's reader does.
enum NMEAChecksum {
    static func valid(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        guard bytes.first == UInt8(ascii: "$"), let star = bytes.lastIndex(of: UInt8(ascii: "*")), star + 3 == bytes.count else { return false }
        let sum = bytes[1..<star].reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes[star + 1] == digits[Int(sum >> 4)] && bytes[star + 2] == digits[Int(sum & 0x0F)]
    }
}
