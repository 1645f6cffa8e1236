import LodestoneCore
import LodestoneSampling
import LodestoneSettings

/// The sampling loop's task table: what runs, how often, and within what CPU budget.
/// Budgets are generous for a Raspberry Pi 3 class CPU at 400 kHz I2C (a 14-byte IMU burst
/// takes about 400 us on the wire); the scheduler's statistics show the real figures.
package enum TaskTable {
    package static func tasks(for pipeline: SensorPipeline, configuration c: Configuration) -> [ScheduledTask] {
        [
            ScheduledTask(name: "imu", rateHz: c.imuRateHz, budgetMicroseconds: 800, priority: 0) { pipeline.sampleIMU() },
            ScheduledTask(name: "mag", rateHz: c.magnetometerRateHz, budgetMicroseconds: 500, priority: 1) { pipeline.sampleMagnetometer() },
            ScheduledTask(name: "baro", rateHz: c.barometerRateHz, budgetMicroseconds: 500, priority: 2) { pipeline.sampleBarometer() },
            ScheduledTask(name: "process", rateHz: c.processingRateHz, budgetMicroseconds: 300, priority: 3) { pipeline.process() },
            ScheduledTask(name: "gps", rateHz: c.gpsPollRateHz, budgetMicroseconds: 500, priority: 4) { pipeline.pollGPS() }
        ]
    }

    static func budgets(_ tasks: [ScheduledTask]) -> [Double] { tasks.map(\.budgetMicroseconds) }
}
