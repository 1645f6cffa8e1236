import Glibc
import LodestoneCore
import Synchronization
import Testing
@testable import LodestoneStorage

/// The MQTT outbox on disk: what the broker has not acknowledged survives a restart in order,
/// a torn end loses only itself, a full outbox drops its oldest and counts them, and each
/// topic's chain of sequence numbers carries on across restarts and compaction.
@Suite(.serialized) struct MQTTOutboxTests {
    static func path(_ name: String) -> String {
        let path = "/tmp/lodestone-outbox-\(name)-\(getpid()).rec"
        unlink(path)
        return path
    }

    static func payloads(_ outbox: MQTTOutbox) -> [String] {
        (0..<outbox.count).compactMap { outbox.message(at: $0) }.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    @Test func unacknowledgedMessagesSurviveARestartInOrder() {
        let path = Self.path("restart")
        defer { unlink(path) }
        do {
            let outbox = MQTTOutbox(path: path, limit: 100, now: 0)
            for index in 1...5 { outbox.add(topic: "a/state", payload: Array("m\(index)".utf8), retain: false, now: 0) }
            outbox.acknowledge(1, now: 0)
            outbox.acknowledge(3, now: 0)
            #expect(Self.payloads(outbox) == ["m2", "m4", "m5"] && outbox.delivered == 2)
        }
        let reopened = MQTTOutbox(path: path, limit: 100, now: 1)
        #expect(Self.payloads(reopened) == ["m2", "m4", "m5"])
        #expect(reopened.message(at: 0)?.sent == true, "a resend after a restart is marked DUP")
        #expect(reopened.upcoming == 6 && reopened.previous(on: "a/state") == 5)
    }

    @Test func aTornEndLosesOnlyItself() {
        let path = Self.path("torn")
        defer { unlink(path) }
        do {
            let outbox = MQTTOutbox(path: path, limit: 100, now: 0)
            for index in 1...3 { outbox.add(topic: "t", payload: Array("m\(index)".utf8), retain: true, now: 0) }
        }
        var info = stat()
        stat(path, &info)
        truncate(path, off_t(info.st_size) - 3)
        let reopened = MQTTOutbox(path: path, limit: 100, now: 1)
        #expect(Self.payloads(reopened) == ["m1", "m2"] && reopened.message(at: 0)?.retain == true)
    }

    @Test func aFullOutboxDropsTheOldestAndCountsThem() {
        let path = Self.path("full")
        defer { unlink(path) }
        let outbox = MQTTOutbox(path: path, limit: 3, now: 0)
        for index in 1...5 { outbox.add(topic: "t", payload: Array("m\(index)".utf8), retain: false, now: 0) }
        #expect(Self.payloads(outbox) == ["m3", "m4", "m5"] && outbox.dropped == 2)
        let reopened = MQTTOutbox(path: path, limit: 3, now: 1)
        #expect(Self.payloads(reopened) == ["m3", "m4", "m5"], "the dropped stay dropped")
    }

    /// Thousands of messages through a small compaction threshold: the file stays bounded, the
    /// chain and the waiting messages survive each rewrite.
    @Test func compactionKeepsTheChainAndWhatWaits() {
        let path = Self.path("compact")
        defer { unlink(path) }
        let payload = [UInt8](repeating: 0x61, count: 2000)
        do {
            let outbox = MQTTOutbox(path: path, limit: 10_000, now: 0)
            for index in 1...3000 {
                outbox.add(topic: "b/state", payload: payload, retain: false, now: 0)
                if index < 2999 { outbox.acknowledge(UInt64(index), now: 0) }
            }
            #expect(outbox.count == 2)
        }
        var info = stat()
        stat(path, &info)
        #expect(Int(info.st_size) < 2 * MQTTOutbox.compactionBytes, "\(info.st_size) bytes")
        let reopened = MQTTOutbox(path: path, limit: 10_000, now: 1)
        #expect(reopened.count == 2 && reopened.message(at: 0)?.sequence == 2999)
        #expect(reopened.previous(on: "b/state") == 3000 && reopened.upcoming == 3001)
    }
}

/// A full disk in the middle of a run: the outbox keeps what it could not write in memory
/// (bounded, the oldest dropped and counted), tries the disk again, and once it takes writes
/// the file holds every message not dropped, so a restart sends them all.
@Suite(.serialized) struct MQTTOutboxFullDiskTests {
    final class Disk: Sendable {
        let full = Atomic<Bool>(false)
    }

    @Test func theOutboxComesBackToTheDiskAfterItFills() throws {
        let directory = "/tmp/lodestone-outbox-fulldisk-\(getpid())"
        _ = Shell.output("rm -rf \(directory)")
        try #require(mkdir(directory, 0o700) == 0)
        defer { _ = Shell.output("rm -rf \(directory)") }
        let path = directory + "/mqtt-outbox.rec"
        let disk = Disk()
        let fault = SimulatedDiskFull.install(directory: directory) { disk.full.load(ordering: .relaxed) }
        defer { SimulatedDiskFull.remove(fault) }
        var added = 0
        var dropped = 0
        do {
            // One message a second with the broker away: 20 s, then 30 s of a full disk, then 20 s.
            let outbox = MQTTOutbox(path: path, limit: 40, now: 0)
            for second in 0..<70 {
                disk.full.store(second >= 20 && second < 50, ordering: .relaxed)
                outbox.add(topic: "hut/state", payload: Array("m\(second)".utf8), retain: false, now: Double(second))
                added += 1
                if second == 49 {
                    #expect(outbox.count == 40 && outbox.dropped == 10, "held in memory, bounded: \(outbox.count), \(outbox.dropped) dropped")
                }
            }
            dropped = outbox.dropped
            #expect(outbox.count == 40)
        }
        let reopened = MQTTOutbox(path: path, limit: 40, now: 100)
        let payloads = MQTTOutboxTests.payloads(reopened)
        #expect(payloads.count == added - dropped, "every message not dropped came back: \(payloads.count) of \(added - dropped)")
        #expect(payloads == (30..<70).map { "m\($0)" }, "\(payloads)")
        #expect(reopened.upcoming == 71 && reopened.previous(on: "hut/state") == 70, "the chain carries on")
    }
}
