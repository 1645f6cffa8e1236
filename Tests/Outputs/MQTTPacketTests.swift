import LodestoneOutputs
import Testing

/// MQTT 3.1.1 packets against the standard's own figures: the CONNECT layout (3.1), PUBLISH's
/// flags (3.3.1), the remaining-length encoding's boundaries (table 2.4), and decoding what a
/// broker sends, whole, partial or hostile.
@Suite struct MQTTPacketTests {
    @Test func connectHasTheStandardsLayout() {
        let plain = MQTTPacket.connect(clientID: "abc", cleanSession: true, keepAlive: 60, will: nil, username: nil, password: nil)
        #expect(plain == [0x10, 15, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, 0, 3, 0x61, 0x62, 0x63])
        let will = MQTTPacket.Will(topic: "t", message: Array("off".utf8), qos: 1, retain: true)
        let full = MQTTPacket.connect(clientID: "c", cleanSession: false, keepAlive: 30, will: will, username: "u", password: "p")
        // User name, password, will retain, will QoS 1, will flag; no clean session.
        #expect(full.count > 9 && full[9] == 0x80 | 0x40 | 0x20 | 0x08 | 0x04)
        #expect(Array(full.suffix(17)) == [0, 1, 0x63, 0, 1, 0x74, 0, 3, 0x6F, 0x66, 0x66, 0, 1, 0x75, 0, 1, 0x70])
    }

    @Test func publishFlagsAndPacketIdentifier() {
        #expect(
            MQTTPacket.publish(topic: "a/b", payload: [0x78], qos: 1, retain: false, packetID: 10, duplicate: true)
                == [0x3A, 8, 0, 3, 0x61, 0x2F, 0x62, 0, 10, 0x78])
        // QoS 0 has no identifier and never DUP; retain is bit 0.
        #expect(MQTTPacket.publish(topic: "a", payload: [], qos: 0, retain: true, packetID: 10, duplicate: true) == [0x31, 3, 0, 1, 0x61])
        #expect(MQTTPacket.puback(0x1234) == [0x40, 2, 0x12, 0x34])
    }

    /// Table 2.4: the largest value of each length of the remaining-length field.
    @Test func remainingLengthBoundaries() {
        for (length, encoded) in [
            (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
            (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01])
        ] as [(Int, [UInt8])] {
            let packet = MQTTPacket.publish(topic: "", payload: [UInt8](repeating: 0, count: length - 2), qos: 0, retain: false, packetID: 0, duplicate: false)
            #expect(Array(packet.dropFirst().prefix(encoded.count)) == encoded, "\(length)")
            #expect(packet.count == 1 + encoded.count + length)
        }
    }

    @Test func decodesWhatABrokerSends() throws {
        #expect(try MQTTPacket.decode([0x20, 2, 1, 0][...])?.0 == .connectAcknowledged(sessionPresent: true, code: 0))
        #expect(try MQTTPacket.decode([0x20, 2, 0, 5][...])?.0 == .connectAcknowledged(sessionPresent: false, code: 5))
        #expect(try MQTTPacket.decode([0x40, 2, 0x12, 0x34, 0xD0, 0][...]).map { $0.1 } == 4, "one packet at a time")
        #expect(try MQTTPacket.decode([0xD0, 0][...])?.0 == .pingResponse)
        #expect(try MQTTPacket.decode([0x32, 7, 0, 1, 0x74, 0, 9, 0x68, 0x69][...])?.0 == .publish(topic: "t", payload: [0x68, 0x69], packetID: 9))
        // Not yet whole: wait for more.
        #expect(try MQTTPacket.decode([0x40, 2, 0x12][...]) == nil)
        #expect(try MQTTPacket.decode([0x30, 0x80][...]) == nil)
        #expect(try MQTTPacket.decode([][...]) == nil)
    }

    @Test func refusesWhatNoBrokerSends() {
        for bytes: [UInt8] in [[0x40, 3, 0, 1, 2], [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], [0x10, 0], [0x34, 2, 0, 1], [0x32, 3, 0, 9, 0x61], [0x20, 3, 0, 0, 0]]
        {
            #expect(throws: MQTTPacket.DecodeError.self, "\(bytes)") { try MQTTPacket.decode(bytes[...]) }
        }
    }

    /// Random bytes, and every prefix of real packets: decoding answers or refuses, never traps.
    @Test func randomBytesNeverTrap() {
        var generator = SplitMix(seed: 7)
        var answered = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 24)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if let first = bytes.first { bytes[0] = [0x20, 0x40, 0xD0, 0x90, 0x30, 0x32, 0x3A, first][Int(first % 8)] }
            if (try? MQTTPacket.decode(bytes[...])) != nil { answered += 1 }
        }
        #expect(answered > 0)
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
