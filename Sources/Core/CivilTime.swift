/// UTC calendar arithmetic on the proleptic Gregorian calendar, without Foundation:
/// what NMEA sentences and ISO-8601 timestamps need.
public struct CivilTime: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Double

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The instants a calendar date is written for: 0001-01-01 to 9999-12-31 (four-digit years).
    public static let writableSeconds = -62_135_596_800.0...253_402_300_799.0

    /// Splits seconds since 1970-01-01T00:00:00Z into a calendar date and time of day. An
    /// instant outside `writableSeconds` (a damaged file's 1e308, NaN) is held at its nearer
    /// end rather than trapping: callers that read stored times check them first.
    public init(unixSeconds: Double) {
        let unixSeconds = unixSeconds.isNaN ? 0 : min(max(unixSeconds, Self.writableSeconds.lowerBound), Self.writableSeconds.upperBound)
        let whole = unixSeconds.rounded(.down)
        var days = Int(whole / 86_400)
        var secondOfDay = whole - Double(days) * 86_400
        if secondOfDay < 0 { days -= 1; secondOfDay += 86_400 }
        (year, month, day) = Self.civil(fromDays: days)
        hour = Int(secondOfDay) / 3600
        minute = Int(secondOfDay) / 60 % 60
        second = Double(Int(secondOfDay) % 60) + (unixSeconds - whole)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    public var unixSeconds: Double {
        Double(Self.days(year: year, month: month, day: day)) * 86_400
            + Double(hour * 3600 + minute * 60) + second
    }

    /// The weekday of a day counted from 1970-01-01 (a Thursday): 0 Monday ... 6 Sunday.
    public static func weekday(days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }

    /// Days since 1970-01-01 of a calendar date (counting in 400-year eras of 146097 days).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Seconds since 1970 of an ISO-8601 date-time: `2026-06-21T08:00:00Z`, with optional
    /// fractional seconds and a `Z` or `±hh:mm` offset (none means UTC); nil when malformed.
    /// A calendar date written `YYYY-MM-DD` (a four-digit year, a day its month has); nil
    /// otherwise: 2026-02-30, year 10000 and -001 are not dates.
    public static func parseDate(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func parseISO8601(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var value = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count >= 19, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
            chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "), chars[13] == UInt8(ascii: ":"),
            chars[16] == UInt8(ascii: ":"), let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let whole = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, whole < 61
        else { return nil }
        var index = 19
        var second = Double(whole)
        if index < chars.count && chars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < chars.count, chars[index] >= 48 && chars[index] <= 57 {
                second += Double(chars[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < chars.count {
            switch chars[index] {
            case UInt8(ascii: "Z"): index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard let h = number(index + 1, 2), chars.count > index + 3 else { return nil }
                let colon = chars[index + 3] == UInt8(ascii: ":") ? 1 : 0
                guard let m = number(index + 3 + colon, 2), h < 24, m < 60 else { return nil }
                offset = (h * 3600 + m * 60) * (chars[index] == UInt8(ascii: "-") ? -1 : 1)
                index += 5 + colon
            default: return nil
            }
        }
        guard index == chars.count else { return nil }
        return CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second).unixSeconds - Double(offset)
    }

    /// ISO-8601 in UTC with millisecond precision and an explicit `Z`, as gpsd reports time.
    /// "20260621-080000": a file name's stamp, sorting as time does.
    public var compactStamp: String {
        func two(_ v: Int) -> String { (v < 10 ? "0" : "") + String(v) }
        return String(year) + two(month) + two(day) + "-" + two(hour) + two(minute) + two(Int(second))
    }

    public var iso8601: String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            return String(decoding: UnsafeBufferPointer(start: base, count: writeISO8601(to: base)), as: UTF8.self)
        }
    }

    /// `iso8601` written at `destination` (room for 24 bytes) without building a String (the
    /// reports' times); returns the bytes written.
    public func writeISO8601(to destination: UnsafeMutablePointer<UInt8>) -> Int {
        // To the nearest millisecond: a receiver's "12.949" is 12.94899... once it has been
        // added to a day's seconds, and cutting it would write .948. A second that rounds up
        // to 60 is written as the next minute's (a whole second is exact in a Double).
        let millis = Int((second * 1000).rounded())
        if millis >= 60_000 { return CivilTime(unixSeconds: unixSeconds.rounded(.up)).writeISO8601(to: destination) }
        let year = min(max(self.year, 0), 9999)
        Self.writeTwoDigits(year / 100, at: destination)
        Self.writeTwoDigits(year % 100, at: destination + 2)
        destination[4] = UInt8(ascii: "-")
        Self.writeTwoDigits(month, at: destination + 5)
        destination[7] = UInt8(ascii: "-")
        Self.writeTwoDigits(day, at: destination + 8)
        destination[10] = UInt8(ascii: "T")
        Self.writeTimeOfDay(milliseconds: (hour * 3600 + minute * 60) * 1000 + millis, to: destination + 11)
        return 24
    }

    /// "hh:mm:ss.mmmZ" (13 bytes) of the milliseconds since midnight, at `destination`. In
    /// 32-bit arithmetic, where dividing by a constant is a multiply and a shift.
    static func writeTimeOfDay(milliseconds ofDay: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let milliseconds = UInt32(truncatingIfNeeded: min(max(ofDay, 0), 99 * 3_600_000))
        let seconds = milliseconds / 1000, minutes = seconds / 60, hours = minutes / 60
        let fraction = milliseconds &- seconds &* 1000, tenths = fraction / 100
        DecimalText.writePair(hours, at: destination)
        destination[2] = UInt8(ascii: ":")
        DecimalText.writePair(minutes &- hours &* 60, at: destination + 3)
        destination[5] = UInt8(ascii: ":")
        DecimalText.writePair(seconds &- minutes &* 60, at: destination + 6)
        destination[8] = UInt8(ascii: ".")
        destination[9] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tenths)
        DecimalText.writePair(fraction &- tenths &* 100, at: destination + 10)
        destination[12] = UInt8(ascii: "Z")
    }

    package static func writeTwoDigits(_ value: Int, at destination: UnsafeMutablePointer<UInt8>) {
        DecimalText.writePair(UInt32(truncatingIfNeeded: value.magnitude % 100), at: destination)
    }
}

