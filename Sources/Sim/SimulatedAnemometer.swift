import Glibc
import LodestoneCore
import LodestoneHAL

/// A cup anemometer's reed switch on a GPIO line, turning in the simulated world's wind: each
/// read hands over the edges since the last one, as the kernel would have stamped them. The
/// cups turn at the wind speed divided by the kit's factor; each turn closes the switch once,
/// with two bounces, for a third of the turn. Mounted aboard, the cups turn in the wind over
/// the moving deck (the apparent wind).
public final class SimulatedAnemometer: DigitalInput, @unchecked Sendable {
    private let world: SimulatedWorld
    private let clock: any MonotonicClock
    /// Metres per second of wind per hertz of closures.
    private let metresPerSecondPerHertz: Double
    private let aboard: Bool
    /// World time up to which edges were handed over, and the cups' turns so far (fraction kept).
    private var handedUntil: Double?
    private var turns = 0.0
    private var closed = false
    static let step = 0.001

    public init(world: SimulatedWorld, clock: any MonotonicClock, metresPerSecondPerHertz: Double, aboard: Bool = false) {
        self.world = world
        self.clock = clock
        self.aboard = aboard
        self.metresPerSecondPerHertz = max(0.01, metresPerSecondPerHertz)
    }

    public func value() throws(GPIOError) -> Bool { !closed }

    public func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
        let now = clock.now()
        let worldNow = world.elapsed
        guard let from = handedUntil, worldNow > from else {
            handedUntil = max(handedUntil ?? worldNow, worldNow)
            return 0
        }
        // Never more than a minute behind: a reader that slept longer starts afresh.
        var t = max(from, worldNow - 60)
        var count = 0
        func stamp(_ at: Double) -> MonotonicNanoseconds {
            let behind = max(0, worldNow - at) * 1e9
            return now >= UInt64(behind) ? now - UInt64(behind) : 0
        }
        // The deck's motion changes slowly beside the wind's gusts: once per read.
        let deck = aboard ? world.state(at: worldNow) : nil
        while t + Self.step <= worldNow {
            let wind =
                deck.map { world.scenario.apparentWind(at: t, speed: $0.speed, course: $0.course, heading: $0.yaw).speed }
                ?? world.scenario.windSpeed(at: t)
            let hertz = wind / metresPerSecondPerHertz
            let before = turns
            turns += hertz * Self.step
            t += Self.step
            // The switch closes at each whole turn and opens a third of a turn later.
            if floor(turns) > floor(before) {
                let at = stamp(t)
                for bounce in 0..<2 {
                    body(EdgeEvent(rising: false, time: at + UInt64(bounce) * 200_000))
                    body(EdgeEvent(rising: true, time: at + UInt64(bounce) * 200_000 + 100_000))
                }
                body(EdgeEvent(rising: false, time: at + 400_000))
                closed = true
                count += 5
            } else if closed, turns - floor(turns) >= 1.0 / 3 {
                body(EdgeEvent(rising: true, time: stamp(t)))
                closed = false
                count += 1
            }
        }
        handedUntil = t
        return count
    }
}
