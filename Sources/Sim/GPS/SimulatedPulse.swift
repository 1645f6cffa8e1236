import LodestoneCore
import LodestoneHAL

/// The simulated receiver's pulse-per-second output: a rising edge at the start of each UTC
/// second of the receiver's time and a falling one 100 ms later, stamped on the world's clock
/// as the kernel stamps a GPIO line's edges. The edges are made when the line is read, so no
/// thread has to drive it, and they fall on the receiver's seconds exactly (a real receiver's
/// are good to tens of nanoseconds).
public final class SimulatedPulse: DigitalInput, @unchecked Sendable {
    static let width = 0.1
    let world: SimulatedWorld
    /// The next edge's UTC second and whether it is the rising one.
    private var second: Double
    private var risingNext = true

    public init(world: SimulatedWorld) {
        self.world = world
        second = (world.scenario.startUTC + world.elapsed).rounded(.up)
    }

    public func value() throws(GPIOError) -> Bool {
        let utc = world.scenario.startUTC + world.elapsed
        return utc - utc.rounded(.down) < Self.width
    }

    public func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
        let start = world.scenario.startUTC
        let now = start + world.elapsed
        var taken = 0
        while true {
            let edge = risingNext ? second : second + Self.width
            guard edge <= now else { break }
            body(EdgeEvent(rising: risingNext, time: world.clockTime(at: edge - start)))
            if !risingNext { second += 1 }
            risingNext.toggle()
            taken += 1
        }
        return taken
    }
}
