import LodestoneCore

/// A day of ferry waves at a stop or a spot on the shore: each wave's points and light, the
/// best sessions to be in the water, and how often the waves come.
public enum WaveDay {
    /// The light a wave comes in: the Sun's centre at or above -0.833° (sunrise to sunset),
    /// from -6° up to that (civil twilight), or below -6°.
    public enum Light: String, Sendable {
        case day, twilight, dark

        public init(_ light: SunEvents.Light) {
            switch light {
            case .day: self = .day
            case .civilTwilight: self = .twilight
            case .night: self = .dark
            }
        }

        public static func at(_ time: Double, latitude: Double, longitude: Double) -> Light {
            Light(SunEvents.light(at: time, latitude: latitude, longitude: longitude))
        }
    }

    /// What one ship's passing is worth: 2 points for 1 wave, 5 for 2, 10 for 3.
    public static func points(waves: Int) -> Int {
        switch waves {
        case ...1: return 2
        case 2: return 5
        default: return 10
        }
    }

    public struct Wave: Sendable, Equatable {
        /// When it reaches the surfer (UTC seconds).
        public var time: Double
        public var waves: Int
        public var light: Light
        public init(time: Double, waves: Int, light: Light) { (self.time, self.waves, self.light) = (time, waves, light) }

        public var points: Int { WaveDay.points(waves: waves) }
        /// A twilight wave counts a fifth of its points in a session's score.
        public var sessionScore: Double { light == .twilight ? Double(points) / 5 : Double(points) }
    }

    public struct Session: Sendable, Equatable {
        /// The first and last wave's times, and the waves' indices in the day's list.
        public var start: Double, end: Double
        public var first: Int, last: Int
        public var score: Double
        public var waveCount: Int { last - first + 1 }
        public init(start: Double, end: Double, first: Int, last: Int, score: Double) {
            (self.start, self.end, self.first, self.last, self.score) = (start, end, first, last, score)
        }
    }

    /// The best sessions of a day's waves (in time order): a window from one wave to a later
    /// one lasting 60 to 120 minutes, no gap between consecutive waves over 60 minutes and no
    /// wave in the dark inside it; the highest score first, then the highest that shares no wave
    /// with those chosen, up to `count`; ties go to the earlier start (then the shorter).
    public static func bestSessions(_ waves: [Wave], count: Int = 3) -> [Session] {
        var candidates: [Session] = []
        for first in waves.indices where waves[first].light != .dark {
            var score = waves[first].sessionScore
            var last = first
            while last + 1 < waves.count {
                let next = waves[last + 1]
                guard next.light != .dark, next.time - waves[last].time <= 3600, next.time - waves[first].time <= 7200 else { break }
                last += 1
                score += next.sessionScore
                if next.time - waves[first].time >= 3600 {
                    candidates.append(Session(start: waves[first].time, end: next.time, first: first, last: last, score: score))
                }
            }
        }
        candidates.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.start != b.start { return a.start < b.start }
            return a.end < b.end
        }
        var chosen: [Session] = []
        for candidate in candidates where chosen.count < count {
            if chosen.allSatisfy({ candidate.last < $0.first || candidate.first > $0.last }) { chosen.append(candidate) }
        }
        return chosen
    }

    /// The sessions as a person deciding whether to go reads them: the one under way at `now`,
    /// else the next to start, first (the day's best may be over by mid-morning); then the
    /// others in their order, best first. Without one under way or to come, as they are.
    public static func forNow(_ sessions: [Session], now: Double) -> [Session] {
        let current = sessions.filter { $0.start <= now && now <= $0.end }.min { $0.start < $1.start }
        guard let first = current ?? sessions.filter({ $0.start > now }).min(by: { $0.start < $1.start }) else { return sessions }
        return [first] + sessions.filter { $0 != first }
    }

    public struct Frequency: Sendable, Equatable {
        public var count: Int
        /// The mean gap between consecutive waves in minutes (nil for fewer than two).
        public var meanGapMinutes: Double?
        /// Waves per local hour, 0 to 23.
        public var byHour: [Int]
    }

    /// How often the lit waves come (the Sun up, `.day`), by the hour of `zone`. A twilight
    /// wave counts in a session (a fifth of its points) but not here: the frequency tells how
    /// often a wave comes that one can see to ride.
    public static func frequency(_ waves: [Wave], zone: TimeZoneRules) -> Frequency {
        let lit = waves.filter { $0.light == .day }.sorted { $0.time < $1.time }
        var byHour = [Int](repeating: 0, count: 24)
        for wave in lit {
            let local = CivilTime(unixSeconds: wave.time + Double(zone.offset(at: wave.time)))
            if (0..<24).contains(local.hour) { byHour[local.hour] += 1 }
        }
        let gaps = zip(lit.dropFirst(), lit).map { ($0.time - $1.time) / 60 }
        return Frequency(count: lit.count, meanGapMinutes: gaps.isEmpty ? nil : gaps.reduce(0, +) / Double(gaps.count), byHour: byHour)
    }
}
