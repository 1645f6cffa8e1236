import Glibc
import LodestoneCore

/// The wind as a weather report gives it, from one-second samples of the last ten minutes
/// (WMO No. 8, Guide to Instruments and Methods of Observation, Volume I, chapter 5): the
/// 10-minute mean speed, the gust (the highest 3-second mean speed, not the highest single
/// sample), the lull (the lowest 3-second mean) and the mean direction.
///
/// The mean direction is the direction of the mean wind vector: unit vectors weighted by
/// speed, so a breeze swinging between 350° and 10° averages to 0°, not 180°, and calm
/// moments, whose vane points anywhere, weigh nothing. When the vectors cancel (a wind
/// swinging all round) there is no prevailing direction and `direction` is nil.
///
/// The samples live in one ring allocated in `init` (600 entries for 10 minutes of 1 s
/// samples); adding never allocates. Each sample carries its time, so a gap in the samples
/// (a sensor outage) neither keeps old samples past the 10 minutes nor joins samples from
/// either side of it into one 3-second mean.
public struct WindStatistics: Sendable {
    struct Entry: Sendable {
        var time: MonotonicNanoseconds
        var speed: Double
        /// NaN when the sample had no direction.
        var direction: Double
    }

    /// How far back the statistics look: 10 minutes.
    public let window: UInt64
    /// The nominal spacing of the samples: 1 s.
    public let samplePeriod: UInt64
    /// Below this mean resultant length (circular spread beyond about 120°) the wind has no
    /// prevailing direction.
    public var minimumSteadiness = 0.1

    private var ring: [Entry]
    private var oldest = 0
    /// How many samples are within the window.
    public private(set) var samples = 0

    public init(windowNanoseconds: UInt64 = 600_000_000_000, samplePeriodNanoseconds: UInt64 = 1_000_000_000) {
        window = max(windowNanoseconds, 1)
        samplePeriod = max(samplePeriodNanoseconds, 1)
        // Capped so a misconfigured period cannot ask for a huge ring: a day of 1 s samples.
        let capacity = Int(min(max(window / samplePeriod, 3), 86_400))
        ring = [Entry](repeating: Entry(time: 0, speed: 0, direction: .nan), count: capacity)
    }

    /// The newest sample's time: the "now" the statistics describe.
    public var newestTime: MonotonicNanoseconds? { samples > 0 ? entry(samples - 1).time : nil }

    /// Adds one sample: speed in m/s, direction in degrees from north (nil when unknown, a
    /// broken vane or no vane at all). Samples older than the window are dropped. Returns
    /// false, keeping nothing, for a negative or non-finite speed or a time not after the
    /// newest sample's.
    @discardableResult
    public mutating func add(speed: Double, direction: Double?, at time: MonotonicNanoseconds) -> Bool {
        guard speed.isFinite, speed >= 0 else { return false }
        if let newest = newestTime, time <= newest { return false }
        let heading = direction.flatMap { $0.isFinite ? Angle.heading($0) : nil } ?? .nan
        let capacity = ring.count
        if samples == capacity {
            oldest = (oldest + 1) % capacity
            samples -= 1
        }
        ring[(oldest + samples) % capacity] = Entry(time: time, speed: speed, direction: heading)
        samples += 1
        // Keep (time - window, time]: exactly 600 one-second samples.
        while samples > 0, time >= window, entry(0).time <= time - window {
            oldest = (oldest + 1) % capacity
            samples -= 1
        }
        return true
    }

    /// The mean speed over the window (over all samples when there are fewer), nil when empty.
    public var average: Double? {
        guard samples > 0 else { return nil }
        var sum = 0.0
        for index in 0..<samples { sum += entry(index).speed }
        return sum / Double(samples)
    }

    /// The highest 3-second mean speed in the window; nil until three consecutive samples.
    public var gust: Double? { threeSecondExtremes?.highest }

    /// The lowest 3-second mean speed in the window; nil until three consecutive samples.
    public var lull: Double? { threeSecondExtremes?.lowest }

    /// The mean of the newest three samples: the wind now, as a display shows it. Nil when
    /// there are fewer than three or a gap lies among them.
    public var now: Double? {
        guard samples >= 3 else { return nil }
        return threeSecondMean(endingAt: samples - 1)
    }

    /// The direction of the mean wind vector, degrees from north in [0, 360): nil when no
    /// sample had a direction, when the wind was calm, or when the directions cancel out
    /// (see `directionSteadiness`).
    public var direction: Double? {
        guard let resultant = resultant(), resultant.steadiness >= minimumSteadiness else { return nil }
        return Angle.heading(Angle.degrees(atan2(resultant.east, resultant.north)))
    }

    /// The mean resultant length of the speed-weighted directions, 0...1: 1 when the wind kept
    /// one direction, near 0 when it came from all round (or from two opposite directions
    /// equally). Nil when no sample had both a direction and some speed.
    public var directionSteadiness: Double? { resultant()?.steadiness }

    // MARK: - Internals

    private func entry(_ index: Int) -> Entry { ring[(oldest + index) % ring.count] }

    /// The mean of the three samples ending at `index`, when they are consecutive seconds.
    private func threeSecondMean(endingAt index: Int) -> Double? {
        guard index >= 2 else { return nil }
        let first = entry(index - 2), middle = entry(index - 1), last = entry(index)
        // Three samples one period apart span two periods; allow half a period of jitter.
        guard last.time - first.time <= 2 * samplePeriod + samplePeriod / 2 else { return nil }
        return (first.speed + middle.speed + last.speed) / 3
    }

    private var threeSecondExtremes: (highest: Double, lowest: Double)? {
        var highest = -Double.infinity, lowest = Double.infinity
        var found = false
        for index in stride(from: 2, to: samples, by: 1) {
            guard let mean = threeSecondMean(endingAt: index) else { continue }
            highest = max(highest, mean)
            lowest = min(lowest, mean)
            found = true
        }
        return found ? (highest, lowest) : nil
    }

    /// The direction of the newest three samples' mean vector, degrees in [0, 360): the vane
    /// now, beside `now`'s speed. Nil as `now` is, or when those samples had no direction.
    public var directionNow: Double? {
        guard now != nil, let resultant = resultant(from: samples - 3), resultant.steadiness > 0 else { return nil }
        return Angle.heading(Angle.degrees(atan2(resultant.east, resultant.north)))
    }

    private func resultant(from first: Int = 0) -> (north: Double, east: Double, steadiness: Double)? {
        var north = 0.0, east = 0.0, weight = 0.0
        for index in max(first, 0)..<samples {
            let sample = entry(index)
            guard !sample.direction.isNaN else { continue }
            let radians = Angle.radians(sample.direction)
            north += sample.speed * cos(radians)
            east += sample.speed * sin(radians)
            weight += sample.speed
        }
        guard weight > 1e-9 else { return nil }
        return (north, east, min(1, (north * north + east * east).squareRoot() / weight))
    }
}
