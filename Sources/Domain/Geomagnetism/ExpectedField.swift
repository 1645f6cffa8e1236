/// Earth's field where the device is, as the heading needs it: declination for true north,
/// and strength and dip to recognise interference. Plain values, handed between threads.
public struct ExpectedField: Sendable, Equatable, BitwiseCopyable {
    /// Degrees, east positive.
    public var declination: Double
    /// Degrees, down positive.
    public var inclination: Double
    /// Microtesla.
    public var strength: Double
    /// Horizontal strength over total: how much of the field a compass can use.
    public var horizontalFraction: Double

    public init(declination: Double, inclination: Double, strength: Double, horizontalFraction: Double) {
        self.declination = declination
        self.inclination = inclination
        self.strength = strength
        self.horizontalFraction = horizontalFraction
    }

    public init(_ field: GeomagneticField) {
        self.init(
            declination: field.declination, inclination: field.inclination, strength: field.totalIntensity / 1000,
            horizontalFraction: field.totalIntensity > 0 ? field.horizontalIntensity / field.totalIntensity : 0)
    }
}
