import CLinux
import Glibc
import LodestoneCore
import Synchronization

/// A GPS receiver on the simulated board. It writes NMEA 0183 (GGA, RMC, GSA, GSV, VTG) at
/// `rateHz` of world time into a pseudo-terminal, so the runtime reads it through the same
/// termios serial code as a real UART or USB receiver.
public final class SimulatedGPS: @unchecked Sendable {
    public let world: SimulatedWorld
    public let rateHz: Double
    /// The path the runtime opens, like /dev/ttyAMA0 on a real board.
    public let devicePath: String
    private let controller: Int32
    private let peripheral: Int32
    private var random: SeededRandom
    private var bias = (north: 0.0, east: 0.0, up: 0.0)
    private let running = Atomic<Bool>(false)
    private let intervalBits: Atomic<UInt64>
    private let thread = LoopThread()
    public private(set) var droppedBytes = 0

    public enum Failure: Error, CustomStringConvertible {
        case noPseudoTerminal(errno: Int32)
        public var description: String {
            "could not open a pseudo-terminal for the simulated GPS (errno \(errnoValue)): check /dev/pts is mounted"
        }
        var errnoValue: Int32 { if case .noPseudoTerminal(let e) = self { return e }; return 0 }
    }

    public init(world: SimulatedWorld, rateHz: Double = 1, seed: UInt64 = 1) throws(Failure) {
        var controller: Int32 = -1, peripheral: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard lodestone_openpty(&controller, &peripheral, &name, name.count) == 0 else {
            throw .noPseudoTerminal(errno: errno)
        }
        var settings = termios()
        if tcgetattr(peripheral, &settings) == 0 {
            cfmakeraw(&settings)
            _ = tcsetattr(peripheral, TCSANOW, &settings)
        }
        _ = lodestone_set_nonblocking(controller, 1)
        self.controller = controller
        self.peripheral = peripheral
        devicePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.world = world
        self.rateHz = min(max(rateHz, 0.1), 10)
        intervalBits = Atomic((1 / self.rateHz).bitPattern)
        random = SeededRandom(seed: seed ^ 0x6770_7300)
    }

    deinit {
        stop()
        close(controller)
        close(peripheral)
    }

    /// Starts sending fixes on a thread of its own, paced by the world's clock. On a trip's own
    /// clock the receiver follows it (`SimulationClock.follower()`): time waits for each fix
    /// the world means to send, so the host's scheduling never silences the receiver.
    public func start(clock given: any MonotonicClock) {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        let follower = (given as? SimulationClock)?.follower()
        let clock: any MonotonicClock = follower ?? given
        thread.start(name: "sim-gps") { [self] in
            defer { follower?.leave() }
            var next = clock.now()
            while running.load(ordering: .relaxed) {
                next += UInt64(1e9 * fixInterval / world.speed)
                if follower == nil {
                    // On the real clock a stop is not kept waiting for the next fix (5 s apart when still).
                    while running.load(ordering: .relaxed) && clock.now() < next {
                        clock.sleep(until: min(next, clock.now() &+ 100_000_000))
                    }
                    if !running.load(ordering: .relaxed) { break }
                } else {
                    clock.sleep(until: next)
                }
                let state = world.current()
                if world.faults.isActive(.gpsSilence, at: state.time) { continue }
                if world.faults.isActive(.gpsGarbage, at: state.time) {
                    send(garbled(epoch(state)))
                    continue
                }
                send(world.faults.isActive(.gpsOutage, at: state.time) ? noFixEpoch(state) : epoch(state))
            }
        }
    }

    /// Seconds between fixes, 0.1 to 10 (a receiver's 10 Hz down to one fix every 10 s);
    /// adaptive sampling changes it while the receiver runs, as a real one is reconfigured.
    public var fixInterval: Double { Double(bitPattern: intervalBits.load(ordering: .relaxed)) }

