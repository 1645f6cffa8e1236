import LodestoneCore
import LodestoneSim

/// The simulated board assembled from a board description: a world moving through a scenario,
/// an emulated chip of the named kind at each address on a simulated I2C bus (mounted as the
/// board file says), and a GPS on a pty.
final class SimulatedBoard {
    let world: SimulatedWorld
    let bus = SimulatedI2CBus()
    let gps: SimulatedGPS

    init(board: BoardDescription, scenario: ScenarioName, clock: any MonotonicClock,
         configuration: Configuration) throws(SimulatedGPS.Failure) {
        world = SimulatedWorld(scenario: Scenario(scenario), clock: clock, speed: configuration.speed)
        for chip in [board.imu, board.magnetometer, board.barometer].compactMap({ $0 }) {
            let truth = chip.mounting == .identity ? world as any SensorTruthSource : MountedTruth(world, mounting: chip.mounting)
            for (address, target) in Self.emulators(for: chip, truth: truth, clock: clock, seed: configuration.seed) {
                bus.attach(target, at: address)
            }
        }
        gps = try SimulatedGPS(world: world, rateHz: configuration.simulatedGPSRateHz, seed: configuration.seed)
    }

    /// The emulated chip (and any chip it carries inside) for a board-file entry.
    static func emulators(for chip: BoardDescription.Chip, truth: any SensorTruthSource, clock: any MonotonicClock,
                          seed: UInt64) -> [(UInt8, any I2CTarget)] {
        switch chip.chip {
        case "mpu6050": return [(chip.address, MPU6050Emulator(truth: truth, clock: clock, seed: seed))]
        case "qmc5883l":
            let emulator = QMC5883LEmulator(truth: truth, clock: clock, seed: seed)
            emulator.distortion = .typicalBreakout
            return [(chip.address, emulator)]
        case "bmp280": return [(chip.address, BMP280Emulator(truth: truth, clock: clock, seed: seed))]
        default: return []
        }
    }
}

/// The world as a chip mounted other than flat sees it: body vectors turned so that, after
/// the emulator's flat-mounting convention, they come out in the rotated chip's axes.
final class MountedTruth: SensorTruthSource, @unchecked Sendable {
    let world: any SensorTruthSource
    let turn: AxisMapping

    init(_ world: any SensorTruthSource, mounting: AxisMapping) {
        self.world = world
        // body -> board -> chip (inverse of the mounting) -> back to the body convention the emulators undo.
        turn = AxisMapping.boardToBody.then(mounting.inverse).then(.boardToBody)
    }

    func currentTruth() -> SensorTruth {
        var truth = world.currentTruth()
        truth.specificForce = turn.apply(truth.specificForce)
        truth.rotationRate = turn.apply(truth.rotationRate)
        truth.magneticField = turn.apply(truth.magneticField)
        return truth
    }
}
