import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneStorage

/// What a recording holds, read from its events: `lodestone recording info`.
public struct RecordingSummary: Sendable {
    public var events = 0
    public var firstClock: MonotonicNanoseconds?
    public var lastClock: MonotonicNanoseconds?
    /// Transfers by chip ("bus 0 0x68"): how many, how many failed.
    public var chips: [String: (transfers: Int, failed: Int)] = [:]
    public var serialReads = 0
    public var serialBytes = 0
    public var serialFailures = 0
    /// The longest stretch without a byte from the receiver, seconds.
    public var longestSerialSilence = 0.0
    public var edges = 0
    public var handovers = 0
    /// Restart points (where a rotated file or a cut piece may begin).
    public var restarts = 0
    /// Gaps the recording itself has (its writer fell behind): how many, bytes lost.
    public var gaps = 0
    public var lostBytes = 0
    /// Why the events could not be read to their end, when they could not.
    public var damage: String?

    /// The device's time the events cover (a file that begins with the prelude and goes on
    /// from a later restart point covers the two stretches, not the time between).
    public var seconds: Double { Double(covered) / 1e9 }
    private var covered: MonotonicNanoseconds = 0

    public init(events bytes: [UInt8]) {
        var decoder = InputEventDecoder(bytes)
        var lastByte: MonotonicNanoseconds?
        var now: MonotonicNanoseconds = 0
        var afterRestart = false
        while let event = decoder.next() {
            events += 1
            switch event {
            case .clock(let t):
                if let lastClock, !afterRestart, t >= lastClock { covered += t - lastClock }
                afterRestart = false
                now = t
                if firstClock == nil { firstClock = t }
                lastClock = t
            case .transfer(let bus, let address, _, _):
                chips["bus \(bus) \(hexByte(address))", default: (0, 0)].transfers += 1
            case .transferFailed(let bus, let address, _, _, _):
                chips["bus \(bus) \(hexByte(address))", default: (0, 0)].transfers += 1
                chips["bus \(bus) \(hexByte(address))", default: (0, 0)].failed += 1
            case .serial(let read):
                serialReads += 1
                serialBytes += read.count
                if !read.isEmpty {
                    if let lastByte { longestSerialSilence = max(longestSerialSilence, Double(now &- lastByte) / 1e9) }
                    lastByte = now
                }
            case .serialFailed:
                serialFailures += 1
            case .edges(_, let list):
                edges += list.count
            case .handover:
                handovers += 1
            case .gap(let lost):
                gaps += 1
                lostBytes += lost
                afterRestart = true
            case .restart:
                restarts += 1
                afterRestart = true
                lastByte = nil
            }
        }
        damage = decoder.problem
    }
}

