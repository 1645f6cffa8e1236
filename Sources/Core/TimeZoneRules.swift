import Glibc

/// A time zone: a fixed offset ("+02:00", "-0530", "UTC") or an IANA zone ("Europe/Zurich")
/// read from the system's TZif files (RFC 8536), with the POSIX rule in the file's footer for
/// instants after its last transition. `offset(at:)` gives seconds east of UTC.
public struct TimeZoneRules: Sendable {
    public let name: String
    private let transitions: [Int64]
    private let offsets: [Int32]  // per transition: the offset that starts there
    private let initial: Int32
    private let rule: PosixRule?
    /// Per transition, and before the first: what people call the time then ("CEST", "CET").
    private let names: [String]
    private let initialName: String

    public struct Failure: Error, CustomStringConvertible, Sendable { public var description: String }

    /// Coordinated Universal Time, the fallback when a configured zone cannot be read.
    public static let utc = TimeZoneRules(fixed: "UTC", offset: 0)

    private init(fixed name: String, offset: Int32) {
        (self.name, transitions, offsets, initial, rule) = (name, [], [], offset, nil)
        (names, initialName) = ([], Self.offsetName(Int(offset)))
    }

    /// "+02:00", "-05", "+0530", "UTC", "Z", or an IANA name; `nil` means the system's zone.
    public init(_ name: String?, zoneDirectory: String = "/usr/share/zoneinfo") throws(Failure) {
        let wanted = name ?? Self.systemZoneName()
        if let fixed = Self.fixedOffset(wanted) {
            (self.name, transitions, offsets, initial, rule) = (wanted, [], [], Int32(fixed), nil)
            (names, initialName) = ([], Self.offsetName(fixed))
            return
        }
        guard !wanted.contains(".."), !wanted.hasPrefix("/"),
            let bytes = Self.read(zoneDirectory + "/" + wanted), let parsed = Self.parse(bytes)
        else {
            throw Failure(description: "unknown time zone '\(wanted)': give an IANA name such as Europe/Zurich or an offset such as +02:00")
        }
        (self.name, transitions, offsets, initial, rule) = (wanted, parsed.transitions, parsed.offsets, parsed.initial, parsed.rule)
        (names, initialName) = (parsed.names, parsed.initialName)
    }

    /// What people call the time at `unixTime` in this zone: "CEST", "EST", or, where the zone
    /// has no letters for it (the database writes "+03"), "UTC+3".
    public func abbreviation(at unixTime: Double) -> String {
        let t = Int64(saturating: unixTime.rounded(.down))
        let name: String
        if let last = transitions.last, t >= last, let rule {
            name = rule.name(at: t)
        } else if transitions.isEmpty {
            name = rule?.name(at: t) ?? initialName
        } else {
            var low = 0, high = transitions.count
            while low < high {
                let middle = (low + high) / 2
                if transitions[middle] <= t { low = middle + 1 } else { high = middle }
            }
            name = low == 0 ? initialName : (names.indices.contains(low - 1) ? names[low - 1] : "")
        }
        return name.isEmpty || name.first == "+" || name.first == "-" ? Self.offsetName(offset(at: unixTime)) : name
    }

    /// "UTC", "UTC+2", "UTC-3:30": an offset as people write it.
    static func offsetName(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let text = minutes % 60 == 0 ? "\(minutes / 60)" : "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
        return "UTC" + (seconds < 0 ? "-" : "+") + text
    }

