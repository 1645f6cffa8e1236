import LodestoneCore

/// The sky of one local day at one place, worked out once when the day (or the place) begins:
/// the Sun's places and its events, the Moon's elongation and lit fraction at the day's start,
/// middle and end, the new moons either side and the seasons around it. Every figure a running
/// device shows during the day (the Sun now, day or night, the Moon's phase, lit fraction and
/// age, the season and its countdown) then comes from these by interpolation and arithmetic,
/// with no series: the Moon's and the seasons' take thousands of terms each.
public struct SkyDay: Sendable {
    public let start: Double
    public let end: Double
    public let latitude: Double
    public let longitude: Double
    public let sun: SolarEphemeris
    public let events: SunEvents
    /// The Moon's elongation (unwrapped) and lit fraction at the start, middle and end.
    private let elongation: (Double, Double, Double)
    private let illumination: (Double, Double, Double)
    /// The new moon at or before the day's start, and the next one.
    private let newMoons: (before: Double, after: Double)
    /// The seasons' instants from the last before the day's start to two after its end.
    private let seasons: [(event: Seasons.Event, time: Double)]

    public init(dayFrom start: Double, to end: Double, latitude: Double, longitude: Double) {
        self.start = start
        self.end = max(end, start + 1)
        self.latitude = latitude
        self.longitude = longitude
        sun = SolarEphemeris(from: start, to: self.end)
        events = SunEvents.of(dayFrom: start, to: self.end, latitude: latitude, longitude: longitude, sun: sun)
        let nodes = [start, (start + self.end) / 2, self.end]
        var elongations = nodes.map(MoonPhases.elongation(at:))
        for index in 1..<elongations.count {
            elongations[index] = elongations[index - 1] + Angle.heading(elongations[index] - elongations[index - 1])
        }
        elongation = (elongations[0], elongations[1], elongations[2])
        let lit = nodes.map(MoonPhases.illumination(at:))
        illumination = (lit[0], lit[1], lit[2])
        let age = MoonPhases.age(at: start)
        newMoons = (start - age * 86_400, MoonPhases.next(.newMoon, after: start))
        // Seasons are 89 to 94 days apart: from 95 days back, five instants reach past the day.
        seasons = Seasons.upcoming(after: start - 95 * 86_400, count: 5)
    }

    /// Whether `time` and the place are this day's (within 0.1 degree, about 10 km).
    public func holds(_ time: Double, latitude: Double, longitude: Double) -> Bool {
        time >= start && time < end && abs(self.latitude - latitude) < 0.1 && abs(self.longitude - longitude) < 0.1
    }

    /// Lagrange's parabola through the day's start, middle and end.
    private func interpolate(_ y: (Double, Double, Double), at time: Double) -> Double {
        let n = (time - start) / (end - start)
        return (2 * n - 1) * (n - 1) * y.0 + 4 * n * (1 - n) * y.1 + n * (2 * n - 1) * y.2
    }

    public func sunPosition(at time: Double) -> SolarPosition {
        sun.position(at: time, latitude: latitude, longitude: longitude)
    }

    /// The Moon's elongation east of the Sun, 0..360 degrees.
    public func moonElongation(at time: Double) -> Double { Angle.heading(interpolate(elongation, at: time)) }

    /// The Moon's illuminated fraction, 0..1.
    public func moonIllumination(at time: Double) -> Double { min(max(interpolate(illumination, at: time), 0), 1) }

    /// Days since the last new moon.
    public func moonAge(at time: Double) -> Double {
        (time - (time >= newMoons.after ? newMoons.after : newMoons.before)) / 86_400
    }

    /// The next equinox or solstice after `time`.
    public func nextSeason(after time: Double) -> (event: Seasons.Event, time: Double)? {
        seasons.first { $0.time > time }
    }

    /// The astronomical season at `time` for a hemisphere: its name, days gone and its length.
    public func season(at time: Double, northern: Bool) -> (season: String, elapsed: Double, total: Double)? {
        guard let index = seasons.lastIndex(where: { $0.time <= time }), index + 1 < seasons.count else { return nil }
        let began = seasons[index]
        return (began.event.season(northern: northern), (time - began.time) / 86_400, (seasons[index + 1].time - began.time) / 86_400)
    }
}
