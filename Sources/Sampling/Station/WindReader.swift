import LodestoneCore
import LodestoneDevices
import LodestoneDomain
import LodestoneHAL
import LodestoneBoard

/// One second of wind: the speed from the anemometer's closures, the vane's direction, and
/// what kept either from being read.
package struct WindSample: Sendable {
    package var time: MonotonicNanoseconds
    package var speed: Double?
    package var direction: Double?
    /// What kept the anemometer or the vane from being read, in words that say what to do.
    package var anemometerProblem: String?
    package var vaneProblem: String?

    package init(
        time: MonotonicNanoseconds, speed: Double? = nil, direction: Double? = nil, anemometerProblem: String? = nil, vaneProblem: String? = nil
    ) {
        (self.time, self.speed, self.direction, self.anemometerProblem, self.vaneProblem) = (time, speed, direction, anemometerProblem, vaneProblem)
    }
}

/// The anemometer's line and the vane's converter, read once a second on the station's
/// thread: the line's edges are stamped by the kernel, so the speed does not depend on when
/// the thread runs.
package final class WindReader<Bus: I2CBus> {
    private let line: (any DigitalInput)?
    private var anemometer: Anemometer
    private var converter: ADS1115<Bus>?
    private let channel: ADS1115<Bus>.Channel
    private let vane: WindVane
    private var converterRunning = false
    private var nextStart: MonotonicNanoseconds = 0
    private(set) var vaneProblem: String?

    package init(line: (any DigitalInput)?, anemometer cups: StationWiring.Anemometer?, vaneBus: Bus?, vane wiring: StationWiring.Vane?) {
        self.line = line
        anemometer = Anemometer(
            metresPerSecondPerHertz: (cups?.kmhPerHz ?? 2.4) / 3.6,
            debounceNanoseconds: UInt64((cups?.debounceMilliseconds ?? 2) * 1e6))
        converter = both(vaneBus, wiring).map { ADS1115(bus: $0, address: $1.address) }
        channel = ADS1115<Bus>.Channel(rawValue: UInt16(clamping: wiring?.channel ?? 0)) ?? .ain0
        vane = Self.vane(wiring)
    }

    /// The board file's table, or the common vane's, with its supply, divider and offset.
    package static func vane(_ wiring: StationWiring.Vane?) -> WindVane {
        guard let wiring else { return .common }
        let table = wiring.directions.map { rows in rows.compactMap { row in both(row.first, row.last).map { WindVane.Position(degrees: $0, ohms: $1) } } }
        return WindVane(
            directions: table ?? WindVane.common.directions, seriesOhms: wiring.seriesOhms,
            supplyVolts: wiring.supplyVolts, northOffset: wiring.northOffset)
    }

    package func sample(now: MonotonicNanoseconds) -> WindSample {
        var sample = WindSample(time: now)
        if let line {
            do {
                try line.takeEvents { anemometer.add(rising: $0.rising, time: $0.time) }
                sample.speed = anemometer.interval(endingAt: now).metresPerSecond
            } catch {
                sample.anemometerProblem = "anemometer: " + error.description
            }
        }
        if converter != nil {
            sample.direction = readVane(now: now)
            sample.vaneProblem = vaneProblem.map { "vane: " + $0 }
        }
        return sample
    }

    /// The vane's direction; a converter that fails is started again every 10 s.
    private func readVane(now: MonotonicNanoseconds) -> Double? {
        guard var converter else { return nil }
        defer { self.converter = converter }
        do {
            if !converterRunning {
                guard now >= nextStart else { return nil }
                nextStart = now + 10_000_000_000
                // 4.096 V full scale holds a 3.3 V divider's whole span.
                try converter.start(channel: channel, range: .volts4_096, rate: .sps128)
                converterRunning = true
            }
            let volts = try converter.readVolts()
            guard let direction = vane.direction(volts: volts) else {
                vaneProblem = "\(fixed(volts, 2)) V is no direction of the vane's table: check its wiring and the divider's supply"
                return nil
            }
            vaneProblem = nil
            return direction
        } catch {
            converterRunning = false
            vaneProblem = "ADS1115: " + error.description
            return nil
        }
    }
}
