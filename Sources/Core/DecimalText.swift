/// Decimal text without Foundation, the project's one number formatter: `format` writes exactly
/// `decimals` places (trailing zeros kept) for the formats that fix the number of places
/// (NMEA 0183, tables); `compact` rounds to `decimals` places and drops trailing zeros, for JSON
/// numbers and messages.
public enum DecimalText {
    /// A value that is not finite is written as `unknown` when given, else as Swift writes it
    /// ("nan", "inf"); one too large for fixed places (1e12 and beyond) as Swift writes it.
    public static func format(_ value: Double, _ decimals: Int, unknown: String? = nil) -> String {
        if !value.isFinite, let unknown { return unknown }
        guard value.isFinite, abs(value) < 1e12, (0...6).contains(decimals) else { return value.isNaN ? "nan" : String(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// Rounded to `decimals` places, trailing zeros dropped ("2.5", "3", "-0.01"); a value that
    /// is not finite, or too large for its places, as Swift writes it.
    public static func compact(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return String(value) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCompactLength) { buffer in
            guard let base = buffer.baseAddress else { return String(value) }
            return String(decoding: UnsafeBufferPointer(start: base, count: writeCompact(value, decimals, to: base)), as: UTF8.self)
        }
    }

    /// The most bytes `writeCompact` writes: a sign, 16 digits and a point.
    public static let maximumCompactLength = 32

    /// `compact` written at `destination` (room for `maximumCompactLength` bytes), without
    /// building a String: the JSON writer's numbers. Returns the bytes written. The digits come
    /// from one integer (exact below 2^53), so a value is written as the nearest multiple of its
    /// last place, with no exponent; a large value keeps the places its digits can hold, and one
    /// beyond 9e15 or not finite is written as a whole number or 0.
    public static func writeCompact(_ value: Double, _ decimals: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let places = UInt(bitPattern: decimals) <= 15 ? decimals : (decimals < 0 ? 0 : 15)
        let product = value * powerOfTen(places)
        guard product.magnitude < 9e15 else { return writeCompactWide(value, places, to: destination) }
        let units = roundedMagnitude(product)
        guard units != 0 else {
            destination[0] = UInt8(ascii: "0")
            return 1
        }
        var length = 0
        if product < 0 {
            destination[0] = UInt8(ascii: "-")
            length = 1
        }
        // Most of what the device writes has three places (an IMU report is twelve such
        // numbers): those are split and written with divisions by constants, which the
        // compiler turns into multiplications.
        if places == 3 {
            let whole = units / 1000
            length &+= writeWhole(whole, to: destination + length)
            return length &+ writeThousandths(UInt32(truncatingIfNeeded: units &- whole &* 1000), to: destination + length)
        }
        // The whole part, then the fraction's places with its trailing zeros cut from the text
        // (a byte compared per zero, where cutting them from the number costs a division each).
        let unit = powerOfTen(whole: places)
        let whole = units / unit
        var fraction = units &- whole &* unit
        length &+= writeWhole(whole, to: destination + length)
        guard fraction != 0 else { return length }
        destination[length] = UInt8(ascii: ".")
        var end = length &+ 1 &+ places
        if places <= 8 {
            writeSmall(UInt32(truncatingIfNeeded: fraction), count: places, endingAt: destination + end)
        } else {
            writeDigits(&fraction, count: places, endingAt: destination + end)
        }
        while destination[end &- 1] == UInt8(ascii: "0") { end &-= 1 }
        return end
    }

    /// Three places of a fraction (0...999) as `.ddd` with its trailing zeros left out, nothing
    /// for 0; returns the bytes written.
    @inline(__always)
    static func writeThousandths(_ fraction: UInt32, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        guard fraction != 0 else { return 0 }
        let tenths = fraction / 100, hundredths = fraction &- tenths &* 100
        destination[0] = UInt8(ascii: ".")
        destination[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tenths)
        guard hundredths != 0 else { return 2 }
        writePair(hundredths, at: destination + 2)
        return hundredths % 10 == 0 ? 3 : 4
    }

    /// `writeCompact` for a value whose places hold more digits than a Double does exactly:
    /// fewer places, down to none, then the whole number clamped (0 when not finite).
    @usableFromInline @inline(never)
    static func writeCompactWide(_ value: Double, _ places: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var places = places
        while places > 0 {
            places -= 1
            if (value * powerOfTen(places)).magnitude < 9e15 { return writeCompact(value, places, to: destination) }
        }
        guard value.isFinite else { return writeInteger(0, to: destination) }
        let rounded = value.rounded()
        return writeInteger(Int(rounded.magnitude < 9.2e18 ? rounded : (value < 0 ? -9.2e18 : 9.2e18)), to: destination)
    }

    /// |value| rounded half away from zero, as `rounded()` does, for |value| < 2^52 and without
    /// a call into libm: there the truncation and the remainder are exact.
    @inlinable @inline(__always)
    static func roundedMagnitude(_ value: Double) -> UInt64 {
        // Through Int64, whose conversions are single instructions (UInt64's are not).
        let magnitude = value.magnitude
        let truncated = Int64(magnitude)
        return UInt64(truncatingIfNeeded: magnitude - Double(truncated) >= 0.5 ? truncated &+ 1 : truncated)
    }

    /// A whole number in decimal at `destination` (room for 20 bytes); returns the bytes written.
    @inlinable @inline(__always)
    public static func writeInteger(_ value: Int, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return writeWhole(UInt64(value), to: destination) }
        destination[0] = UInt8(ascii: "-")
        return 1 &+ writeWhole(UInt64(value.magnitude), to: destination + 1)
    }

    /// `value`'s digits at `destination`; returns how many. Up to three digits (most of what a
    /// report holds: satellite numbers, angles, signal strengths) without counting them first.
    @inlinable @inline(__always)
    static func writeWhole(_ value: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            destination[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        if value < 100 {
            writePair(UInt32(truncatingIfNeeded: value), at: destination)
            return 2
        }
        if value < 1000 {
            let small = UInt32(truncatingIfNeeded: value), hundreds = small / 100
            destination[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
            writePair(small &- hundreds &* 100, at: destination + 1)
            return 3
        }
        return writeLong(value, to: destination)
    }

    /// `writeWhole` for four digits and more.
    @usableFromInline @inline(never)
    static func writeLong(_ value: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var rest = value
        let digits = decimalDigits(value)
        writeDigits(&rest, count: digits, endingAt: destination + digits)
        return digits
    }

    /// The decimal digits of `value` (1 for 0): estimated from its bit length (log10 2 is about
    /// 1233/4096), then corrected by one comparison.
    @inlinable @inline(__always)
    static func decimalDigits(_ value: UInt64) -> Int {
        let bits = 64 &- value.leadingZeroBitCount
        let estimate = (bits &* 1233) >> 12
        return estimate &+ (value >= powerOfTen(whole: estimate) ? 1 : 0) + (value == 0 ? 1 : 0)
    }

    /// 10^exponent for 0...19 as an integer.
    @inlinable @inline(__always)
    static func powerOfTen(whole exponent: Int) -> UInt64 {
        switch exponent {
        case ...0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        default: return 10_000_000_000_000_000_000
        }
    }

    /// The last `count` digits of `value`, written backwards from just before `end`; `value`
    /// keeps what is left. Eight digits at a time in 32 bits, where the divisions are cheaper.
    @inlinable @inline(__always)
    static func writeDigits(_ value: inout UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var position = end
        var left = count
        while left >= 8 {
            writeSmall(UInt32(truncatingIfNeeded: value % 100_000_000), count: 8, endingAt: position)
            value /= 100_000_000
            position -= 8
            left -= 8
        }
        guard left > 0 else { return }
        let scale = powerOfTen(whole: left)
        writeSmall(UInt32(truncatingIfNeeded: value % scale), count: left, endingAt: position)
        value /= scale
    }

    /// `count` (at most 8) digits of `value`, leading zeros included, two at a time from a table.
    @inlinable @inline(__always)
    static func writeSmall(_ value: UInt32, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var rest = value, position = end, left = count
        while left >= 2 {
            let next = rest / 100
            position -= 2
            writePair(rest &- next &* 100, at: position)
            rest = next
            left -= 2
        }
        if left == 1 {
            position -= 1
            position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        }
    }

    /// `value` (0...99; more is written as 99) as two digits at `destination`, copied from a
    /// table of the hundred pairs.
    @inlinable @inline(__always)
    public static func writePair(_ value: UInt32, at destination: UnsafeMutablePointer<UInt8>) {
        let pairs: StaticString =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let pair = UnsafeRawPointer(pairs.utf8Start).loadUnaligned(fromByteOffset: Int(min(value, 99)) &* 2, as: UInt16.self)
        UnsafeMutableRawPointer(destination).storeBytes(of: pair, as: UInt16.self)
    }

    /// 10^places for 0...15, exactly (the readers and writers of decimal text share it).
    @inlinable @inline(__always)
    public static func powerOfTen(_ places: Int) -> Double {
        switch places {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        default: return 1e15
        }
    }
}

/// A number with `decimals` places at most for a person to read, or "--" when it is not known.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    value.isFinite ? DecimalText.compact(value, decimals) : "--"
}
