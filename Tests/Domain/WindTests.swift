import LodestoneCore
import LodestoneDomain
import Testing

/// The resistor wind vane, the cup anemometer's pulse counting and the 10-minute wind
/// statistics, against hand-worked values.
@Suite struct WindVaneTests {
    /// The kit's data-sheet table, written out here rather than read from `WindVane.common`.
    static let table: [(degrees: Double, ohms: Double)] = [
        (0, 33_000), (22.5, 6_570), (45, 8_200), (67.5, 891), (90, 1_000), (112.5, 688),
        (135, 2_200), (157.5, 1_410), (180, 3_900), (202.5, 3_140), (225, 16_000), (247.5, 14_120),
        (270, 120_000), (292.5, 42_120), (315, 64_900), (337.5, 21_880)
    ]

    /// The divider with the vane on the low side: V = 3.3 × R / (R + 10 k).
    static func divider(_ ohms: Double) -> Double { 3.3 * ohms / (ohms + 10_000) }

    /// The four steps whose neighbour in voltage is only 5% away (225°/247.5° at 2.03/1.93 V,
    /// 0°/292.5° at 2.53/2.67 V): no decoder can take ±3% on those.
    static let tightSteps: Set<Double> = [225, 247.5, 0, 292.5]

    @Test func everyStepRoundTrips() {
        let vane = WindVane.common
        for step in Self.table {
            let volts = Self.divider(step.ohms)
            #expect(vane.direction(volts: volts) == step.degrees, "\(step.degrees)° at \(volts) V")
            #expect(abs(vane.volts(forDegrees: step.degrees) - volts) < 1e-12)
        }
        // 120 kΩ reads 3.3 × 120 / 130 = 3.0462 V; 688 Ω reads 3.3 × 688 / 10688 = 0.2124 V.
        #expect(abs(vane.volts(forDegrees: 270) - 3.046_153_8) < 1e-6)
        #expect(abs(vane.volts(forDegrees: 112.5) - 0.212_425_1) < 1e-6)
    }

    @Test func threePercentVoltageErrorStillReadsTheRightStep() {
        let vane = WindVane.common
        for step in Self.table {
            let error = Self.tightSteps.contains(step.degrees) ? 0.024 : 0.03
            for factor in [1 - error, 1 + error] {
                #expect(
                    vane.direction(volts: Self.divider(step.ohms) * factor) == step.degrees,
                    "\(step.degrees)° with a \(factor) voltage factor")
            }
        }
    }

    @Test func threePercentResistorToleranceReadsTheRightStep() {
        let vane = WindVane.common
        for step in Self.table {
            for factor in [0.97, 1.03] {
                #expect(vane.direction(volts: Self.divider(step.ohms * factor)) == step.degrees)
            }
        }
    }

    @Test func aBrokenWireReadsNoDirection() {
        let vane = WindVane.common
        #expect(vane.direction(volts: 0) == nil)  // shorted
        #expect(vane.direction(volts: 3.3) == nil)  // open: the series resistor pulls to supply
        #expect(vane.direction(volts: 0.15) == nil)  // below 0.2124 - (0.2700 - 0.2124) / 2
        #expect(vane.direction(volts: 3.16) == nil)  // above 3.0462 + (3.0462 - 2.8592) / 2
        #expect(vane.direction(volts: .nan) == nil)
        #expect(vane.direction(volts: 0.19) == 112.5)  // still within half the gap
    }

    @Test func northOffsetWrapsPastNorth() throws {
        var vane = WindVane.common
        vane.northOffset = 30
        #expect(vane.direction(volts: Self.divider(21_880)) == 7.5)  // 337.5 + 30
        #expect(vane.direction(volts: Self.divider(33_000)) == 30)
        #expect(abs(vane.volts(forDegrees: 7.5) - Self.divider(21_880)) < 1e-12)
        vane.northOffset = -45
        #expect(vane.direction(volts: Self.divider(6_570)) == 337.5)  // 22.5 - 45
        #expect(vane.direction(volts: Self.divider(8_200)) == 0)
    }

    @Test func anEmptyTableReadsNothing() {
        let vane = WindVane(directions: [], seriesOhms: 10_000, supplyVolts: 3.3)
        #expect(vane.direction(volts: 1.0) == nil)
        #expect(vane.volts(forDegrees: 90) == 3.3)
    }
}

