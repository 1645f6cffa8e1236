import LodestoneCore
import LodestoneDevices

/// Any chip driver that produces `Sample`, so the board file can choose the chip at start
/// while the sampling loop stays one piece of code. The driver lives in one existential box
/// made here; calls go through it in place and allocate nothing.
public struct AnySensor<Sample>: SampledSensor {
    private var driver: any ChipDriver<Sample>
    /// The chip the board file named, for logs and the DEVICES report.
    public let chip: ChipInfo

    public init<Driver: ChipDriver>(_ driver: Driver, chip: ChipInfo) where Driver.Sample == Sample {
        self.driver = driver
        self.chip = chip
    }

    public mutating func start() throws(DeviceError) { try driver.start() }

    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> Sample? {
        try driver.read(at: time)
    }

    /// Sets the chip's own output rate when its driver can; false when it cannot (it then
    /// keeps converting at its configured rate and is simply read less often).
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool {
        try driver.configureRate(hz)
    }
}
