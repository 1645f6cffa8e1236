/// The Sun's events of one local day: rise and set of its centre at -0.833° (refraction plus
/// the semi-diameter), civil, nautical and astronomical twilight (-6, -12, -18), golden hour
/// (-4 to +6) and blue hour (-6 to -4), solar noon and the day's length.
///
/// Found by sampling the altitude every 10 minutes across the day and refining each crossing
/// by bisection to a millisecond: an event that does not happen that day (polar day or night,
/// summer nights that never get dark) is nil, never a guess.
public struct SunEvents: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        public var start: Double?
        public var end: Double?
    }

    public static let horizon = -0.833, civil = -6.0, nautical = -12.0, astronomical = -18.0
    public static let goldenLow = -4.0, goldenHigh = 6.0

    public var astronomicalDawn: Double?, nauticalDawn: Double?, civilDawn: Double?
    public var sunrise: Double?, solarNoon: Double?, sunset: Double?
    public var civilDusk: Double?, nauticalDusk: Double?, astronomicalDusk: Double?
    public var blueHourMorning = Span(), goldenHourMorning = Span(), goldenHourEvening = Span(), blueHourEvening = Span()
    /// Seconds between sunrise and sunset; 86,400 on a polar day, 0 in a polar night.
    public var dayLength: Double

    /// The events between `start` and `end` (UTC seconds: the local day's midnights).
    public static func of(dayFrom start: Double, to end: Double, latitude: Double, longitude: Double, elevation: Double = 0) -> SunEvents {
        of(dayFrom: start, to: end, latitude: latitude, longitude: longitude, elevation: elevation, sun: SolarEphemeris(from: start, to: end))
    }

    /// The same, with the Sun's places for the day already worked out (`sun` covers the day).
    public static func of(
        dayFrom start: Double, to end: Double, latitude: Double, longitude: Double, elevation: Double = 0, sun: SolarEphemeris
    ) -> SunEvents {
        func altitude(_ t: Double) -> Double {
            sun.position(at: t, latitude: latitude, longitude: longitude, elevation: elevation).altitude
        }
        let step = 600.0
        var times: [Double] = []
        var t = start
        while t < end { times.append(t); t += step }
        times.append(end)
        let altitudes = times.map(altitude)

        let noonTime = noon(times: times) { sun.position(at: $0, latitude: latitude, longitude: longitude, elevation: elevation).hourAngle }
        /// The time the altitude crosses `level` going up before solar noon (or down after it):
        /// the morning's and the evening's events of this day, not last night's dusk after
        /// midnight.
        func crossing(_ level: Double, rising: Bool) -> Double? {
            for i in 0..<(times.count - 1) {
                if let noonTime, rising ? times[i] > noonTime : times[i + 1] < noonTime { continue }
                let a = altitudes[i] - level, b = altitudes[i + 1] - level
                guard rising ? (a < 0 && b >= 0) : (a >= 0 && b < 0) else { continue }
                var low = times[i], high = times[i + 1]
                while high - low > 0.001 {
                    let middle = (low + high) / 2
                    if (altitude(middle) - level < 0) == rising { low = middle } else { high = middle }
                }
                return (low + high) / 2
            }
            return nil
        }

        var events = SunEvents(dayLength: 0)
        events.astronomicalDawn = crossing(astronomical, rising: true)
        events.nauticalDawn = crossing(nautical, rising: true)
        events.civilDawn = crossing(civil, rising: true)
        events.sunrise = crossing(horizon, rising: true)
        events.sunset = crossing(horizon, rising: false)
        events.civilDusk = crossing(civil, rising: false)
        events.nauticalDusk = crossing(nautical, rising: false)
        events.astronomicalDusk = crossing(astronomical, rising: false)
        events.blueHourMorning = Span(start: events.civilDawn, end: crossing(goldenLow, rising: true))
        events.goldenHourMorning = Span(start: events.blueHourMorning.end, end: crossing(goldenHigh, rising: true))
        events.goldenHourEvening = Span(start: crossing(goldenHigh, rising: false), end: crossing(goldenLow, rising: false))
        events.blueHourEvening = Span(start: events.goldenHourEvening.end, end: events.civilDusk)
        events.solarNoon = noonTime
        if let rise = events.sunrise, let set = events.sunset, set > rise {
            events.dayLength = set - rise
        } else if let rise = events.sunrise {
            events.dayLength = end - rise
        } else if let set = events.sunset {
            events.dayLength = set - start
        } else {
            events.dayLength = (altitudes.first ?? -90) > horizon ? end - start : 0
        }
        return events
    }

    /// Transit: the local hour angle passing through zero.
    static func noon(times: [Double], hourAngle: (Double) -> Double) -> Double? {
        for i in 0..<(times.count - 1) {
            let a = hourAngle(times[i]), b = hourAngle(times[i + 1])
            guard a < 0 && b >= 0 && b - a < 90 else { continue }
            var low = times[i], high = times[i + 1]
            while high - low > 0.001 {
                let middle = (low + high) / 2
                if hourAngle(middle) < 0 { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }
        return nil
    }

    /// Day, civil twilight or night at an instant (the display's night indicator).
    public enum Light: String, Sendable { case day, civilTwilight, night }

    public static func light(at time: Double, latitude: Double, longitude: Double) -> Light {
        light(altitude: SolarPosition.at(time, latitude: latitude, longitude: longitude).altitude)
    }

    /// Day, civil twilight or night with the Sun's centre at `altitude` (degrees, unrefracted).
    public static func light(altitude: Double) -> Light {
        altitude >= horizon ? .day : (altitude >= civil ? .civilTwilight : .night)
    }
}
