import Glibc
import LodestoneCore

/// Passes of a satellite over an observer: when it rises above the horizon, culminates and
/// sets, and whether a person can see it (the satellite in sunlight while the observer's sky
/// is dark, the Sun below -6°).
public enum SatellitePasses {
    public struct Pass: Sendable, Equatable {
        public var rise: Double, set: Double
        public var culmination: Double
        public var maximumAltitude: Double, culminationAzimuth: Double
        public var riseAzimuth: Double, setAzimuth: Double
        /// Sunlit at some moment while the observer is in darkness.
        public var visible: Bool
    }

    /// Where the satellite is seen from the observer at UTC `time`: altitude and azimuth
    /// (degrees), range (km), and whether it is in sunlight. Nil when the propagation fails.
    public static func look(_ satellite: SGP4, at time: Double, latitude: Double, longitude: Double, height: Double = 0)
        -> (altitude: Double, azimuth: Double, range: Double, sunlit: Bool)?
    {
        let minutes = (time / 86_400 + 2_440_587.5 - satellite.elements.epochJulianDay) * 1440
        guard let state = try? satellite.propagate(minutes: minutes) else { return nil }
        let (x, y, z) = state.position
        // TEME to Earth-fixed: the Earth's rotation by Greenwich mean sidereal time.
        let g = greenwichMeanSiderealTime(julianDay: time / 86_400 + 2_440_587.5)
        let ex = cos(g) * x + sin(g) * y, ey = -sin(g) * x + cos(g) * y, ez = z
        let observer = earthFixed(latitude: latitude, longitude: longitude, height: height)
        let rx = ex - observer.0, ry = ey - observer.1, rz = ez - observer.2
        let phi = Angle.radians(latitude), lambda = Angle.radians(longitude)
        let south = sin(phi) * cos(lambda) * rx + sin(phi) * sin(lambda) * ry - cos(phi) * rz
        let east = -sin(lambda) * rx + cos(lambda) * ry
        let up = cos(phi) * cos(lambda) * rx + cos(phi) * sin(lambda) * ry + sin(phi) * rz
        let range = (rx * rx + ry * ry + rz * rz).squareRoot()
        return (
            Angle.degrees(asin(up / range)), Angle.heading(Angle.degrees(atan2(east, -south))), range,
            sunlit(position: state.position, time: time)
        )
    }

    /// Greenwich mean sidereal time (IAU 1982), radians.
    public static func greenwichMeanSiderealTime(julianDay jd: Double) -> Double {
        let t = (jd - 2_451_545) / 36_525
        let seconds = 67_310.548_41 + (876_600 * 3600 + 8_640_184.812_866) * t + 0.093_104 * t * t - 6.2e-6 * t * t * t
        return Angle.radians(Angle.heading(seconds / 240))
    }

    /// WGS-84 Earth-fixed position of a place, km.
    static func earthFixed(latitude: Double, longitude: Double, height: Double) -> (Double, Double, Double) {
        let a = 6378.137, f = 1 / 298.257_223_563, e2 = f * (2 - f)
        let phi = Angle.radians(latitude), lambda = Angle.radians(longitude)
        let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let h = height / 1000
        return ((n + h) * cos(phi) * cos(lambda), (n + h) * cos(phi) * sin(lambda), (n * (1 - e2) + h) * sin(phi))
    }

    /// Outside the Earth's shadow (a cylinder of the Earth's radius away from the Sun).
    static func sunlit(position: (Double, Double, Double), time: Double) -> Bool {
        let sun = SolarPosition.at(time, latitude: 0, longitude: 0)
        let ra = Angle.radians(sun.rightAscension), dec = Angle.radians(sun.declination)
        let s = (cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec))
        let along = position.0 * s.0 + position.1 * s.1 + position.2 * s.2
        guard along < 0 else { return true }
        let px = position.0 - along * s.0, py = position.1 - along * s.1, pz = position.2 - along * s.2
        return (px * px + py * py + pz * pz).squareRoot() > 6378.137
    }

    /// The passes between `start` and `end` (UTC seconds) rising above `minimumAltitude`.
    public static func passes(
        _ satellite: SGP4, from start: Double, to end: Double, latitude: Double, longitude: Double,
        height: Double = 0, minimumAltitude: Double = 0
    ) -> [Pass] {
        // Old elements of a resonant deep-space orbit: integrate to the window once, not for
        // every minute asked about (an hour or more per day of search otherwise).
        let satellite = satellite.prepared(near: (min(start, end) / 86_400 + 2_440_587.5 - satellite.elements.epochJulianDay) * 1440)
        func altitude(_ t: Double) -> Double { look(satellite, at: t, latitude: latitude, longitude: longitude, height: height)?.altitude ?? -90 }
        func crossing(_ a: Double, _ b: Double, rising: Bool) -> Double {
            var low = a, high = b
            while high - low > 0.1 {
                let middle = (low + high) / 2
                if (altitude(middle) < minimumAltitude) == rising { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }
        let step = 20.0
        var passes: [Pass] = []
        var t = start
        var previous = altitude(t)
        var rise: Double? = previous >= minimumAltitude ? start : nil
        while t < end {
            let next = min(t + step, end)
            let current = altitude(next)
            if rise == nil && previous < minimumAltitude && current >= minimumAltitude {
                rise = crossing(t, next, rising: true)
            } else if let began = rise, previous >= minimumAltitude && current < minimumAltitude {
                let setTime = crossing(t, next, rising: false)
                if let pass = describe(satellite, rise: began, set: setTime, latitude: latitude, longitude: longitude, height: height) {
                    passes.append(pass)
                }
                rise = nil
            }
            (t, previous) = (next, current)
        }
        return passes
    }

    /// Culmination (the highest point, found to a tenth of a second by golden-section search),
    /// azimuths and visibility of a pass.
    static func describe(_ satellite: SGP4, rise: Double, set: Double, latitude: Double, longitude: Double, height: Double) -> Pass? {
        func altitude(_ t: Double) -> Double { look(satellite, at: t, latitude: latitude, longitude: longitude, height: height)?.altitude ?? -90 }
        var a = rise, b = set
        let ratio = (5.0.squareRoot() - 1) / 2
        while b - a > 0.1 {
            let c = b - ratio * (b - a), d = a + ratio * (b - a)
            if altitude(c) > altitude(d) { b = d } else { a = c }
        }
        let top = (a + b) / 2
        guard let peak = look(satellite, at: top, latitude: latitude, longitude: longitude, height: height),
            let first = look(satellite, at: rise, latitude: latitude, longitude: longitude, height: height),
            let last = look(satellite, at: set, latitude: latitude, longitude: longitude, height: height)
        else { return nil }
        var visible = false
        var t = rise
        while t <= set && !visible {
            if let seen = look(satellite, at: t, latitude: latitude, longitude: longitude, height: height), seen.sunlit,
                SolarPosition.at(t, latitude: latitude, longitude: longitude).altitude < -6
            {
                visible = true
            }
            t += 30
        }
        return Pass(
            rise: rise, set: set, culmination: top, maximumAltitude: peak.altitude, culminationAzimuth: peak.azimuth,
            riseAzimuth: first.azimuth, setAzimuth: last.azimuth, visible: visible)
    }
}
