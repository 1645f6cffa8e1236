/// Angle helpers. Public interfaces speak degrees (what people and gpsd use); the maths inside
/// works in radians.
public enum Angle {
    public static let degreesPerRadian = 180.0 / Double.pi

    @inline(__always) public static func radians(_ degrees: Double) -> Double { degrees / degreesPerRadian }
    @inline(__always) public static func degrees(_ radians: Double) -> Double { radians * degreesPerRadian }

    /// Wraps any angle in degrees into 0..<360 (a compass heading).
    public static func heading(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value == 360 ? 0 : value
    }

    /// Wraps any angle in degrees into -180..<180 (a signed difference between headings).
    public static func signed(_ degrees: Double) -> Double {
        let wrapped = heading(degrees + 180) - 180
        return wrapped
    }
}
