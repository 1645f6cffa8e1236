import Glibc
import LodestoneOutputs
import Synchronization
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneStorage

/// A recording on a disk that fills up: nothing is lost, the failure is known at once, and
/// writing resumes when space returns. Needs a small tmpfs (root with mount rights); skipped
/// with a message elsewhere.
@Suite(.serialized) struct FullDiskTests {
    @Test func aTrackKeepsEveryPointThroughAFullDisk() throws {
        let mountPoint = "/tmp/lodestone-full-\(getpid())"
        _ = mkdir(mountPoint, 0o755)
        defer { rmdir(mountPoint) }
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=64k") == 0 else {
            print("skipped the full-disk test: cannot mount a small tmpfs here (\(String(cString: strerror(errno))))")
            return
        }
        defer { umount(mountPoint) }
        let path = mountPoint + "/recording.track"
        let recording = try #require(TrackRecording(path: path, name: "Full", started: 1_782_028_800))
        func point(_ i: Int) -> TrackPoint {
            TrackPoint(
                time: 1_782_028_801 + Double(i), latitude: 47.3769 + Double(i) * 1e-5, longitude: 8.5417, gpsAltitude: 408.2,
                baroAltitude: 410.1, pressure: 965.12, speed: 1.35, accuracy: 4)
        }
        // Fill the disk, then record across several pages of the file.
        let filler = mountPoint + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0)
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        var sawFailure = false
        for i in 0..<200 {
            recording.append(point(i), now: MonotonicNanoseconds(i) * 1_000_000_000)
            sawFailure = sawFailure || recording.writeError == ENOSPC
        }
        #expect(sawFailure, "the disk refused the points")
        #expect(recording.unwritten > 0)
        #expect(!recording.flush(), "a stop while the disk is full does not pretend")
        // Space returns: the next point writes everything kept.
        unlink(filler)
        recording.append(point(200), now: 201_000_000_000)
        #expect(recording.unwritten == 0 && recording.writeError == 0)
        #expect(recording.flush())
        let parsed = try #require(TrackFile.parse(readFileBytes(path) ?? []))
        #expect(parsed.points.count == 201 && parsed.skipped == 0, "\(parsed.points.count) points, \(parsed.skipped) skipped")
    }
}

/// The simulated full disk (`--fault disk-full`) fails the program's own writes under one
/// directory, through the same paths a real full disk takes, and nothing elsewhere.
@Suite struct SimulatedDiskFullTests {
    @Test func onlyTheFilledDirectoryRefusesWrites() throws {
        let full = "/tmp/lodestone-simfull-\(getpid())", other = "/tmp/lodestone-simfree-\(getpid())"
        mkdir(full, 0o755)
        mkdir(other, 0o755)
        defer {
            for path in [full + "/a.json", other + "/a.json", full + "/log.bin", full + "/t.track"] { unlink(path) }
            rmdir(full)
            rmdir(other)
        }
        let filling = Mutex(true)
        let id = SimulatedDiskFull.install(directory: full) { filling.withLock { $0 } }
        defer { SimulatedDiskFull.remove(id) }
        #expect(throws: WriteFailure.self) { try replaceFile(full + "/a.json", with: Array("{}".utf8)) }
        #expect(access(full + "/a.json", F_OK) != 0, "nothing half-written is left")
        #expect(throws: Never.self) { try replaceFile(other + "/a.json", with: Array("{}".utf8)) }
        let log = try RecordLog(path: full + "/log.bin", now: 0)
        #expect(throws: StorageError.self) { try log.append([1, 2, 3], now: 0) }
        #expect(TrackRecording(path: full + "/t.track", name: "full", started: 0) == nil)
        #expect(errno == ENOSPC)
        // Space returns: the same writes go through.
        filling.withLock { $0 = false }
        #expect(throws: Never.self) { try replaceFile(full + "/a.json", with: Array("{}".utf8)) }
        #expect(throws: Never.self) { try log.append([1, 2, 3], now: 1) }
        #expect(TrackRecording(path: full + "/t.track", name: "free", started: 0) != nil)
    }
}
