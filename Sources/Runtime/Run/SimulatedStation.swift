import LodestoneBoard
import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSampling
import LodestoneSim

/// The weather station a board file describes, on the simulated board.
extension WeatherStation {
    /// On the simulated board: the same readers on a reed switch turning in the world's wind,
    /// an emulated ADS1115 seeing the vane's divider, and a folder shaped like the kernel's
    /// with each probe's `w1_slave` written from the world's water.
    package static func simulated(
        _ board: BoardDescription, world: SimulatedWorld, clock: any MonotonicClock, seed: UInt64,
        speed: Double
    ) -> WeatherStation? {
        let wiring = board.station
        guard !wiring.isEmpty else { return nil }
        let line = wiring.anemometer.map {
            SimulatedAnemometer(
                world: world, clock: clock, metresPerSecondPerHertz: $0.kmhPerHz / 3.6,
                aboard: wiring.vane?.aboard ?? false) as any DigitalInput
        }
        var bus: SimulatedI2CBus?
        if let vane = wiring.vane {
            let table = WindReader<SimulatedI2CBus>.vane(vane)
            // The vane points into the world's wind (aboard: the wind over the deck, from the
            // bow); its divider gives that step's voltage.
            let converter = ADS1115Emulator(seed: seed) { channel in
                guard channel == vane.channel else { return 0 }
                let t = world.elapsed
                guard vane.aboard else { return table.volts(forDegrees: world.scenario.windDirection(at: t)) }
                let deck = world.state(at: t)
                return table.volts(forDegrees: world.scenario.apparentWind(at: t, speed: deck.speed, course: deck.course, heading: deck.yaw).fromBow)
            }
            bus = SimulatedI2CBus()
            bus?.attach(converter, at: vane.address)
        }
        let reader = WindReader(line: line, anemometer: wiring.anemometer, vaneBus: bus, vane: wiring.vane)
        let folder = SimulatedOneWire(world: world)
        return WeatherStation(
            clock: clock, wind: line == nil && bus == nil ? nil : { reader.sample(now: $0) },
            probes: wiring.probes,
            readProbe: { probe in
                folder.write(probe.id)
                return Self.read(probe, in: folder.directory)
            }, speed: speed, cleanUp: { folder.remove() })
    }
}