/// `value` in decimal with leading zeros to at least `width` digits (dates, NMEA fields).
public func zeroPadded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}

/// Writes UTC times as `CivilTime.iso8601` does, for a writer of many times: the date is worked
/// out once per day and kept; the time of day comes from whole milliseconds.
public struct ISO8601Writer: Sendable {
    private var day = Int.min
    /// "YYYY-MM-DDT" of `day` (11 bytes).
    private var date: (UInt64, UInt64) = (0, 0)

    public init() {}

    /// Writes `utc` (seconds since 1970) at `destination` (room for 24 bytes); returns the bytes written.
    public mutating func write(_ utc: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        // An instant outside the calendar's years is written as CivilTime holds it.
        guard utc >= CivilTime.writableSeconds.lowerBound, utc < CivilTime.writableSeconds.upperBound - 1 else {
            return CivilTime(unixSeconds: utc).writeISO8601(to: destination)
        }
        // To the nearest millisecond, half away from zero, without a call into libm.
        let scaled = utc * 1000
        var millis = Int(scaled)
        let remainder = scaled - Double(millis)
        if remainder >= 0.5 { millis += 1 } else if remainder <= -0.5 { millis -= 1 }
        var dayNumber = millis / 86_400_000
        var ofDay = millis - dayNumber * 86_400_000
        if ofDay < 0 {
            dayNumber -= 1
            ofDay += 86_400_000
        }
        if dayNumber != day {
            let midnight = CivilTime(unixSeconds: Double(dayNumber) * 86_400)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { whole in
                guard let base = whole.baseAddress else { return }
                _ = midnight.writeISO8601(to: base)
                withUnsafeMutableBytes(of: &date) { kept in
                    for index in 0..<11 { kept[index] = base[index] }
                }
            }
            day = dayNumber
        }
        // Sixteen bytes in two stores: the five after the date are written over by the time.
        let target = UnsafeMutableRawPointer(destination)
        target.storeBytes(of: date.0, as: UInt64.self)
        target.storeBytes(of: date.1, toByteOffset: 8, as: UInt64.self)
        CivilTime.writeTimeOfDay(milliseconds: ofDay, to: destination + 11)
        return 24
    }
}
