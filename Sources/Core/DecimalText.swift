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
    /// is not finite as Swift writes it.
    public static func compact(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 17)) { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        // The digits go through Int64, so the scaled value must stay below 2^63.
        if abs(rounded) >= 1e-4 && abs(rounded) < 1e15 && abs(rounded) * scale < 9e18 {
            var digits = String(Int64((abs(rounded) * scale).rounded()))
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            let split = digits.index(digits.endIndex, offsetBy: -decimals)
            var fraction = String(digits[split...])
            while fraction.hasSuffix("0") { fraction.removeLast() }
            let whole = String(digits[..<split])
            return (rounded < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
        }
        return String(rounded)
    }
}

/// A number with `decimals` places at most for a person to read, or "--" when it is not known.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    value.isFinite ? DecimalText.compact(value, decimals) : "--"
}