    /// Seconds east of UTC at the instant `unixTime`.
    public func offset(at unixTime: Double) -> Int {
        // Any instant, even one no file should hold (NaN, 1e19), is placed, never trapped on.
        let t = Int64(saturating: unixTime.rounded(.down))
        if let last = transitions.last, t >= last, let rule { return rule.offset(at: t) }
        if transitions.isEmpty { return rule?.offset(at: t) ?? Int(initial) }
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= t { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? Int(initial) : Int(offsets[low - 1])
    }

    /// The UTC instant of local midnight starting the civil date (year, month, day).
    public func midnight(year: Int, month: Int, day: Int) -> Double {
        let local = CivilTime(year: year, month: month, day: day).unixSeconds
        var guess = local - Double(offset(at: local))
        guess = local - Double(offset(at: guess))
        return guess
    }

    /// "2026-06-21T05:31:12+02:00": ISO-8601 with this zone's offset at that instant.
    public func iso8601(_ unixTime: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.iso8601Length) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            return String(decoding: UnsafeBufferPointer(start: base, count: writeISO8601(unixTime, to: base)), as: UTF8.self)
        }
    }

    /// The length of `iso8601`'s text.
    public static let iso8601Length = 25

    /// `iso8601` written at `destination` (room for `iso8601Length` bytes) without building a
    /// String (the sky's reports write several a minute); returns the bytes written.
    public func writeISO8601(_ unixTime: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let offset = offset(at: unixTime)
        let t = CivilTime(unixSeconds: (unixTime + Double(offset)).rounded())
        let year = min(max(t.year, 0), 9999)
        CivilTime.writeTwoDigits(year / 100, at: destination)
        CivilTime.writeTwoDigits(year % 100, at: destination + 2)
        destination[4] = UInt8(ascii: "-")
        CivilTime.writeTwoDigits(t.month, at: destination + 5)
        destination[7] = UInt8(ascii: "-")
        CivilTime.writeTwoDigits(t.day, at: destination + 8)
        destination[10] = UInt8(ascii: "T")
        // The second is whole (rounded above), and the hours of an offset are under 100.
        CivilTime.writeTwoDigits(t.hour, at: destination + 11)
        destination[13] = UInt8(ascii: ":")
        CivilTime.writeTwoDigits(t.minute, at: destination + 14)
        CivilTime.writeTwoDigits(Int(t.second), at: destination + 17)
        CivilTime.writeTwoDigits(abs(offset) / 3600, at: destination + 20)
        CivilTime.writeTwoDigits(abs(offset) / 60 % 60, at: destination + 23)
        destination[16] = UInt8(ascii: ":")
        destination[19] = UInt8(ascii: offset < 0 ? "-" : "+")
        destination[22] = UInt8(ascii: ":")
        return Self.iso8601Length
    }

    static func systemZoneName() -> String {
        if let text = read("/etc/timezone").map({ String(decoding: $0, as: UTF8.self) }),
            let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty
        {
            return String(line)
        }
        var buffer = [CChar](repeating: 0, count: 512)
        let n = readlink("/etc/localtime", &buffer, buffer.count - 1)
        if n > 0, let range = String(cString: buffer).firstRange(of: "zoneinfo/") {
            return String(String(cString: buffer)[range.upperBound...])
        }
        return "UTC"
    }

    /// Seconds for "+02:00", "-05", "+0530", "UTC", "Z".
    static func fixedOffset(_ text: String) -> Int? {
        if text == "UTC" || text == "Z" || text == "Etc/UTC" || text == "GMT" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isNumber), let value = Int(digits) else { return nil }
        let hours = digits.count == 2 ? value : value / 100, minutes = digits.count == 2 ? 0 : value % 100
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let fd = try? GuardedOpen.input(path) else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > 1 << 20 { return nil }
        }
        return bytes
    }

    /// TZif v1 to v4: the 64-bit block when there is one, and the footer rule.
    package static func parse(_ bytes: [UInt8]) -> (
        transitions: [Int64], offsets: [Int32], initial: Int32, rule: PosixRule?, names: [String], initialName: String
    )? {
        func be(_ at: Int, _ size: Int) -> Int64? {
            guard at >= 0, at <= bytes.count - size else { return nil }
            var v: Int64 = 0
            for i in 0..<size { v = v << 8 | Int64(bytes[at + i]) }
            if size == 4 && v >= 1 << 31 { v -= 1 << 32 }
            return v
        }
        guard bytes.count >= 44, Array(bytes[0..<4]) == Array("TZif".utf8) else { return nil }
        var start = 0, timeSize = 4
        // Each count is a 32-bit field of a file that may be damaged: none may be negative, and
        // none larger than the file (every entry takes at least a byte), so no offset computed
        // from them can leave it or overflow.
        func counts(_ at: Int) -> [Int]? {
            let values = (0..<6).compactMap { be(at + 20 + 4 * $0, 4) }
            guard values.count == 6, values.allSatisfy({ $0 >= 0 && $0 <= Int64(bytes.count) }) else { return nil }
            return values.map { Int($0) }
        }
        guard var c = counts(0) else { return nil }
        if bytes[4] >= UInt8(ascii: "2") {
            // Skip the v1 block: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
            let v1 = 44 + c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
            start = v1
            timeSize = 8
            guard let c2 = counts(start) else { return nil }
            c = c2
        }
        let (isut, isstd, leap, timecnt, typecnt, charcnt) = (c[0], c[1], c[2], c[3], c[4], c[5])
        guard typecnt > 0 else { return nil }
        var at = start + 44
        var transitions: [Int64] = [], indices: [Int] = []
        for _ in 0..<timecnt { guard let t = be(at, timeSize) else { return nil }; transitions.append(t); at += timeSize }
        for _ in 0..<timecnt { guard at < bytes.count else { return nil }; indices.append(Int(bytes[at])); at += 1 }
        var types: [Int32] = [], nameIndices: [Int] = []
        for _ in 0..<typecnt {
            guard let off = be(at, 4), at + 5 < bytes.count else { return nil }
            types.append(Int32(off))
            nameIndices.append(Int(bytes[at + 5]))
            at += 6
        }
        // The abbreviations: NUL-terminated strings in one block, each type naming its start.
        let letters = at <= bytes.count - charcnt ? Array(bytes[at..<(at + charcnt)]) : []
        let typeNames = nameIndices.map { start in
            start < letters.count ? String(decoding: letters[start...].prefix { $0 != 0 }, as: UTF8.self) : ""
        }
        at += charcnt + leap * (timeSize + 4) + isstd + isut
        guard indices.allSatisfy({ $0 < types.count }) else { return nil }
        var rule: PosixRule?
        if timeSize == 8, at < bytes.count, bytes[at] == UInt8(ascii: "\n") {
            let footer = bytes[(at + 1)...].prefix { $0 != UInt8(ascii: "\n") }
            rule = PosixRule(String(decoding: footer, as: UTF8.self))
        }
        return (transitions, indices.map { types[$0] }, types[0], rule, indices.map { typeNames[$0] }, typeNames[0])
    }

    /// Whole calendar days in this zone from the local date of `start` to that of `end`
    /// ("in 3 days" counts midnights, not 24-hour periods).
    public func localDays(from start: Double, to end: Double) -> Int {
        func localDay(_ t: Double) -> Int { Int(((t + Double(offset(at: t))) / 86_400).rounded(.down)) }
        return localDay(end) - localDay(start)
    }
}

