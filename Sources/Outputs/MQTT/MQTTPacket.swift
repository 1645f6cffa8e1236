/// MQTT 3.1.1 control packets (OASIS standard, 2014), the few a publishing device needs:
/// CONNECT with a Last Will, PUBLISH at QoS 0 and 1, PUBACK, PINGREQ, DISCONNECT out; CONNACK,
/// PUBACK, PINGRESP, SUBACK and PUBLISH in. Each packet is a fixed header (type and flags, then
/// the remaining length as a base-128 varint of one to four bytes) and its body.
public enum MQTTPacket {
    /// The largest remaining length the varint can say (four bytes).
    public static let maximumRemainingLength = 268_435_455

    public struct Will: Sendable, Equatable {
        public var topic: String
        public var message: [UInt8]
        public var qos: UInt8
        public var retain: Bool
        public init(topic: String, message: [UInt8], qos: UInt8, retain: Bool) {
            (self.topic, self.message, self.qos, self.retain) = (topic, message, qos, retain)
        }
    }

    /// CONNECT: protocol "MQTT" level 4, the flags, the keep-alive, then the client id, the
    /// Will, the user name and the password, each as a length-prefixed string.
    public static func connect(
        clientID: String, cleanSession: Bool, keepAlive: UInt16, will: Will?,
        username: String?, password: String?
    ) -> [UInt8] {
        var body: [UInt8] = [0, 4, 0x4D, 0x51, 0x54, 0x54, 4]
        var flags: UInt8 = cleanSession ? 0x02 : 0
        if let will { flags |= 0x04 | (will.qos & 3) << 3 | (will.retain ? 0x20 : 0) }
        if password != nil { flags |= 0x40 }
        if username != nil { flags |= 0x80 }
        body.append(flags)
        body += [UInt8(keepAlive >> 8), UInt8(keepAlive & 0xFF)]
        appendString(clientID, to: &body)
        if let will {
            appendString(will.topic, to: &body)
            appendBytes(will.message, to: &body)
        }
        if let username { appendString(username, to: &body) }
        if let password { appendString(password, to: &body) }
        return framed(0x10, body)
    }

    /// PUBLISH; `packetID` is needed (and only sent) at QoS 1; `duplicate` marks a resend.
    public static func publish(topic: String, payload: [UInt8], qos: UInt8, retain: Bool, packetID: UInt16, duplicate: Bool) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(topic.utf8.count + payload.count + 4)
        appendString(topic, to: &body)
        if qos > 0 { body += [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }
        body += payload
        let flags: UInt8 = (duplicate && qos > 0 ? 0x08 : 0) | (qos & 3) << 1 | (retain ? 1 : 0)
        return framed(0x30 | flags, body)
    }

    public static func puback(_ packetID: UInt16) -> [UInt8] { [0x40, 2, UInt8(packetID >> 8), UInt8(packetID & 0xFF)] }
    public static let pingRequest: [UInt8] = [0xC0, 0]
    public static let disconnect: [UInt8] = [0xE0, 0]

    /// What came from the broker.
    public enum Incoming: Sendable, Equatable {
        /// CONNACK: whether the broker kept a session, and its return code (0 accepted).
        case connectAcknowledged(sessionPresent: Bool, code: UInt8)
        case publishAcknowledged(UInt16)
        case pingResponse
        case subscribeAcknowledged
        /// A message from a subscription: its packet id when QoS 1 (to acknowledge).
        case publish(topic: String, payload: [UInt8], packetID: UInt16?)
    }

    public enum DecodeError: Error, Equatable {
        /// The bytes are not an MQTT packet a broker may send a client.
        case malformed(String)
    }

    /// Decodes the first whole packet in `bytes`: the packet and its length, nil when more
    /// bytes are needed. Every length is checked against what is there.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> (Incoming, Int)? {
        guard let first = bytes.first else { return nil }
        var length = 0, multiplier = 1, index = bytes.startIndex + 1
        while true {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard multiplier <= 128 * 128 * 128 else { throw .malformed("a remaining length of more than four bytes") }
        }
        guard bytes.endIndex - index >= length else { return nil }
        let body = bytes[index..<(index + length)]
        let total = index + length - bytes.startIndex
        func word(_ at: Int) -> UInt16 { UInt16(body[body.startIndex + at]) << 8 | UInt16(body[body.startIndex + at + 1]) }
        switch first >> 4 {
        case 2:
            guard first == 0x20, length == 2 else { throw .malformed("a CONNACK of \(length) bytes") }
            return (.connectAcknowledged(sessionPresent: body[body.startIndex] & 1 == 1, code: body[body.startIndex + 1]), total)
        case 4:
            guard first == 0x40, length == 2 else { throw .malformed("a PUBACK of \(length) bytes") }
            return (.publishAcknowledged(word(0)), total)
        case 13:
            guard length == 0 else { throw .malformed("a PINGRESP with a body") }
            return (.pingResponse, total)
        case 9:
            guard length >= 3 else { throw .malformed("a SUBACK of \(length) bytes") }
            return (.subscribeAcknowledged, total)
        case 3:
            let qos = (first >> 1) & 3
            guard qos < 2, length >= 2 else { throw .malformed("a PUBLISH at QoS \(qos) or without a topic") }
            let topicLength = Int(word(0))
            let idLength = qos > 0 ? 2 : 0
            guard 2 + topicLength + idLength <= length else { throw .malformed("a PUBLISH whose topic runs past its end") }
            let topic = String(decoding: body[(body.startIndex + 2)..<(body.startIndex + 2 + topicLength)], as: UTF8.self)
            let packetID = qos > 0 ? word(2 + topicLength) : nil
            let payload = Array(body[(body.startIndex + 2 + topicLength + idLength)...])
            return (.publish(topic: topic, payload: payload, packetID: packetID), total)
        default:
            throw .malformed("packet type \(first >> 4), which a broker does not send a client")
        }
    }

    static func framed(_ header: UInt8, _ body: [UInt8]) -> [UInt8] {
        var packet: [UInt8] = [header]
        packet.reserveCapacity(body.count + 5)
        var remaining = min(body.count, maximumRemainingLength)
        repeat {
            var byte = UInt8(remaining % 128)
            remaining /= 128
            if remaining > 0 { byte |= 0x80 }
            packet.append(byte)
        } while remaining > 0
        return packet + body
    }

    /// A UTF-8 string with its two-byte length (cut at 65,535 bytes, the most it can say).
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        appendBytes(Array(text.utf8), to: &bytes)
    }

    static func appendBytes(_ data: [UInt8], to bytes: inout [UInt8]) {
        let count = min(data.count, 65_535)
        bytes += [UInt8(count >> 8), UInt8(count & 0xFF)]
        bytes += data.prefix(count)
    }

    /// The CONNACK return codes, as a person can act on them.
    public static func refusal(_ code: UInt8) -> String {
        switch code {
        case 1: return "the broker does not speak MQTT 3.1.1"
        case 2: return "the broker refused the client id (give another mqtt.clientId)"
        case 3: return "the broker is unavailable"
        case 4: return "the broker refused the user name or password (mqtt.username, mqtt.password)"
        case 5: return "the broker does not authorise this client"
        default: return "the broker refused the connection with code \(code)"
        }
    }
}
