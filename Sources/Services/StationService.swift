import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneSampling
import LodestoneSettings
import LodestoneBoard

/// The weather station on the output thread: the wind's one-second samples into ten minutes
/// of statistics, and each probe's newest temperature, taken from the station's threads once
/// a second.
package final class StationService {
    let station: WeatherStation
    package private(set) var wind = WindStatistics()
    /// Each probe's newest good reading and, when the newest read failed, why: one failed read
    /// (a CRC error on a long cable) does not lose the temperature.
    private var probes: [String: (good: ProbeReading?, problem: String?)] = [:]
    /// The newest wind sample's problems (the anemometer's, the vane's).
    private var windProblems: (anemometer: String?, vane: String?)
    package let wiring: StationWiring
    let probeOrder: [String]
    /// What the last take brought (kept, so each take reuses its buffers).
    private var readings = WeatherStation.Readings()
    /// Readings taken but stamped after the sample time last ticked at.
    private var pendingWind: [WindSample] = []
    private var pendingProbes: [String: ProbeReading] = [:]
    private var appliedProbes: [String: MonotonicNanoseconds] = [:]
    /// The sample time of the last tick (the figures' now); 0 before the first.
    private var now: MonotonicNanoseconds = 0
    /// The probes' part of the figures as last built, kept while nothing it rests on changes
    /// (a reading, a problem, a reading going stale), so the figures a second cost no allocation.
    private var probeLists: (temperatures: [(name: String, celsius: Double)], problems: [String])?
    private var probeListsStale: MonotonicNanoseconds = .max
    /// A probe read its temperature again since the lists were made.
    private var probeTimesMoved = false
    /// What the lists say has changed since they were made.
    private var probeListsOutdated = false
    /// The wind's part of the figures, kept until the next sample: its statistics run over ten
    /// minutes of samples, and the figures are asked for several times between two.
    private var windFigures: StationFigures.Wind??
    private let clock: any MonotonicClock
    /// Where the parts are wired, for naming them: the GPIO chip and the board's main bus.
    private let gpioChip: String, bus: String

    package init(station: WeatherStation, wiring: StationWiring, clock: any MonotonicClock, gpioChip: String = "/dev/gpiochip0", bus: String = "/dev/i2c-1") {
        self.station = station
        self.wiring = wiring
        probeOrder = wiring.probes.map(\.name)
        self.clock = clock
        (self.gpioChip, self.bus) = (gpioChip, bus)
        // A few seconds of takes waiting for their slot, without growing while running.
        pendingWind.reserveCapacity(16)
    }

    /// The station's parts as HEALTH lists them: where each is wired, and whether it reads.
    package func devices() -> [DeviceEntry] {
        var list: [DeviceEntry] = []
        func entry(_ path: String, _ driver: String, problem: String?) -> DeviceEntry {
            DeviceEntry(path: path, driver: driver, health: problem == nil ? .ok : .degraded, role: .station, error: problem)
        }
        if let anemometer = wiring.anemometer {
            list.append(entry("\(gpioChip):\(anemometer.line)", "anemometer", problem: windProblems.anemometer))
        }
        if let vane = wiring.vane {
            list.append(entry("\(vane.bus ?? bus)@\(hexByte(vane.address))", "ADS1115", problem: windProblems.vane))
        }
        let figures = self.figures
        for probe in wiring.probes {
            // Degraded while it has no current temperature, with the reason ENV gives.
            let problem = figures?.problems.first { $0.hasPrefix("probe \(probe.name):") }
            list.append(entry("w1:\(probe.id)", "DS18B20 \(probe.name)", problem: problem))
        }
        return list
    }

    /// Once a second of sample time: the station's readings stamped at or before `time`, in
    /// their order. What a take brought later than that waits for the slot that reaches it, so
    /// the figures at a time are the readings up to it, however late the take ran.
    package func tick(at time: MonotonicNanoseconds) {
        now = time
        station.take(into: &readings)
        pendingWind += readings.wind
        // A take gives each probe's newest reading again until the next: each is applied once.
        for reading in readings.probes.values where reading.time > (pendingProbes[reading.name]?.time ?? appliedProbes[reading.name] ?? 0) {
            pendingProbes[reading.name] = reading
        }
        let due = pendingWind.prefix { $0.time <= time }.count
        for sample in pendingWind.prefix(due) {
            if windProblems.anemometer != sample.anemometerProblem || windProblems.vane != sample.vaneProblem { probeListsOutdated = true }
            windProblems = (sample.anemometerProblem, sample.vaneProblem)
            if let speed = sample.speed, wind.add(speed: speed, direction: sample.direction, at: sample.time) { windFigures = nil }
        }
        pendingWind.removeFirst(due)
        for name in probeOrder {
            guard let reading = pendingProbes[name], reading.time <= time else { continue }
            pendingProbes[name] = nil
            appliedProbes[name] = reading.time
            let before = probes[name]
            if reading.celsius != nil {
                probes[name] = (reading, nil)
            } else {
                probes[name, default: (nil, nil)].problem = reading.problem ?? "no reading"
            }
            let after = probes[name]
            if before?.good?.celsius != after?.good?.celsius || before?.problem != after?.problem {
                probeListsOutdated = true
            } else if before?.good?.time != after?.good?.time {
                // The same temperature read again (the usual case: water changes slowly):
                // only when the lists go stale moves, and the lists are kept as they are.
                probeTimesMoved = true
            }
        }
    }

    /// The figures to publish; nil before the station has read anything.
    package var figures: StationFigures? {
        var figures = StationFigures()
        if windFigures == nil {
            windFigures = .some(
                wind.average.map { .init(speed: $0, gust: wind.gust, lull: wind.lull, now: wind.now, direction: wind.direction, seconds: wind.samples) })
        }
        figures.wind = windFigures ?? nil
        let now = self.now == 0 ? clock.now() : self.now
        // A reading older than three of the probe's turns is no longer the water's temperature.
        let stale = station.probeInterval * 3 + 2_000_000_000
        if probeTimesMoved {
            probeTimesMoved = false
            if !keepProbeLists(now: now, stale: stale) { probeListsOutdated = true }
        }
        if probeLists == nil || probeListsOutdated || now >= probeListsStale {
            // Made again in the storage of the lists before (once the last report that held
            // them is gone, nothing is allocated).
            var lists = probeLists ?? ([], [])
            probeLists = nil
            probeListsOutdated = false
            lists.temperatures.removeAll(keepingCapacity: true)
            lists.problems.removeAll(keepingCapacity: true)
            probeListsStale = .max
            for name in probeOrder {
                guard let probe = probes[name] else { continue }
                if let good = probe.good, let celsius = good.celsius, now < good.time || now - good.time <= stale {
                    lists.temperatures.append((name, celsius))
                    probeListsStale = min(probeListsStale, good.time &+ stale &+ 1)
                } else {
                    lists.problems.append("probe \(name): " + (probe.problem ?? "no reading for a while"))
                }
            }
            if let anemometer = windProblems.anemometer { lists.problems.append(anemometer) }
            if let vane = windProblems.vane { lists.problems.append(vane) }
            probeLists = lists
        }
        if let probeLists { (figures.temperatures, figures.problems) = (probeLists.temperatures, probeLists.problems) }
        guard figures.wind != nil || !figures.temperatures.isEmpty || !figures.problems.isEmpty else { return nil }
        return figures
    }

    /// After probes read the same temperatures again: true when the lists still hold (every
    /// probe listed as a temperature is fresh and every fresh one is listed), with when they go
    /// stale moved on; nothing is allocated.
    private func keepProbeLists(now: MonotonicNanoseconds, stale: UInt64) -> Bool {
        guard let probeLists else { return false }
        var staleAt = MonotonicNanoseconds.max
        for name in probeOrder {
            let good = probes[name]?.good
            let fresh = good.map { $0.celsius != nil && (now < $0.time || now - $0.time <= stale) } ?? false
            guard fresh == probeLists.temperatures.contains(where: { $0.name == name }) else { return false }
            if fresh, let good { staleAt = min(staleAt, good.time &+ stale &+ 1) }
        }
        probeListsStale = staleAt
        return true
    }
}
