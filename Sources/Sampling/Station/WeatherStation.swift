import Glibc
import LodestoneCore
import Synchronization
import LodestoneBoard

/// A probe's newest reading: the temperature (°C), or why there is none.
package struct ProbeReading: Sendable {
    package var name: String
    package var celsius: Double?
    package var problem: String?
    package var time: MonotonicNanoseconds

    package init(name: String, celsius: Double?, problem: String?, time: MonotonicNanoseconds) {
        (self.name, self.celsius, self.problem, self.time) = (name, celsius, problem, time)
    }
}

/// The weather station's readers, each on a thread of its own, off the sampling loop: a
/// DS18B20 takes 750 ms to convert, and the kernel's read waits for it, so the probes must
/// not hold up the wind, and neither may hold up the sensors the loop samples. The vane's
/// converter has an I2C handle of its own (the kernel serialises transfers on the adapter).
/// The output thread takes what they read once a second.
///
/// Each reading is stamped with the device's clock as it is handed over, under the same lock a
/// take holds: a take made at time T therefore holds every reading stamped at or before T, and
/// the output side can apply them at their own times (`StationService`), whenever it took them.
package final class WeatherStation: @unchecked Sendable {
    package struct Readings {
        /// The wind's one-second samples since the last take (at most a few minutes' worth).
        package var wind: [WindSample] = []
        package var probes: [String: ProbeReading] = [:]
        package init() {}
    }

    private let shared = Mutex(Readings())
    private let clock: any MonotonicClock
    private let wind: ((MonotonicNanoseconds) -> WindSample)?
    private let probes: [StationWiring.Probe]
    private let readProbe: (StationWiring.Probe) -> (Double?, String?)
    /// How often each probe is read.
    package let probeInterval: UInt64
    /// World seconds per real second (a simulated trip run faster than life): the threads look
    /// at the clock four times a period of real time, so they neither lag nor spin.
    private let speed: Double
    private let windThread = LoopThread(), probeThread = LoopThread()
    private let stopping = Atomic<Bool>(false)
    /// Removes what the station made (the simulated board's 1-Wire folder).
    private let cleanUp: (() -> Void)?
    /// Each take as the output thread got it, at the station's clock (a recording notes them).
    package var tap: ((Readings, MonotonicNanoseconds) -> Void)?
    /// A replay's station: the recorded readings in the order of their stamps, each given by
    /// the first take at or after it; no thread reads anything.
    private var replayed: (wind: [WindSample], probes: [ProbeReading])?

    /// The station of a replay: the readings the recorded one's takes gave, on the replay's clock.
    package static func replaying(_ takes: [(time: MonotonicNanoseconds, readings: Readings)], clock: any MonotonicClock) -> WeatherStation {
        let station = WeatherStation(clock: clock, wind: nil, probes: [], readProbe: { _ in (nil, nil) })
        let wind = takes.flatMap(\.readings.wind).sorted { $0.time < $1.time }
        // A probe's reading appears in every take after it: each once.
        var probes: [ProbeReading] = []
        for take in takes {
            for reading in take.readings.probes.values where !probes.contains(where: { $0.name == reading.name && $0.time == reading.time }) {
                probes.append(reading)
            }
        }
        station.replayed = (wind, probes.sorted { ($0.time, $0.name) < ($1.time, $1.name) })
        return station
    }

    package init(
        clock: any MonotonicClock, wind: ((MonotonicNanoseconds) -> WindSample)?, probes: [StationWiring.Probe],
        probeInterval: Double = 10, readProbe: @escaping (StationWiring.Probe) -> (Double?, String?), speed: Double = 1,
        cleanUp: (() -> Void)? = nil
    ) {
        self.clock = clock
        self.cleanUp = cleanUp
        self.wind = wind
        self.probes = probes
        self.readProbe = readProbe
        self.probeInterval = UInt64(max(1, probeInterval) * 1e9)
        self.speed = speed.isFinite ? max(speed, 1) : 1
    }

    package func start() {
        if wind != nil {
            // On a trip's own clock the wind is read as the receiver sends fixes: time waits at
            // each second for the reading, so a thread kept off the CPU never stretches a
            // sample's second into several (and the gusts with it).
            let holder = (clock as? SimulationClock)?.follower()
            windThread.start(name: "wind") { [self] in
                every(1_000_000_000, holding: holder) { now in
                    if let sample = wind?(now) { record(sample) }
                }
            }
        }
        if !probes.isEmpty {
            probeThread.start(name: "probes") { [self] in
                every(probeInterval) { _ in
                    // Each read waits for a conversion (750 ms): a stop is not kept waiting for all.
                    for probe in probes where !stopping.load(ordering: .relaxed) {
                        let (celsius, problem) = readProbe(probe)
                        record(ProbeReading(name: probe.name, celsius: celsius, problem: problem, time: clock.now()))
                    }
                }
            }
        }
    }

    /// One second of wind, for the output thread to take.
    func record(_ sample: WindSample) {
        var sample = sample
        shared.withLock { readings in
            sample.time = clock.now()
            // A reader that stops taking (a stalled output loop) costs at most ten minutes.
            if readings.wind.count >= 600 { readings.wind.removeFirst(readings.wind.count - 599) }
            readings.wind.append(sample)
        }
    }

    /// A probe's reading, in place of its last.
    func record(_ reading: ProbeReading) {
        var reading = reading
        shared.withLock {
            reading.time = clock.now()
            $0.probes[reading.name] = reading
        }
    }

    /// Runs `body` at each multiple of `period` on the clock until stopped; with a `holder`,
    /// time waits at each multiple until `body` has run for it.
    private func every(_ period: UInt64, holding holder: SimulationClock? = nil, _ body: (MonotonicNanoseconds) -> Void) {
        defer { holder?.leave() }
        // Held time stands still until this thread looks: it looks more often.
        let looks = holder == nil ? 4_000.0 : 16_000.0
        let poll = UInt32(max(holder == nil ? 1_000 : 200, min(250_000, Double(period) / looks / speed)))
        var next = clock.now()
        holder?.hold(at: next)
        while !stopping.load(ordering: .relaxed) {
            let now = clock.now()
            if now >= next {
                body(now)
                next += period
                if next < now { next = now + period }  // a thread kept off the CPU catches up once
                holder?.hold(at: next)
            }
            usleep(poll)
        }
    }

    package func stop() {
        stopping.store(true, ordering: .relaxed)
        windThread.join()
        probeThread.join()
        cleanUp?()
    }

    /// The wind since the last take, and every probe's newest reading.
    package func take(into taken: inout Readings) {
        // The two wind buffers change places: the station's threads fill the emptied one, and a
        // take allocates nothing (handing over a copy would make the next append copy it).
        taken.wind.removeAll(keepingCapacity: true)
        if replayed != nil { return takeReplayed(into: &taken) }
        let now = shared.withLock { readings in
            swap(&readings.wind, &taken.wind)
            taken.probes = readings.probes
            return clock.now()
        }
        tap?(taken, now)
    }

    private func takeReplayed(into taken: inout Readings) {
        guard var replayed else { return }
        self.replayed = nil
        let now = clock.now()
        let wind = replayed.wind.prefix { $0.time <= now }.count
        taken.wind += replayed.wind.prefix(wind)
        replayed.wind.removeFirst(wind)
        let probes = replayed.probes.prefix { $0.time <= now }.count
        for reading in replayed.probes.prefix(probes) { taken.probes[reading.name] = reading }
        replayed.probes.removeFirst(probes)
        self.replayed = replayed
    }
}
