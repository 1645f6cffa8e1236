import LodestoneCore
import LodestoneHAL
import LodestoneBoard

/// Builds the sampling pipeline for a board: the driver each chip names, on its bus, with its
/// mounting. One place for the real boards, the simulated board and the benchmarks.
package enum BoardWiring {
    /// - Parameter bus: the bus for a device path; nil when it could not be opened (the chip
    ///   is then left out, and the reason was logged by the caller).
    /// - Parameter gpio: where the IMU's data-ready line and the receiver's pulse line come
    ///   from, when the board wires them.
    /// - Parameter pulse: the receiver's pulse line when it comes from elsewhere (the simulated
    ///   receiver's own).
    /// - Parameter line: each GPIO input as the pipeline takes it (a recording's or a replay's
    ///   in their place), by role.
    package static func pipeline<Bus: I2CBus>(
        board: BoardDescription, bus: (String) -> Bus?, gps: (any SerialPort)?,
        clock: any MonotonicClock, qnh: Double,
        gpio: (any GPIOLineProvider)? = nil, imuRateHz: Double = 100, pulse: (any DigitalInput)? = nil,
        line: (any DigitalInput, _ role: UInt8) -> any DigitalInput = { input, _ in input }
    ) -> SensorPipeline {
        typealias Catalog = DriverCatalog<Bus>
        let imu = board.imu.flatMap { chip in bus(board.bus(of: chip)).flatMap { Catalog.imu(chip.chip, bus: $0, address: chip.address) } }
        let magnetometer = board.magnetometer.flatMap { chip in
            bus(board.bus(of: chip)).flatMap { Catalog.magnetometer(chip.chip, bus: $0, address: chip.address) }
        }
        let barometer = board.barometer.flatMap { chip in
            bus(board.bus(of: chip)).flatMap { Catalog.barometer(chip.chip, bus: $0, address: chip.address) }
        }
        var dataReady: (any DigitalInput)?
        if let line = board.imu?.dataReadyLine, let gpio {
            do { dataReady = try gpio.input(offset: line, pullUp: false) } catch {
                Log.warning("IMU data-ready line \(line): \(error.description); polling the IMU instead")
            }
        }
        var pulse = pulse
        if pulse == nil, let line = board.gpsPPSLine, let gpio {
            do { pulse = try gpio.input(offset: line, pullUp: false) } catch {
                Log.warning("GPS pulse-per-second line \(line): \(error.description); timing from the sentences alone")
            }
        }
        dataReady = dataReady.map { line($0, RecordedLine.imuDataReady) }
        pulse = pulse.map { line($0, RecordedLine.gpsPulse) }
        return SensorPipeline(
            clock: clock, imu: imu, magnetometer: magnetometer, barometer: barometer, gps: gps, qnh: qnh,
            imuMounting: board.imu?.mounting ?? .identity,
            magnetometerMounting: board.magnetometer?.mounting ?? .identity,
            imuDataReady: dataReady, imuRateHz: imuRateHz, gpsPulse: pulse)
    }
}
