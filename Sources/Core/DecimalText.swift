/// Fixed-point text without Foundation: exactly `decimals` places, trailing zeros kept, for
/// messages, tables and the formats that fix the number of places (NMEA 0183). The one
/// fixed-point formatter of the project; JSON numbers (trailing zeros dropped) are the JSON
/// writer's own.
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
}
