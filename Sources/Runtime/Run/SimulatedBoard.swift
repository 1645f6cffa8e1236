import LodestoneCore
import LodestoneSim

/// The simulated board assembled from a board description: a world moving through a scenario,
/// emulated chips on a simulated I2C bus at the board's addresses, and a GPS on a pty.
final class SimulatedBoard {
    let world: SimulatedWorld
    let bus = SimulatedI2CBus()
    let gps: SimulatedGPS

    init(board: BoardDescription, scenario: ScenarioName, clock: any MonotonicClock,
         configuration: Configuration) throws(SimulatedGPS.Failure) {
        world = SimulatedWorld(scenario: Scenario(scenario), clock: clock, speed: configuration.speed)
        let seed = configuration.seed
        if let imu = board.imu { bus.attach(MPU6050Emulator(truth: world, clock: clock, seed: seed), at: imu.address) }
        if let magnetometer = board.magnetometer {
            let chip = QMC5883LEmulator(truth: world, clock: clock, seed: seed)
            chip.distortion = .typicalBreakout
            bus.attach(chip, at: magnetometer.address)
        }
        if let barometer = board.barometer { bus.attach(BMP280Emulator(truth: world, clock: clock, seed: seed), at: barometer.address) }
        gps = try SimulatedGPS(world: world, rateHz: configuration.simulatedGPSRateHz, seed: seed)
    }
}
