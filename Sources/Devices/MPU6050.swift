import LodestoneCore
import LodestoneHAL

/// InvenSense MPU-6050 accelerometer and gyroscope (product specification PS-MPU-6000A,
/// register map RM-MPU-6000A).
///
/// Woken from its power-on sleep with the X gyro as clock (more stable than the internal
/// oscillator, section 4.28), low-pass filtered at 44 Hz, sampled at `sampleRateHz`. A read
/// takes INT_STATUS and the 14 data bytes in one burst, so data-ready and data match.
public struct MPU6050<Bus: I2CBus>: ChipDriver {
    public typealias AccelerometerRange = InvenSenseMotion.AccelerometerRange
    public typealias GyroscopeRange = InvenSenseMotion.GyroscopeRange

    public static var chipID: UInt8 { 0x68 }
    static var whoAmI: UInt8 { 0x75 }
    static var powerManagement1: UInt8 { 0x6B }

    public let device: I2CRegisterDevice<Bus>
    public var accelerometerRange: AccelerometerRange
    public var gyroscopeRange: GyroscopeRange
    public var sampleRateHz: Double
    private let buffer = RegisterBuffer(count: 15)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "mpu6050", displayName: "MPU-6050", kind: .imu, addresses: [0x68, 0x69])]
    }

    /// WHO_AM_I holds the upper six bits of the address (0x68) whatever AD0 selects.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmI)
        return id == chipID ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, accelerometerRange: .g4) }

    /// Defaults: +-4 g (footsteps and a flip fit), +-500 deg/s, 100 samples a second.
    public init(
        bus: Bus, address: UInt8 = 0x68, accelerometerRange: AccelerometerRange = .g4,
        gyroscopeRange: GyroscopeRange = .dps500, sampleRateHz: Double = 100
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.sampleRateHz = sampleRateHz
    }

    public mutating func start() throws(DeviceError) {
        try device.expectIdentity(chip: "MPU-6050", register: Self.whoAmI, value: Self.chipID)
        try device.write(Self.powerManagement1, 0x01)
        // DLPF 44 Hz: the gyro output rate becomes 1 kHz.
        try InvenSenseMotion.configure(
            device, rateHz: sampleRateHz, accelerometer: accelerometerRange,
            gyroscope: gyroscopeRange)
        try device.write(InvenSenseMotion.interruptEnable, 0x01)
    }

    /// The newest sample in SI units (m/s^2, rad/s, degrees Celsius), or nil when none is ready.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> ImuSample? {
        try InvenSenseMotion.readSample(
            device, buffer, at: time, accelerometer: accelerometerRange,
            gyroscope: gyroscopeRange
        ) { Double($0) / 340 + 36.53 }
    }
}

extension MPU6050 {
    /// Only the divider changes: the filter, ranges and interrupts stay as `start` left them.
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool {
        sampleRateHz = hz
        try device.write(InvenSenseMotion.sampleRateDivider, InvenSenseMotion.divider(for: hz))
        return true
    }
}