    public func setFixInterval(_ seconds: Double) {
        guard seconds.isFinite else { return }
        intervalBits.store(min(max(seconds, 0.1), 10).bitPattern, ordering: .relaxed)
    }

    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        thread.join()
    }

    /// A line full of noise: each sentence cut short, a byte flipped or left as it was, with
    /// runs of random bytes (NUL and high bytes included) between them.
    private func garbled(_ sentences: [String]) -> [String] {
        sentences.map { sentence in
            var bytes = Array(sentence.utf8)
            switch random.next() % 4 {
            case 0: bytes = Array(bytes.prefix(Int(random.next() % UInt64(max(1, bytes.count)))))
            case 1: if !bytes.isEmpty { bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            case 2: break
            default: bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Writes text as the receiver would (tests use it to send exactly what they expect back).
    public func sendForTesting(_ text: String) { send([text]) }

    private func send(_ sentences: [String]) {
        for sentence in sentences {
            var text = sentence
            text.withUTF8 { bytes in
                let written = write(controller, bytes.baseAddress, bytes.count)
                if written < bytes.count { droppedBytes += bytes.count - max(written, 0) }
            }
        }
    }

    /// The sentences of one reporting epoch for the given world state, with receiver-like
    /// error: a slowly wandering bias (multipath, atmosphere) plus white noise.
    public func epoch(_ state: WorldState) -> [String] {
        bias.north = 0.995 * bias.north + random.gaussian(0.15)
        bias.east = 0.995 * bias.east + random.gaussian(0.15)
        bias.up = 0.995 * bias.up + random.gaussian(0.25)
        let north = bias.north + random.gaussian(0.8)
        let east = bias.east + random.gaussian(0.8)
        let up = bias.up + random.gaussian(1.5)
        let latitude = state.latitude + Angle.degrees(north / 6_371_000)
        let longitude = state.longitude + Angle.degrees(east / (6_371_000 * cos(Angle.radians(state.latitude))))
        let altitude = state.altitude + up
        let time = CivilTime(unixSeconds: world.scenario.startUTC + state.time)
        let speedKnots = max(0, state.speed + random.gaussian(0.05)) * 3600 / 1852
        let course = Angle.heading(state.course + random.gaussian(1))
        let sats = satellites(at: state.time)
        let used = sats.filter { $0.elevation > 15 }.prefix(12)
        let w = NMEASentenceWriter.self
        let geoidSeparation = 47.5
        var out: [String] = []
        out.append(
            w.sentence(
                "GPGGA,\(w.time(time)),\(w.latitude(latitude)),\(w.longitude(longitude)),1,"
                    + "\(zeroPadded(used.count, 2)),0.9,\(DecimalText.format(altitude, 1)),M,\(DecimalText.format(geoidSeparation, 1)),M,,"))
        out.append(
            w.sentence(
                "GPGSA,A,3," + used.map { zeroPadded($0.prn, 2) }.joined(separator: ",")
                    + String(repeating: ",", count: 12 - used.count) + ",1.6,0.9,1.3"))
        let groups = stride(from: 0, to: sats.count, by: 4).map { Array(sats[$0..<min($0 + 4, sats.count)]) }
        for (index, group) in groups.enumerated() {
            let fields = group.map { "\(zeroPadded($0.prn, 2)),\(zeroPadded($0.elevation, 2)),\(zeroPadded($0.azimuth, 3)),\(zeroPadded($0.snr, 2))" }
            out.append(
                w.sentence(
                    "GPGSV,\(groups.count),\(index + 1),\(zeroPadded(sats.count, 2)),"
                        + fields.joined(separator: ",")))
        }
        out.append(
            w.sentence(
                "GPRMC,\(w.time(time)),A,\(w.latitude(latitude)),\(w.longitude(longitude)),"
                    + "\(DecimalText.format(speedKnots, 2)),\(DecimalText.format(course, 1)),\(w.date(time)),,,A"))
        out.append(
            w.sentence(
                "GPVTG,\(DecimalText.format(course, 1)),T,,M,\(DecimalText.format(speedKnots, 2)),N,"
                    + "\(DecimalText.format(speedKnots * 1.852, 2)),K,A"))
        return out
    }

    /// An epoch without a position, as a receiver that has lost the sky sends it: the time,
    /// GGA quality 0, RMC status V and an empty satellite list.
    public func noFixEpoch(_ state: WorldState) -> [String] {
        let time = CivilTime(unixSeconds: world.scenario.startUTC + state.time)
        let w = NMEASentenceWriter.self
        return [
            w.sentence("GPGGA,\(w.time(time)),,,,,0,00,,,M,,M,,"),
            w.sentence("GPGSA,A,1,,,,,,,,,,,,,,,"),
            w.sentence("GPRMC,\(w.time(time)),V,,,,,,,\(w.date(time)),,,N")
        ]
    }

    struct Satellite {
        var prn: Int
        var elevation: Int
        var azimuth: Int
        var snr: Int
    }

    /// A plausible sky: twelve satellites drifting slowly across it.
    func satellites(at t: Double) -> [Satellite] {
        (0..<12).map { index in
            let phase = Double(index) * 0.52 + t / 3600 * 0.5
            let elevation = Int(max(5, 10 + 75 * abs(sin(phase))))
            let azimuth = Int(Angle.heading(Double(index) * 30 + t / 120))
            return Satellite(
                prn: [2, 5, 7, 9, 13, 15, 18, 20, 24, 27, 29, 30][index], elevation: elevation,
                azimuth: azimuth, snr: min(50, 20 + elevation / 3))
        }
    }
}
