import LodestoneCore
import Testing

@testable import LodestoneHAL

/// The recording's byte form: what goes in comes out, in order and exactly; a register read
/// seen before costs its tag and its data; a damaged stream is said and read no further.
@Suite struct InputEventCodecTests {
    static func encode(_ events: [InputEvent]) -> [UInt8] {
        var encoder = InputEventEncoder()
        var out: [UInt8] = []
        for event in events {
            encoder.encode(event)
            encoder.take { out.append(contentsOf: $0) }
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) -> (events: [InputEvent], problem: String?) {
        var decoder = InputEventDecoder(bytes)
        var events: [InputEvent] = []
        while let event = decoder.next() { events.append(event) }
        return (events, decoder.problem)
    }

    @Test func everyKindOfEventComesBackExactly() {
        let events: [InputEvent] = [
            .clock(5_000_123_000), .transfer(bus: 0, address: 0x68, write: [0x3B], read: Array(0..<14)),
            .clock(5_000_140_000), .transfer(bus: 0, address: 0x68, write: [0x3B], read: Array(20..<34)),
            .clock(5_005_000_001), .transferFailed(bus: 1, address: 0x0D, write: [0x06], readCount: 1, error: .noAcknowledge(address: 0x0D)),
            .transferFailed(bus: 1, address: 0x76, write: [0xF7], readCount: 6, error: .noSuchBus(path: "/dev/i2c-7")),
            .transferFailed(bus: 1, address: 0x76, write: [0xF7], readCount: 6, error: .system(errno: -3, address: 0x76)),
            .transfer(bus: 1, address: 0x76, write: [0xF4, 0x27], read: []),
            .serial(Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)), .serial([]),
            .serialFailed(.disconnected(path: "/dev/ttyUSB0")), .serialFailed(.system(errno: 5, path: "/dev/serial0")),
            .edges(line: 17, [EdgeEvent(rising: true, time: 5_004_999_000), EdgeEvent(rising: false, time: 5_006_000_001)]),
            .handover(kind: 3, payload: [1, 2, 3, 255]), .gap(lostBytes: 4096), .clock(5_005_000_001),
            .restart([8, 7, 6, 5, 4, 3, 2, 1]), .clock(5_009_000_000), .transfer(bus: 0, address: 0x68, write: [0x3B], read: Array(0..<14))
        ]
        let bytes = Self.encode(events)
        let decoded = Self.decode(bytes)
        #expect(decoded.problem == nil)
        #expect(decoded.events == events)
    }

    @Test func aRegisterReadSeenBeforeCostsItsTagAndItsData() {
        var encoder = InputEventEncoder()
        let write: [UInt8] = [0x3B], read = [UInt8](repeating: 7, count: 14)
        encoder.clock(1_000_000)
        write.withUnsafeBytes { w in read.withUnsafeBytes { encoder.transfer(bus: 0, address: 0x68, write: w, read: $0) } }
        let first = encoder.take { $0.count }
        encoder.clock(1_010_000)
        write.withUnsafeBytes { w in read.withUnsafeBytes { encoder.transfer(bus: 0, address: 0x68, write: w, read: $0) } }
        let again = encoder.take { $0.count }
        // 10 µs after the last reading: one byte; the transfer: its tag and 14 bytes.
        #expect(again == 1 + 1 + 14)
        #expect(first > again)
    }

    @Test func manyKeysAndLongGapsRoundTrip() {
        var seed: UInt64 = 40
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        var events: [InputEvent] = []
        var time: UInt64 = 0
        for _ in 0..<3000 {
            time += next() % 3 == 0 ? next() * 1000 : next() % 100_000
            events.append(.clock(time))
            // 200 different registers: keys past the short form's 128.
            let register = UInt8(next() % 200)
            events.append(.transfer(bus: UInt8(next() % 2), address: 0x68, write: [register], read: (0..<Int(register % 7)).map { _ in UInt8(next() % 256) }))
        }
        let decoded = Self.decode(Self.encode(events))
        #expect(decoded.problem == nil)
        #expect(decoded.events == events)
    }

    @Test func aDamagedStreamIsSaidAndReadNoFurther() {
        let events: [InputEvent] = [.clock(1_000), .transfer(bus: 0, address: 0x68, write: [0x3B], read: [1, 2]), .clock(2_000)]
        var bytes = Self.encode(events)
        // Cut inside the transfer's data.
        let cut = Self.decode(Array(bytes.prefix(bytes.count - 3)))
        #expect(cut.events == [.clock(1_000)])
        #expect(cut.problem?.contains("damaged") == true)
        // A tag that is no event.
        bytes.insert(0x7F, at: 0)
        let damaged = Self.decode(bytes)
        #expect(damaged.events.isEmpty && damaged.problem == "the recording is damaged at byte 0")
    }
}

/// One thread's recorder: whole events into the ring; when the ring is full the events are
/// lost, a gap stands in their place, and what follows reads on its own.
@Suite struct InputRecorderTests {
    @Test func aFullRingLeavesAGapAndTheRestStillReads() {
        let recorder = InputRecorder(ringBytes: 64)
        let write: [UInt8] = [0x3B], read = [UInt8](repeating: 9, count: 14)
        var drained: [UInt8] = []
        func transfer() { write.withUnsafeBytes { w in read.withUnsafeBytes { recorder.transfer(bus: 0, address: 0x68, write: w, read: $0) } } }
        recorder.clock(1_000_000)
        transfer()
        recorder.ring.drain { drained.append(contentsOf: $0) }
        // Nobody drains: the ring fills and events are lost.
        for step in 1...10 {
            recorder.clock(1_000_000 + UInt64(step) * 5_000_000)
            transfer()
        }
        #expect(recorder.lostBytes > 0)
        recorder.ring.drain { drained.append(contentsOf: $0) }
        recorder.clock(2_000_000_000)
        transfer()
        recorder.ring.drain { drained.append(contentsOf: $0) }
        var decoder = InputEventDecoder(drained)
        var events: [InputEvent] = []
        while let event = decoder.next() { events.append(event) }
        #expect(decoder.problem == nil)
        #expect(events.contains { if case .gap = $0 { return true } else { return false } })
        // After the gap, the clock and the transfer read whole.
        #expect(events.suffix(2) == [.clock(2_000_000_000), .transfer(bus: 0, address: 0x68, write: write, read: read)])
    }
}
