import Glibc

/// The scenario's wind and water, for the weather station's sensors: a cup anemometer, a vane
/// and a probe in the water. Pure functions of time, like the motion: a gust every two and a
/// half minutes (a smooth 6 s rise and fall, so the WMO gust, the highest 3 s mean, is known),
/// a slow swing of the direction, and water that warms a little through the day.
extension Scenario {
    /// The wind's mean over a long time (m/s), the direction it blows from (degrees true), and
    /// how much a gust adds at its peak (m/s).
    public var windClimate: (speed: Double, direction: Double, gust: Double) {
        switch name {
        case .boat: return (6.0, 240, 4.0)  // a sea breeze of about 12 knots, gusting 20
        case .walk: return (3.0, 300, 3.0)
        case .still: return (2.0, 200, 1.0)
        case .drive: return (4.0, 270, 2.0)
        }
    }

    static let gustEvery = 150.0, gustLength = 6.0

    /// Wind speed at the vane's height, m/s.
    public func windSpeed(at t: Double) -> Double {
        let climate = windClimate
        let wobble = 0.6 * sin(2 * Double.pi * t / 47)
        // Where in its cycle the gust is: a raised cosine over its 6 s, nothing between.
        let phase = t.truncatingRemainder(dividingBy: Self.gustEvery) - (Self.gustEvery - Self.gustLength)
        let gust = phase > 0 ? climate.gust * 0.5 * (1 - cos(2 * Double.pi * phase / Self.gustLength)) : 0
        return max(0, climate.speed + wobble + gust)
    }

    /// The direction the wind blows from, degrees true: the climate's, swinging 15 degrees
    /// either way over five minutes.
    public func windDirection(at t: Double) -> Double {
        let d = windClimate.direction + 15 * sin(2 * Double.pi * t / 300)
        return (d.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The wind over a deck moving at `speed` (m/s) on `course` over the ground, heading
    /// `heading` (degrees true): what cups and a vane turning with the hull measure, the speed
    /// (m/s) and the angle it blows from, degrees from the bow (0..<360, clockwise). At rest it
    /// is the true wind, turned by the heading.
    public func apparentWind(at t: Double, speed: Double, course: Double, heading: Double) -> (speed: Double, fromBow: Double) {
        let wind = windSpeed(at: t), from = windDirection(at: t) * Double.pi / 180
        // The air's motion over the ground (towards where the wind goes), less the deck's.
        let north = -wind * cos(from) - speed * cos(course * Double.pi / 180)
        let east = -wind * sin(from) - speed * sin(course * Double.pi / 180)
        let apparent = (north * north + east * east).squareRoot()
        let apparentFrom = apparent > 1e-9 ? atan2(-east, -north) * 180 / Double.pi : windDirection(at: t)
        let bow = (apparentFrom - heading).truncatingRemainder(dividingBy: 360)
        return (apparent, bow < 0 ? bow + 360 : bow)
    }

    /// The water's temperature at the probe, °C.
    public func waterTemperature(at t: Double) -> Double {
        let base: Double = name == .boat ? 19.5 : (name == .still ? 15.0 : 18.0)
        return base + 0.3 * sin(2 * Double.pi * t / 5400)
    }
}
