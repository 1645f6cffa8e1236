import LodestoneCore

/// The comma-separated fields of one checksum-verified NMEA sentence, read in place.
/// Field 0 is the address ("GPGGA"); numbers are parsed without allocating.
public struct NMEAFields {
    /// The sentence between `$` and `*`.
    private let base: UnsafePointer<UInt8>
    private let length: Int
    /// Where each field starts (one past its comma), and after the last one where the sentence
    /// ends plus one, as small offsets: the table is 32 bytes, cheap to carry by value.
    private var starts: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    public private(set) var count = 0
    static let capacity = 24

    /// Splits `sentence` ("$GPGGA,...*hh") after checking its checksum, in one pass; nil when it
    /// is not a valid sentence (or longer than 255 bytes, far beyond NMEA's 82).
    public init?(_ sentence: UnsafeBufferPointer<UInt8>) {
        guard sentence.count >= 9, sentence.count <= 255, let start = sentence.baseAddress,
            start[0] == UInt8(ascii: "$") || start[0] == UInt8(ascii: "!")
        else { return nil }
        let star = sentence.count - 3
        guard start[star] == UInt8(ascii: "*"),
            let high = Self.hexValue(start[star + 1]), let low = Self.hexValue(start[star + 2])
        else { return nil }
        base = start + 1
        length = star - 1
        var fields = 1
        var table = starts
        var folded: UInt64 = 0
        withUnsafeMutableBytes(of: &table) { raw in
            raw[0] = 0
            // Eight bytes at a time: the checksum is the XOR of the words folded to one byte,
            // and the commas are the zero bytes of the word XOR ",,,,,,,,", found exactly
            // (no borrow between bytes) and taken lowest first. The last few bytes go one by one.
            let source = UnsafeRawPointer(base)
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
            var index = 0
            while index &+ 8 <= length {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                folded ^= word
                let x = word ^ commas
                var found = ~(((x & low7) &+ low7) | x | low7)
                // Up to eight entries past the last one kept (the table has 32), cut back after.
                while found != 0 {
                    raw[fields & 31] = UInt8(truncatingIfNeeded: index &+ found.trailingZeroBitCount >> 3 &+ 1)
                    fields &+= 1
                    found &= found &- 1
                }
                fields = min(fields, Self.capacity)
                index &+= 8
            }
            while index < length {
                let byte = base[index]
                folded ^= UInt64(byte)
                if byte == UInt8(ascii: ","), fields < Self.capacity {
                    raw[fields] = UInt8(truncatingIfNeeded: index &+ 1)
                    fields &+= 1
                }
                index &+= 1
            }
            // The end of the last field, as if a comma followed it.
            raw[fields] = UInt8(truncatingIfNeeded: length + 1)
        }
        folded ^= folded >> 32
        folded ^= folded >> 16
        folded ^= folded >> 8
        let checksum = UInt8(truncatingIfNeeded: folded)
        guard checksum == high << 4 | low else { return nil }
        starts = table
        count = fields
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Where field `field` lies in the sentence: from one past its comma to before the next.
    @inline(__always)
    private func range(_ field: Int) -> Range<Int> {
        guard field >= 0, field < count else { return 0..<0 }
        return withUnsafeBytes(of: starts) { table in
            Int(table[field & 31])..<(Int(table[(field &+ 1) & 31]) &- 1)
        }
    }

    public func isEmpty(_ field: Int) -> Bool { range(field).isEmpty }

    /// The sentence type without the talker ("GGA" for "GPGGA"), as a packed integer for cheap comparison.
    public var sentenceType: UInt32 {
        let r = range(0)
        guard r.count >= 3 else { return 0 }
        return UInt32(base[r.upperBound - 3]) << 16 | UInt32(base[r.upperBound - 2]) << 8 | UInt32(base[r.upperBound - 1])
    }

    /// The talker ("GP", "GN", "GL", ...) packed into an integer; 0 for proprietary sentences.
    public var talker: UInt16 {
        let r = range(0)
        guard r.count == 5 else { return 0 }
        return UInt16(base[r.lowerBound]) << 8 | UInt16(base[r.lowerBound + 1])
    }

    /// Whether this is the proprietary sentence `$P` + `name` ("GRMZ" for Garmin's `$PGRMZ`).
    public func isProprietary(_ name: StaticString) -> Bool {
        let r = range(0)
        guard r.count == name.utf8CodeUnitCount + 1, base[r.lowerBound] == UInt8(ascii: "P") else { return false }
        let p = name.utf8Start
        for offset in 0..<name.utf8CodeUnitCount where base[r.lowerBound + 1 + offset] != p[offset] { return false }
        return true
    }

    public static func type(_ name: StaticString) -> UInt32 {
        let p = name.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    /// The first character of a field (status letters, hemispheres), or 0 when empty.
    public func character(_ field: Int) -> UInt8 {
        let r = range(field)
        return r.isEmpty ? 0 : base[r.lowerBound]
    }

    /// A decimal number ("-12.345"), or NaN when the field is empty or not a number.
    public func number(_ field: Int) -> Double {
        let r = range(field)
        if let plain = plainDigits(r) { return Double(plain) }
        guard let digits = decimal(r) else { return .nan }
        // Both exact below 2^53 and 10^22: the quotient is the correctly rounded value, the same
        // a digit-by-digit reading in Doubles gives for every field a receiver writes.
        var value = Double(digits.mantissa)
        if digits.places > 0 { value /= DecimalText.powerOfTen(digits.places) }
        return digits.negative ? -value : value
    }

    /// An integer field ("08", "-3", "12.0"), or nil when it is empty, not a number or not whole.
    public func integer(_ field: Int) -> Int? {
        let r = range(field)
        if let plain = plainDigits(r) { return plain }
        guard var digits = decimal(r) else { return nil }
        while digits.places > 0 {
            guard digits.mantissa % 10 == 0 else { return nil }
            digits.mantissa /= 10
            digits.places -= 1
        }
        guard digits.mantissa <= 999_999_999 else { return nil }
        return digits.negative ? -Int(digits.mantissa) : Int(digits.mantissa)
    }

    /// A field (its range) of one to nine digits and nothing else, as an integer; nil for anything else
    /// (empty, signed, with a point), which `decimal` then reads. Most fields a receiver
    /// repeats are such: satellite numbers, angles, signal strengths, counts.
    @inline(__always)
    private func plainDigits(_ r: Range<Int>) -> Int? {
        guard r.count > 0 && r.count <= 9 else { return nil }
        var value = 0
        var index = r.lowerBound
        while index < r.upperBound, case let digit = base[index] &- UInt8(ascii: "0"), digit < 10 {
            value = value &* 10 &+ Int(digit)
            index &+= 1
        }
        return index == r.upperBound ? value : nil
    }

    /// A field's (its range's) digits as one integer and the places after the point; nil when the field is
    /// empty, holds anything but a sign, digits and one point, or more digits than a Double
    /// holds exactly (15).
    private func decimal(_ r: Range<Int>) -> (mantissa: UInt64, places: Int, negative: Bool)? {
        guard !r.isEmpty else { return nil }
        var index = r.lowerBound
        let end = r.upperBound
        let negative = base[index] == UInt8(ascii: "-")
        if negative || base[index] == UInt8(ascii: "+") { index &+= 1 }
        let first = index
        var mantissa: UInt64 = 0
        // The whole part, then after one point the fraction: a digit test per byte.
        while index < end, case let digit = base[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index &+= 1
        }
        var places = 0
        if index < end {
            guard base[index] == UInt8(ascii: ".") else { return nil }
            index &+= 1
            places = end &- index
            while index < end {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index &+= 1
            }
        }
        let digits = end &- first &- (places > 0 || base[end &- 1] == UInt8(ascii: ".") ? 1 : 0)
        guard digits > 0, digits <= 15 else { return nil }
        return (mantissa, places, negative)
    }

    /// A latitude or longitude ("ddmm.mmmm" + hemisphere field), degrees, or NaN.
    public func coordinate(_ field: Int, hemisphere: Int) -> Double {
        let raw = number(field)
        guard raw.isFinite, raw >= 0 else { return .nan }
        let degrees = (raw / 100).rounded(.down)
        let minutes = raw - degrees * 100
        guard minutes < 60 else { return .nan }
        let value = degrees + minutes / 60
        // A latitude beyond 90 or a longitude beyond 180 is a garbled field, not a place.
        switch character(hemisphere) {
        case UInt8(ascii: "N"): return value <= 90 ? value : .nan
        case UInt8(ascii: "S"): return value <= 90 ? -value : .nan
        case UInt8(ascii: "E"): return value <= 180 ? value : .nan
        case UInt8(ascii: "W"): return value <= 180 ? -value : .nan
        default: return .nan
        }
    }

    /// Seconds since midnight from "hhmmss.sss", or NaN.
    public func timeOfDay(_ field: Int) -> Double {
        let raw = number(field)
        guard raw.isFinite, raw >= 0 else { return .nan }
        let hours = (raw / 10_000).rounded(.down)
        let minutes = ((raw - hours * 10_000) / 100).rounded(.down)
        let seconds = raw - hours * 10_000 - minutes * 100
        guard hours < 24, minutes < 60, seconds < 61 else { return .nan }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// Days since 1970 from "ddmmyy" (years 80..99 are 1980s and 1990s), or nil.
    public func date(_ field: Int) -> Int? {
        guard let raw = integer(field), raw >= 10100 else { return nil }
        let day = raw / 10_000, month = raw / 100 % 100, year = raw % 100
        guard (1...31).contains(day), (1...12).contains(month) else { return nil }
        return CivilTime.days(year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day)
    }
}
