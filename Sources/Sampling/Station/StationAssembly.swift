import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneBoard

/// The weather station a board file describes, on a board (the simulated board's is assembled
/// in Runtime, beside the simulated board).
extension WeatherStation {
    /// On a board: the anemometer's line on the GPIO chip, the vane's ADS1115 through its own
    /// handle on the bus, and the probes through the kernel's w1 folder. Nil without any.
    package static func onBoard(_ board: BoardDescription, gpio: (any GPIOLineProvider)?, clock: any MonotonicClock) -> WeatherStation? {
        let wiring = board.station
        guard !wiring.isEmpty else { return nil }
        var line: (any DigitalInput)?
        if let anemometer = wiring.anemometer {
            do throws(GPIOError) {
                let provider: any GPIOLineProvider
                if let gpio { provider = gpio } else { provider = try LinuxGPIOChip(path: board.gpio?.chip ?? "/dev/gpiochip0") }
                line = try provider.input(offset: anemometer.line, pullUp: true)
            } catch {
                Log.warning("anemometer: " + error.description + "; running without wind speed")
            }
        }
        let bus = wiring.vane.map { ReopeningI2CBus(path: $0.bus ?? board.i2c) }
        let reader = WindReader(line: line, anemometer: wiring.anemometer, vaneBus: bus, vane: wiring.vane)
        let folder = OneWireDirectory(basePath: wiring.oneWireDirectory)
        return WeatherStation(
            clock: clock, wind: line == nil && bus == nil ? nil : { reader.sample(now: $0) },
            probes: wiring.probes, readProbe: { probe in Self.read(probe, in: folder) })
    }

    /// A probe's temperature, or why there is none.
    package static func read(_ probe: StationWiring.Probe, in folder: OneWireDirectory) -> (Double?, String?) {
        switch folder.read(probe: probe.id) {
        case .failure(let error): return (nil, error.description)
        case .success(let text):
            switch DS18B20.parse(text) {
            case .success(let celsius): return (celsius, nil)
            case .failure(let error): return (nil, error.description)
            }
        }
    }
}
