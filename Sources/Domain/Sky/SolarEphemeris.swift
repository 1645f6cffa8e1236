import LodestoneCore

/// The Sun's apparent geocentric place over a span of up to a few days, worked out in full
/// (the periodic series of `SolarPosition`, thousands of terms) at its start, middle and end
/// only, and interpolated between them: the place moves about a degree a day, smoothly, so a
/// parabola through three places is within a millionth of a degree of the series over a day.
/// What the observer sees at an instant is then a few trigonometric functions. A day's sun
/// events (hundreds of altitudes found by bisection) cost three series instead of hundreds.
public struct SolarEphemeris: Sendable {
    public let start: Double
    public let end: Double
    /// Each quantity at the start, middle and end: right ascension and ecliptic longitude
    /// unwrapped (no jump at 360), declination, distance, nutation in longitude, obliquity.
    private let rightAscension, longitude, declination, distance, nutation, obliquity: (Double, Double, Double)

    public init(from start: Double, to end: Double) {
        self.start = start
        self.end = max(end, start + 1)
        let places = [start, (start + self.end) / 2, self.end].map { t -> SolarPosition.Geocentric in
            let jd = t / 86_400 + 2_440_587.5
            let jce = (jd + DeltaT.seconds(julianDay: jd) / 86_400 - 2_451_545) / 36_525
            return SolarPosition.apparentPlace(jce: jce, jme: jce / 10)
        }
        func triple(_ value: (SolarPosition.Geocentric) -> Double, unwrapping: Bool = false) -> (Double, Double, Double) {
            var values = places.map(value)
            if unwrapping {
                for index in 1..<values.count { values[index] = values[index - 1] + Angle.signed(values[index] - values[index - 1]) }
            }
            return (values[0], values[1], values[2])
        }
        rightAscension = triple(\.rightAscension, unwrapping: true)
        longitude = triple(\.longitude, unwrapping: true)
        declination = triple(\.declination)
        distance = triple(\.distance)
        nutation = triple(\.nutationLongitude)
        obliquity = triple(\.obliquity)
    }

    /// The Sun at `unixTime` for an observer, as `SolarPosition.at` gives it, from the span's
    /// three places.
    public func position(at unixTime: Double, latitude: Double, longitude observer: Double, elevation: Double = 0) -> SolarPosition {
        let n = (unixTime - start) / (end - start)
        // Lagrange's parabola through n = 0, 1/2, 1.
        let (a, b, c) = ((2 * n - 1) * (n - 1), 4 * n * (1 - n), n * (2 * n - 1))
        func at(_ y: (Double, Double, Double)) -> Double { a * y.0 + b * y.1 + c * y.2 }
        let place = SolarPosition.Geocentric(
            longitude: Angle.heading(at(longitude)), rightAscension: Angle.heading(at(rightAscension)),
            declination: at(declination), distance: at(distance), nutationLongitude: at(nutation), obliquity: at(obliquity),
            heliocentricLongitude: .nan, heliocentricLatitude: .nan)
        return SolarPosition.seen(place, at: unixTime, latitude: latitude, longitude: observer, elevation: elevation)
    }
}
