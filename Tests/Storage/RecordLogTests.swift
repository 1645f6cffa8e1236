import Glibc
import LodestoneCore
import Testing
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// A power cut can tear the end of a log at any byte, a failing card can corrupt any byte:
/// every intact record is kept, a torn end is cut and reported, and appending goes on.
@Suite struct RecordLogTests {
    static func path(_ name: String) -> String { "/tmp/lodestone-recordlog-\(getpid())-\(name)" }

    static func payload(_ index: Int) -> [UInt8] { Array("2026-06-21T08:00:\(index),1013.2\(index),18.5".utf8) }

    @Test func everyCutAndCorruptionKeepsTheIntactRecords() throws {
        let path = Self.path("cut")
        unlink(path)
        do {
            let log = try RecordLog(path: path, now: 0)
            for index in 0..<6 { try log.append(Self.payload(index), now: Double(index)) }
            log.flush(now: 6)
        }
        let whole = try RecordLog.records(path: path)
        #expect(whole.records.count == 6 && whole.recovery.cutBytes == 0)
        let bytes = try #require(readFileBytes(path))
        var boundaries = [0]
        for index in 0..<6 { boundaries.append((boundaries.last ?? 0) + Self.payload(index).count + 10) }
        #expect(boundaries.last == bytes.count)
        for end in 0...bytes.count {
            // Truncated at `end`: the records wholly before it survive.
            let kept = RecordLog.parse(Array(bytes[..<end]))
            #expect(kept.records.count == boundaries.filter { $0 <= end }.count - 1, "cut at \(end)")
            #expect(kept.validBytes == boundaries.last { $0 <= end })
        }
        for offset in 0..<bytes.count {
            // One byte corrupted at `offset`: only its own record is lost, the ones after it are read.
            var damaged = bytes
            damaged[offset] ^= 0x41
            let kept = RecordLog.parseSkipping(damaged)
            let frame = boundaries.lastIndex { $0 <= offset } ?? 0
            var expected = whole.records
            if expected.indices.contains(frame) { expected.remove(at: frame) }
            #expect(kept.records == expected, "corrupt at \(offset)")
            #expect(kept.validBytes == bytes.count || frame == 5, "corrupt at \(offset)")
        }
    }

    @Test func reopeningCutsTheTornTailAndAppends() throws {
        let path = Self.path("reopen")
        unlink(path)
        do {
            let log = try RecordLog(path: path, now: 0)
            for index in 0..<3 { try log.append(Self.payload(index), now: 0) }
        }
        // The power goes in the middle of the fourth record.
        let fd = open(path, O_WRONLY | O_APPEND)
        _ = [UInt8]([0xA5, 0x5A, 40, 0, 0, 0, 65, 66]).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let log = try RecordLog(path: path, now: 0)
        #expect(log.recovery == RecordLog.Recovery(records: 3, cutBytes: 8))
        try log.append(Self.payload(9), now: 1)
        let after = try RecordLog.records(path: path)
        #expect(after.records.count == 4 && after.records.last == Self.payload(9) && after.recovery.cutBytes == 0)
    }

    @Test func crcMatchesTheStandardCheckValue() {
        // The CRC-32 check value from the catalogue of parametrised CRCs: "123456789" -> CBF43926.
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
