import LodestoneCore

/// The comma-separated fields of one checksum-verified NMEA sentence, read in place.
/// Field 0 is the address ("GPGGA"); numbers are parsed without allocating.
public struct NMEAFields {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Start index and length of each field, for up to `capacity` fields.
    private var starts: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                         Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                    0, 0, 0, 0, 0, 0, 0, 0)
    public private(set) var count = 0
    static let capacity = 24

    /// Splits `sentence` ("$GPGGA,...*hh") after checking its checksum; nil when it is not a
    /// valid sentence.
    public init?(_ sentence: UnsafeBufferPointer<UInt8>) {
        guard sentence.count >= 9, sentence[0] == UInt8(ascii: "$") || sentence[0] == UInt8(ascii: "!") else { return nil }
        let star = sentence.count - 3
        guard sentence[star] == UInt8(ascii: "*"),
              let high = Self.hexValue(sentence[star + 1]), let low = Self.hexValue(sentence[star + 2]) else { return nil }
        var checksum: UInt8 = 0
        for index in 1..<star { checksum ^= sentence[index] }
        guard checksum == high << 4 | low else { return nil }
        bytes = UnsafeBufferPointer(rebasing: sentence[1..<star])
        var start = 0
        withUnsafeMutableBytes(of: &starts) { raw in
            let table = raw.bindMemory(to: Int.self)
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
                guard count < Self.capacity else { break }
                table[count] = start
                count += 1
                start = index + 1
            }
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private func range(_ field: Int) -> Range<Int> {
        guard field < count else { return 0..<0 }
        return withUnsafeBytes(of: starts) { raw in
            let table = raw.bindMemory(to: Int.self)
            let start = table[field]
            let end = field + 1 < count ? table[field + 1] - 1 : bytes.count
            return start..<end
        }
    }

    public func isEmpty(_ field: Int) -> Bool { range(field).isEmpty }

    /// The sentence type without the talker ("GGA" for "GPGGA"), as a packed integer for cheap comparison.
    public var sentenceType: UInt32 {
        let r = range(0)
        guard r.count >= 3 else { return 0 }
        return UInt32(bytes[r.upperBound - 3]) << 16 | UInt32(bytes[r.upperBound - 2]) << 8 | UInt32(bytes[r.upperBound - 1])
    }

    /// The talker ("GP", "GN", "GL", ...) packed into an integer; 0 for proprietary sentences.
    public var talker: UInt16 {
        let r = range(0)
        guard r.count == 5 else { return 0 }
        return UInt16(bytes[r.lowerBound]) << 8 | UInt16(bytes[r.lowerBound + 1])
    }

    /// Whether this is the proprietary sentence `$P` + `name` ("GRMZ" for Garmin's `$PGRMZ`).
    public func isProprietary(_ name: StaticString) -> Bool {
        let r = range(0)
        guard r.count == name.utf8CodeUnitCount + 1, bytes[r.lowerBound] == UInt8(ascii: "P") else { return false }
        let p = name.utf8Start
        for offset in 0..<name.utf8CodeUnitCount where bytes[r.lowerBound + 1 + offset] != p[offset] { return false }
        return true
    }

    public static func type(_ name: StaticString) -> UInt32 {
        let p = name.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    /// The first character of a field (status letters, hemispheres), or 0 when empty.
    public func character(_ field: Int) -> UInt8 {
        let r = range(field)
        return r.isEmpty ? 0 : bytes[r.lowerBound]
    }

    /// A decimal number ("-12.345"), or NaN when the field is empty or not a number.
    public func number(_ field: Int) -> Double {
        let r = range(field)
        guard !r.isEmpty else { return .nan }
        var index = r.lowerBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0.0
        var scale = 0.0
        var digits = 0
        while index < r.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard scale == 0 else { return .nan }
                scale = 1
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + Double(byte - UInt8(ascii: "0"))
                if scale != 0 { scale *= 10 }
                digits += 1
            } else {
                return .nan
            }
            index += 1
        }
        guard digits > 0 else { return .nan }
        if scale > 1 { value /= scale }
        return negative ? -value : value
    }

    /// An integer field, or nil.
    public func integer(_ field: Int) -> Int? {
        let value = number(field)
        return Int(whole: value, in: -999_999_999...999_999_999)
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