@Suite struct AnemometerTests {
    typealias Edge = (rising: Bool, time: MonotonicNanoseconds)

    /// A reed switch at `hertz` closures per second for `seconds`: each closure falls, chatters
    /// `bounces` times within `bounceSpan`, stays closed for `closedFraction` of the period, then
    /// opens with the same chatter, whose falling edges must not count either.
    static func pulseTrain(
        hertz: Double, seconds: Double, bounces: Int, bounceSpan: Double = 0.0005,
        closedFraction: Double = 0.3, start: Double = 1.123
    ) -> [Edge] {
        var edges: [Edge] = []
        let period = 1 / hertz
        let gap = bounceSpan / Double(2 * max(bounces, 1))
        var k = 0
        while Double(k) * period < seconds {
            let close = start + Double(k) * period
            let open = close + closedFraction * period
            edges.append((false, nanoseconds(close)))
            for j in 0..<bounces {
                edges.append((true, nanoseconds(close + Double(2 * j + 1) * gap)))
                edges.append((false, nanoseconds(close + Double(2 * j + 2) * gap)))
            }
            edges.append((true, nanoseconds(open)))
            for j in 0..<bounces {
                edges.append((false, nanoseconds(open + Double(2 * j + 1) * gap)))
                edges.append((true, nanoseconds(open + Double(2 * j + 2) * gap)))
            }
            k += 1
        }
        return edges
    }

    static func nanoseconds(_ seconds: Double) -> MonotonicNanoseconds { MonotonicNanoseconds((seconds * 1e9).rounded()) }

    /// Feeds the edges and takes one interval per second from 1 s to `until` s.
    static func intervals(_ edges: [Edge], until: Int, anemometer: Anemometer = Anemometer()) -> [Anemometer.Interval] {
        var meter = anemometer
        var results: [Anemometer.Interval] = []
        var pending = edges[...]
        for second in 1...until {
            let now = nanoseconds(Double(second))
            while let edge = pending.first, edge.time <= now {
                meter.add(rising: edge.rising, time: edge.time)
                pending = pending.dropFirst()
            }
            results.append(meter.interval(endingAt: now))
        }
        return results
    }

    @Test(arguments: [10.0, 7.3, 23.7])
    func aSteadyWindReadsWithinOnePercent(hertz: Double) {
        let expected = hertz * 2.4 / 3.6
        let results = Self.intervals(Self.pulseTrain(hertz: hertz, seconds: 12, bounces: 3), until: 12)
        // The first interval starts the count; every later one has the whole train before it.
        for interval in results.dropFirst(2) {
            #expect(abs(interval.metresPerSecond - expected) <= 0.01 * expected, "\(interval)")
            // Three falling edges chatter at each closing and three at each opening; an
            // opening's chatter may fall into the next interval.
            #expect(abs(interval.bounces - 6 * interval.pulses) <= 6)
        }
        // A count alone would read 7 and 8 in alternate seconds at 7.3 Hz; the counts are right.
        for interval in results.dropFirst(2) {
            #expect(abs(Double(interval.pulses) - hertz) < 1)
        }
    }

    @Test func eightyHertzWithHalfAMillisecondOfBounce() {
        let results = Self.intervals(
            Self.pulseTrain(
                hertz: 80, seconds: 6, bounces: 3, bounceSpan: 0.0005,
                closedFraction: 0.4), until: 6)
        let expected = 80 * 2.4 / 3.6  // 53.3 m/s, 192 km/h
        for interval in results.dropFirst(2) {
            #expect(abs(interval.metresPerSecond - expected) <= 0.01 * expected, "\(interval)")
            #expect((79...81).contains(interval.pulses))
        }
    }

