import Glibc
import LodestoneCore
import LodestoneDomain

/// history.bin: "LDHIST1\n", then per stream its name (a byte count and UTF-8), and per range
/// its non-empty buckets (a count, then index, minimum, maximum, sum as 8-byte values and the
/// sample count as 4). Little-endian. 7 days of 5 streams: about 250 kB.
package enum HistoryFile {
    static let magic = Array("LDHIST1\n".utf8)

    package static func encode(_ histories: [String: History]) -> [UInt8] {
        var out: [UInt8] = []
        encode(histories, order: histories.keys.sorted(), into: &out)
        return out
    }

    /// Appends the file's bytes to `out`, the streams in `order` (their names sorted, so the
    /// file is the same for the same histories); a name in `order` without a history is left out.
    package static func encode(_ histories: [String: History], order: [String], into out: inout [UInt8]) {
        // Sized once (at most every bucket of every level), so the minute's save grows nothing
        // once its storage has held a save.
        out.reserveCapacity(out.count + magic.count + 4 + histories.values.reduce(0) { $0 + 8 + 64 + $1.levels.reduce(0) { $0 + 4 + 36 * $1.count } })
        out.append(contentsOf: magic)
        func put64(_ v: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) } }
        func put32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) } }
        put32(UInt32(order.reduce(0) { $0 + (histories[$1] == nil ? 0 : 1) }))
        for name in order {
            guard let index = histories.index(forKey: name) else { continue }
            let history = histories.values[index]
            put32(UInt32(name.utf8.count))
            out.append(contentsOf: name.utf8)
            put32(UInt32(history.levels.count))
            for level in history.levels {
                put32(UInt32(level.reduce(0) { $0 + ($1.count > 0 ? 1 : 0) }))
                for b in level where b.count > 0 {
                    put64(UInt64(bitPattern: b.index))
                    put64(b.minimum.bitPattern)
                    put64(b.maximum.bitPattern)
                    put64(b.sum.bitPattern)
                    put32(b.count)
                }
            }
        }
    }

    /// The histories in a file, or nil when it is missing or damaged (see `read`).
    static func load(_ path: String) -> [String: History]? {
        guard let loaded = read(path), !loaded.damaged else { return nil }
        return loaded.histories
    }

    /// The histories in a file (nil when there is none): every stream read whole before any
    /// damage is kept, the one the damage falls in and those after it are not (a stream is
    /// never half read), and `damaged` says so.
    package static func read(_ path: String) -> (histories: [String: History], damaged: Bool)? {
        guard let bytes = try? readStoreBytes(path) else { return nil }
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { return ([:], true) }
        var result: [String: History] = [:]
        let complete = parse(bytes, into: &result)
        return (result, !complete)
    }

    /// Whether `bytes` read as a history file whole, to its last byte (a backup's copy is
    /// checked with this before it is restored).
    static func isWhole(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { return false }
        var result: [String: History] = [:]
        return parse(bytes, into: &result)
    }

    /// Reads streams into `result` until the end (true) or the first damage (false).
    private static func parse(_ bytes: [UInt8], into result: inout [String: History]) -> Bool {
        var offset = magic.count
        func get32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
        }
        func get64() -> UInt64? {
            guard offset + 8 <= bytes.count else { return nil }
            defer { offset += 8 }
            return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }
        guard let streams = get32(), streams <= 64 else { return false }
        for _ in 0..<streams {
            guard let length = get32(), length <= 64, offset + Int(length) <= bytes.count else { return false }
            let name = String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self)
            offset += Int(length)
            var history = History()
            guard let levels = get32(), levels <= 8 else { return false }
            for level in 0..<Int(levels) {
                guard let count = get32(), count <= 4096 else { return false }
                for _ in 0..<count {
                    guard let index = get64(), let minimum = get64(), let maximum = get64(), let sum = get64(), let n = get32() else { return false }
                    history.restore(
                        level: level,
                        bucket: History.Bucket(
                            index: Int64(bitPattern: index), minimum: Double(bitPattern: minimum),
                            maximum: Double(bitPattern: maximum), sum: Double(bitPattern: sum), count: n))
                }
            }
            result[name] = history
        }
        return offset == bytes.count
    }
}

/// The streams the history keeps, and a range of one read back from disk.
public enum HistoryStreams {
    /// What is wrong with the history file, if it is damaged (for the command line to say).
    public static func damage(dataDirectory: String) -> String? {
        let path = dataDirectory + "/history.bin"
        guard let loaded = HistoryFile.read(path), loaded.damaged else { return nil }
        let kept = loaded.histories.keys.sorted()
        return "\(path) is damaged: " + (kept.isEmpty ? "nothing could be read from it" : "only " + kept.joined(separator: ", ") + " could be read")
    }

    public static let names = [
        "pressure", "seaLevelPressure", "altitude", "temperature", "humidity",
        "waterTemperature", "windSpeed", "windGust"
    ]

    /// The Zambretti forecast from the kept sea-level pressure (its newest minute and the change
    /// over the 3 hours before) when that minute is at most an hour before `now`: what the
    /// command line gives beside departures and waves. The kept history has no wind direction.
    public static func outlook(dataDirectory: String, now: Double, latitude: Double?) -> WeatherOutlook? {
        guard let history = HistoryFile.read(dataDirectory + "/history.bin")?.histories["seaLevelPressure"],
            let newest = history.newest(changeOver: 3 * 3600), newest.time <= now + 60, now - newest.time <= 3600
        else { return nil }
        return WeatherOutlook(seaLevelPressure: newest.value, threeHourChange: newest.change, windFrom: nil, time: newest.time, latitude: latitude)
    }

    /// The range ending at the stream's newest data (the device may have been off since);
    /// nil when there is no history file.
    public static func summary(dataDirectory: String, stream: String, range: History.Range) -> History.Summary? {
        guard let histories = HistoryFile.read(dataDirectory + "/history.bin")?.histories else { return nil }
        let history = histories[stream] ?? History()
        let newest = history.levels[0].filter { $0.count > 0 }.map(\.index).max().map { Double($0) * History.Range.hour.width } ?? 0
        return history.summary(range, now: newest)
    }
}
