import Synchronization
import LodestoneCore
import LodestoneSim
import LodestoneSettings
import LodestoneBoard

/// The simulated board assembled from a board description: a world moving through a scenario,
/// an emulated chip of the named kind at each address on a simulated I2C bus (mounted as the
/// board file says), and a GPS on a pty.
package final class SimulatedBoard {
    let world: SimulatedWorld
    package let bus = SimulatedI2CBus()
    package let gps: SimulatedGPS
    /// The data directory's simulated full disk, when a fault fills it.
    private var diskFault: Int?

    package init(
        board: BoardDescription, scenario: ScenarioName, clock: any MonotonicClock,
        configuration: Configuration
    ) throws(SimulatedGPS.Failure) {
        // The clock runs at the trip's pace (see `Runner`), so the world moves at its own.
        let faults = FaultPlan(configuration.faults)
        // "now+S": the trip's time is the system's plus S from the world's first instant, so the
        // simulated receiver's clock is S seconds off the system's (what chrony is then shown).
        let start = configuration.simulatedStartFromNow.map { OutputClock.unixTime() + $0 } ?? configuration.simulatedStart
        world = SimulatedWorld(scenario: Scenario(scenario, figure8First: configuration.figure8First, startUTC: start), clock: clock, faults: faults)
        for chip in [board.imu, board.magnetometer, board.barometer].compactMap({ $0 }) {
            let truth = chip.mounting == .identity ? world as any SensorTruthSource : MountedTruth(world, mounting: chip.mounting)
            // A chip inside another (the MPU-9250's AK8963) is already there.
            // On the boat the magnetometer sits in the hull's iron as well as its own.
            let iron: FieldDistortion = scenario == .boat ? .hull : .typicalBreakout
            for (address, target) in Self.emulators(for: chip, truth: truth, clock: clock, seed: configuration.seed, iron: iron)
            where bus.target(at: address) == nil {
                bus.attach(target, at: address)
            }
        }
        gps = try SimulatedGPS(world: world, rateHz: configuration.simulatedGPSRateHz, seed: configuration.seed)
        // A silenced chip stops answering at its address for the fault's stretch of world time.
        let silent: [(UInt8, SimulatedFault.Kind)] = [
            (board.magnetometer, .silentMagnetometer), (board.imu, .silentIMU),
            (board.barometer, .silentBarometer)
        ].compactMap { chip, kind in
            chip.map { ($0.address, kind) }
        }
        if faults.faults.contains(where: { fault in fault.kind == .busErrors || silent.contains { $0.1 == fault.kind } }) {
            let world = self.world
            bus.silenced = { address in
                let t = world.elapsed
                return faults.isActive(.busErrors, at: t) || silent.contains { $0.0 == address && faults.isActive($0.1, at: t) }
            }
        }
        // A hung bus blocks the first transfer once the fault begins, for the fault's stretch
        // (real time: the sampling thread is what stops).
        if let hang = faults.faults.first(where: { $0.kind == .busHang }) {
            let world = self.world
            let pending = Mutex(true)
            bus.hang = {
                guard world.elapsed >= hang.start else { return 0 }
                return pending.withLock { due in
                    defer { due = false }
                    return due ? hang.duration : 0
                }
            }
        }
        if faults.faults.contains(where: { $0.kind == .diskFull }) {
            let world = self.world
            diskFault = SimulatedDiskFull.install(directory: configuration.dataDir ?? Configuration.defaultDataDirectory()) {
                faults.isActive(.diskFull, at: world.elapsed)
            }
        }
    }

    deinit {
        if let diskFault { SimulatedDiskFull.remove(diskFault) }
    }

    /// The emulated chip (and any chip it carries inside) for a board-file entry.
    static func emulators(
        for chip: BoardDescription.Chip, truth: any SensorTruthSource, clock: any MonotonicClock,
        seed: UInt64, iron: FieldDistortion = .typicalBreakout
    ) -> [(UInt8, any I2CTarget)] {
        let a = chip.address
        switch chip.chip {
        case "mpu6050": return [(a, MPU6050Emulator(truth: truth, clock: clock, seed: seed))]
        case "mpu9250", "mpu9255":
            let imu = MPU9250Emulator(truth: truth, clock: clock, seed: seed, variant: chip.chip == "mpu9250" ? .mpu9250 : .mpu9255)
            imu.magnetometer.distortion = iron
            return [(a, imu), (0x0C, imu.magnetometer)]
        case "lsm6ds3": return [(a, LSM6DSEmulator(truth: truth, clock: clock, seed: seed, variant: .lsm6ds3))]
        case "lsm6dsox": return [(a, LSM6DSEmulator(truth: truth, clock: clock, seed: seed, variant: .lsm6dsox))]
        case "qmc5883l":
            let emulator = QMC5883LEmulator(truth: truth, clock: clock, seed: seed)
            emulator.distortion = iron
            return [(a, emulator)]
        case "hmc5883l":
            let emulator = HMC5883LEmulator(truth: truth, clock: clock, seed: seed)
            emulator.distortion = iron
            return [(a, emulator)]
        case "lis3mdl":
            let emulator = LIS3MDLEmulator(truth: truth, clock: clock, seed: seed)
            emulator.distortion = iron
            return [(a, emulator)]
        case "ak8963":
            let emulator = AK8963Emulator(truth: truth, clock: clock, seed: seed)
            emulator.distortion = iron
            return [(a, emulator)]
        case "bmp280": return [(a, BMP280Emulator(truth: truth, clock: clock, seed: seed))]
        case "bme280": return [(a, BMP280Emulator(truth: truth, clock: clock, variant: .bme280, seed: seed))]
        case "bmp388": return [(a, BMP3Emulator(truth: truth, clock: clock, variant: .bmp388, seed: seed))]
        case "bmp390": return [(a, BMP3Emulator(truth: truth, clock: clock, variant: .bmp390, seed: seed))]
        case "ms5611": return [(a, MS5611Emulator(truth: truth, clock: clock, seed: seed))]
        case "lps22hb": return [(a, LPS22HBEmulator(truth: truth, clock: clock, seed: seed))]
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