    @Test func aSlowWindWithLongClosuresCountsEachRevolutionOnce() {
        // 0.8 Hz: the switch stays closed for 375 ms, far beyond any lock-out after the
        // closing edge; its opening chatter must still not count.
        let results = Self.intervals(Self.pulseTrain(hertz: 0.8, seconds: 20, bounces: 3, closedFraction: 0.3), until: 20)
        let expected = 0.8 * 2.4 / 3.6
        for interval in results.dropFirst(4) {
            #expect(abs(interval.metresPerSecond - expected) <= 0.01 * expected, "\(interval)")
        }
    }

    @Test func noPulsesReadsZero() {
        var meter = Anemometer()
        for second in 1...5 {
            let interval = meter.interval(endingAt: Self.nanoseconds(Double(second)))
            #expect(interval.pulses == 0)
            #expect(interval.metresPerSecond == 0)
        }
    }

    @Test func aWindThatStopsFallsToCalm() {
        // 5 Hz from 1.123 s to 10.923 s, then nothing; interval i covers (i, i + 1] s.
        let results = Self.intervals(Self.pulseTrain(hertz: 5, seconds: 9.9, bounces: 2), until: 20)
        #expect(results.count == 20)
        let steady = 5 * 2.4 / 3.6
        for interval in results.dropFirst(2).prefix(8) {
            #expect(abs(interval.metresPerSecond - steady) < 0.01 * steady, "\(interval)")
        }
        // Past the last closure the speed can only be what one revolution since allows:
        // 1 / 1.077 s at 12 s, 1 / 2.077 s at 13 s.
        for interval in results.dropFirst(11).prefix(2) {
            #expect(interval.pulses == 0)
            #expect(interval.metresPerSecond > 0 && interval.metresPerSecond < steady / 5)
        }
        // 3 s after the last closure: calm.
        for interval in results.dropFirst(13) { #expect(interval.metresPerSecond == 0) }
    }

    @Test func chatterAloneIsNotWind() {
        // The line chattering every 0.3 ms (a wet, corroded contact) never settles: no closure.
        var meter = Anemometer()
        var time: MonotonicNanoseconds = 1_000_000_000
        for index in 0..<1000 {
            meter.add(rising: index % 2 == 1, time: time)
            time += 300_000
        }
        let interval = meter.interval(endingAt: time)
        #expect(interval.pulses == 1)  // only the first fall after a quiet line
        #expect(interval.bounces == 499)
    }

    @Test func anEdgeFromThePastIsDropped() {
        var meter = Anemometer()
        meter.add(rising: false, time: 5_000_000_000)
        meter.add(rising: true, time: 5_100_000_000)
        meter.add(rising: false, time: 4_000_000_000)  // earlier than the line's last edge
        #expect(meter.interval(endingAt: 6_000_000_000).pulses == 1)
    }
}

@Suite struct WindStatisticsTests {
    static let second: MonotonicNanoseconds = 1_000_000_000

    static func statistics(_ samples: [(speed: Double, direction: Double?)], start: MonotonicNanoseconds = 1_000) -> WindStatistics {
        var statistics = WindStatistics()
        for (index, sample) in samples.enumerated() {
            statistics.add(speed: sample.speed, direction: sample.direction, at: start + MonotonicNanoseconds(index) * second)
        }
        return statistics
    }

    @Test func aConstantWind() throws {
        let statistics = Self.statistics((0..<600).map { _ in (speed: 5.0, direction: Optional(270.0)) })
        #expect(statistics.samples == 600)
        #expect(try #require(statistics.average) == 5)
        #expect(try #require(statistics.gust) == 5)
        #expect(try #require(statistics.lull) == 5)
        #expect(try #require(statistics.now) == 5)
        #expect(abs(try #require(statistics.direction) - 270) < 1e-9)
        #expect(abs(try #require(statistics.directionSteadiness) - 1) < 1e-12)
    }