/// A POSIX TZ rule such as "CET-1CEST,M3.5.0,M10.5.0/3" (only the M month.week.day form, which
/// every current zone uses).
package struct PosixRule: Sendable {
    let standard: Int, daylight: Int?
    /// What the standard and the daylight time are called ("CET", "CEST"; "+03" in angle brackets).
    private(set) var standardName = "", daylightName = ""
    let start: (month: Int, week: Int, weekday: Int, time: Int)?
    let end: (month: Int, week: Int, weekday: Int, time: Int)?

    init?(_ text: String) {
        var rest = Substring(text)
        func name() -> String? {
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { return nil }
                let inside = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
                return inside
            }
            let letters = rest.prefix { $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
            return String(letters)
        }
        func offset() -> Int? {
            var sign = 1
            if rest.first == "+" { rest = rest.dropFirst() } else if rest.first == "-" { sign = -1; rest = rest.dropFirst() }
            let part = rest.prefix { $0.isNumber || $0 == ":" }
            guard !part.isEmpty else { return nil }
            rest = rest.dropFirst(part.count)
            let fields = part.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            // POSIX: hours up to 167 (a week, for transition times), minutes and seconds under 60.
            guard (1...3).contains(fields.count), let hours = fields[0], (0...167).contains(hours),
                fields.dropFirst().allSatisfy({ $0.map { (0...59).contains($0) } ?? false })
            else { return nil }
            let seconds = hours * 3600 + (fields.count > 1 ? (fields[1] ?? 0) * 60 : 0) + (fields.count > 2 ? (fields[2] ?? 0) : 0)
            return sign * seconds
        }
        guard let standardName = name(), let std = offset() else { return nil }
        self.standardName = standardName
        standard = -std  // POSIX counts west as positive
        guard !rest.isEmpty else { (daylight, start, end) = (nil, nil, nil); return }
        guard let daylightName = name() else { return nil }
        self.daylightName = daylightName
        if rest.first != "," { daylight = offset().map { -$0 } ?? standard + 3600 } else { daylight = standard + 3600 }
        func date() -> (Int, Int, Int, Int)? {
            guard rest.first == ",", rest.dropFirst().first == "M" else { return nil }
            rest = rest.dropFirst(2)
            let spec = rest.prefix { $0.isNumber || $0 == "." }
            rest = rest.dropFirst(spec.count)
            let parts = spec.split(separator: ".").compactMap { Int($0) }
            guard parts.count == 3, (1...12).contains(parts[0]), (1...5).contains(parts[1]), (0...6).contains(parts[2]) else { return nil }
            var time = 7200
            if rest.first == "/" { rest = rest.dropFirst(); guard let t = offset() else { return nil }; time = t }
            return (parts[0], parts[1], parts[2], time)
        }
        guard let s = date(), let e = date() else { return nil }
        (start, end) = ((s.0, s.1, s.2, s.3), (e.0, e.1, e.2, e.3))
    }

    /// The name of the time in force at `t`.
    func name(at t: Int64) -> String { offset(at: t) == standard ? standardName : daylightName }

    func offset(at t: Int64) -> Int {
        guard let daylight, let start, let end else { return standard }
        let year = CivilTime(unixSeconds: Double(t) + Double(standard)).year
        func instant(_ r: (month: Int, week: Int, weekday: Int, time: Int), offset: Int) -> Int64 {
            let first = CivilTime.days(year: year, month: r.month, day: 1)
            let firstWeekday = ((first % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
            var day = 1 + (r.weekday - firstWeekday + 7) % 7 + (r.week - 1) * 7
            let monthDays = CivilTime.days(year: r.month == 12 ? year + 1 : year, month: r.month == 12 ? 1 : r.month + 1, day: 1) - first
            while day > monthDays { day -= 7 }
            return Int64((first + day - 1) * 86_400 + r.time - offset)
        }
        let begins = instant(start, offset: standard), ends = instant(end, offset: daylight)
        let inside = begins < ends ? (t >= begins && t < ends) : (t >= begins || t < ends)
        return inside ? daylight : standard
    }
}