/// `lodestone recording cut`: a piece of a recording, and its private form.
public enum RecordingCut {
    /// The piece from `from` to `to` seconds of the device's time since the recording's start.
    /// A replay starts where the device started (the chips' bring-up), so the piece holds the
    /// prelude (the stream up to its first restart point), then goes on from the last restart
    /// point at or before `from` (they come every 10 minutes) to `to`; it is judged from `from`.
    /// With `withoutPositions`, every position the receiver sent is written as zeros (the same
    /// length, the checksums made good), so the piece replays the same way without telling
    /// where its owner was.
    public static func cut(
        _ contents: RecordingFile.Contents, from: Double?, to: Double?, withoutPositions: Bool
    ) -> (header: JSONValue, events: [UInt8], outputSide: [JSONValue]) {
        let resume = restartIndex(contents.events, before: from ?? 0)
        var decoder = InputEventDecoder(contents.events)
        var encoder = InputEventEncoder()
        var out: [UInt8] = []
        var hider = PositionHider()
        var start: MonotonicNanoseconds?
        var restarts = 0
        var skipping = false
        // The stretches of the device's time the piece covers, for the output side's entries.
        var kept: [(from: MonotonicNanoseconds, to: MonotonicNanoseconds)] = []
        var resumed = true
        while let event = decoder.next() {
            if case .restart = event {
                restarts += 1
                // After the prelude, the events up to the chosen restart point are left out.
                skipping = restarts < resume
                resumed = true
            }
            if case .clock(let t) = event {
                if start == nil { start = t }
                if let to, let start, Double(t &- start) / 1e9 > to { break }
                if !skipping {
                    if resumed || kept.isEmpty { kept.append((t, t)) } else { kept[kept.count - 1].to = t }
                    resumed = false
                }
            }
            if skipping { continue }
            var event = event
            if withoutPositions, case .serial(let bytes) = event { event = .serial(hider.rewrite(bytes)) }
            encoder.encode(event)
            encoder.take { out.append(contentsOf: $0) }
        }
        var header = contents.header
        if case .object(var members) = header {
            members.removeAll { $0.0 == "from" || $0.0 == "withoutPositions" }
            if let from { members.append(("from", .number(from))) }
            if withoutPositions { members.append(("withoutPositions", .bool(true))) }
            header = .object(members)
        }
        let outputSide = contents.outputSide.filter { entry in
            guard let t = OutputSideEntries.nanoseconds(entry["t"]) else { return false }
            return kept.contains { $0.from <= t && t <= $0.to }
        }
        return (header, out, outputSide)
    }

    /// The number (1 for the first) of the last restart point whose time, since the stream's
    /// first clock reading, is at or before `seconds`; 1 when none is.
    static func restartIndex(_ events: [UInt8], before seconds: Double) -> Int {
        var decoder = InputEventDecoder(events)
        var start: MonotonicNanoseconds?
        var restarts = 0, chosen = 1
        var pending = false
        while let event = decoder.next() {
            switch event {
            case .restart:
                restarts += 1
                pending = true
            case .clock(let t):
                if start == nil { start = t }
                if pending, let start {
                    pending = false
                    if Double(t &- start) / 1e9 <= seconds { chosen = restarts } else { return max(chosen, 1) }
                }
            default:
                break
            }
        }
        return max(chosen, 1)
    }
}

/// Rewrites the receiver's byte stream with every latitude and longitude as zeros, keeping each
/// byte's place (a read of n bytes stays n bytes) and each sentence's checksum right. It reads
/// across reads: a sentence split between two keeps its state.
struct PositionHider {
    private var inSentence = false
    private var field = 0
    private var type: [UInt8] = []
    private var checksum: UInt8 = 0
    /// Hex digits of the checksum still to write (2, 1), 0 outside one.
    private var checksumDigits = 0

    /// The fields holding latitude and longitude digits, by sentence type (GGA's 2 and 4...).
    static let positionFields: [String: Set<Int>] = ["GGA": [2, 4], "RMC": [3, 5], "GLL": [1, 3], "GNS": [2, 4]]

    mutating func rewrite(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for index in out.indices {
            let byte = out[index]
            if checksumDigits > 0 {
                let nibble = checksumDigits == 2 ? checksum >> 4 : checksum & 0x0F
                out[index] = Array("0123456789ABCDEF".utf8)[Int(nibble)]
                checksumDigits -= 1
                if checksumDigits == 0 { inSentence = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "$"):
                (inSentence, field, checksum) = (true, 0, 0)
                type.removeAll(keepingCapacity: true)
            case UInt8(ascii: "*") where inSentence:
                checksumDigits = 2
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                inSentence = false
            default:
                guard inSentence else { continue }
                if byte == UInt8(ascii: ",") {
                    field += 1
                } else if field == 0 {
                    type.append(byte)
                } else if isDigit(byte), hides(field) {
                    out[index] = UInt8(ascii: "0")
                }
                checksum ^= out[index]
            }
        }
        return out
    }

    private func hides(_ field: Int) -> Bool {
        guard type.count >= 3 else { return false }
        let kind = String(decoding: type.suffix(3), as: UTF8.self)
        return Self.positionFields[kind]?.contains(field) == true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