    @Test func aThreeSecondBurstIsTheGust() throws {
        let samples = (0..<60).map { (speed: (20..<23).contains($0) ? 12.0 : 0.0, direction: Optional(180.0)) }
        let statistics = Self.statistics(samples)
        #expect(try #require(statistics.gust) == 12)
        #expect(try #require(statistics.lull) == 0)
        #expect(abs(try #require(statistics.average) - 36.0 / 60) < 1e-12)
        #expect(try #require(statistics.now) == 0)
    }

    @Test func aOneSecondSpikeIsAThirdOfAGust() throws {
        let samples = (0..<30).map { (speed: $0 == 10 ? 20.0 : 0.0, direction: Optional(90.0)) }
        let gust = try #require(Self.statistics(samples).gust)
        #expect(abs(gust - 20.0 / 3) < 1e-12)
    }

    @Test func directionsAverageAcrossNorth() throws {
        let statistics = Self.statistics([(4, 350), (4, 10), (4, 350), (4, 10)])
        let direction = try #require(statistics.direction)
        #expect(abs(Angle.signed(direction)) < 0.01)
        #expect(direction >= 0 && direction < 360)
        // Speed-weighted: 6 m/s from 0° and 2 m/s from 90° give atan2(2, 6) = 18.43°.
        let weighted = try #require(Self.statistics([(6, 0), (2, 90)]).direction)
        #expect(abs(weighted - 18.434_948_8) < 1e-6)
    }

    @Test func oppositeDirectionsHaveNoPrevailingDirection() throws {
        let statistics = Self.statistics([(5, 90), (5, 270), (5, 90), (5, 270)])
        #expect(statistics.direction == nil)
        #expect(try #require(statistics.directionSteadiness) < 1e-9)
    }

    @Test func calmOrNoVaneHasNoDirection() {
        #expect(Self.statistics([(0, 45), (0, 135), (0, 300)]).direction == nil)
        #expect(Self.statistics([(3, nil), (4, nil)]).direction == nil)
        #expect(Self.statistics([(3, nil), (4, nil)]).average == 3.5)
    }

    @Test func samplesOlderThanTenMinutesAreDropped() throws {
        // 100 s of a 30 m/s storm, then 600 s of 2 m/s: the storm has left the window.
        let samples =
            Array(repeating: (speed: 30.0, direction: Optional(0.0)), count: 100)
            + Array(repeating: (speed: 2.0, direction: Optional(0.0)), count: 600)
        let statistics = Self.statistics(samples)
        #expect(statistics.samples == 600)
        #expect(try #require(statistics.average) == 2)
        #expect(try #require(statistics.gust) == 2)
        // After a gap of over ten minutes only the new sample is left.
        var later = statistics
        let added = later.add(speed: 7, direction: 0, at: 1_000 + 1_400 * Self.second)
        #expect(added)
        #expect(later.samples == 1)
        #expect(later.average == 7)
        #expect(later.gust == nil)
    }

    @Test func samplesAcrossAGapAreNotOneGust() {
        var statistics = WindStatistics()
        statistics.add(speed: 9, direction: nil, at: 1 * Self.second)
        statistics.add(speed: 9, direction: nil, at: 2 * Self.second)
        statistics.add(speed: 9, direction: nil, at: 9 * Self.second)  // seven seconds later
        #expect(statistics.gust == nil)
        #expect(statistics.now == nil)
    }

    @Test func badSamplesAreRefused() {
        var statistics = WindStatistics()
        let accepted = [
            statistics.add(speed: 3, direction: 10, at: 5 * Self.second),
            statistics.add(speed: .nan, direction: 10, at: 6 * Self.second),
            statistics.add(speed: -1, direction: 10, at: 6 * Self.second),
            statistics.add(speed: 4, direction: 10, at: 5 * Self.second),  // not after the newest
            statistics.add(speed: 4, direction: .infinity, at: 6 * Self.second)  // kept without a direction
        ]
        #expect(accepted == [true, false, false, false, true])
        #expect(statistics.samples == 2)
        #expect(statistics.average == 3.5)
    }
}
