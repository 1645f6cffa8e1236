import LodestoneCore
import LodestoneHAL

/// InvenSense MPU-9250 (and MPU-9255) accelerometer and gyroscope (product specification
/// PS-MPU-9250A-01, register map RM-MPU-9250A-00). Its AK8963 magnetometer is a separate die
/// with its own driver (`AK8963`); `start()` turns on the I2C bypass so it answers at 0x0C.
///
/// Gyro and accelerometer low-pass filtered at 41 Hz with a 1 kHz internal rate, divided
/// down to `sampleRateHz`. A read takes INT_STATUS and the 14 data bytes in one burst, so
/// data-ready and data belong together.
public struct MPU9250<Bus: I2CBus>: ChipDriver {
    public typealias AccelerometerRange = InvenSenseMotion.AccelerometerRange
    public typealias GyroscopeRange = InvenSenseMotion.GyroscopeRange

    /// WHO_AM_I of the MPU-9250 and of the MPU-9255, which is register-compatible.
    public static var chipIDs: (mpu9250: UInt8, mpu9255: UInt8) { (0x71, 0x73) }
    static var whoAmI: UInt8 { 0x75 }
    static var accelConfig2: UInt8 { 0x1D }
    static var interruptPinConfig: UInt8 { 0x37 }
    static var userControl: UInt8 { 0x6A }
    static var powerManagement1: UInt8 { 0x6B }
    static var powerManagement2: UInt8 { 0x6C }
    /// INT_PIN_CFG bit 1: the auxiliary I2C pins join the host bus (register map section 4.15).
    static var bypassEnable: UInt8 { 0x02 }
    /// Product specification Table 3: 333.87 LSB per degree, 0 LSB at 21 degC.
    static var temperatureCountsPerDegree: Double { 333.87 }

    public let device: I2CRegisterDevice<Bus>
    public var accelerometerRange: AccelerometerRange
    public var gyroscopeRange: GyroscopeRange
    public var sampleRateHz: Double
    private let buffer = RegisterBuffer(count: 15)

    public static var chips: [ChipInfo] {
        [
            ChipInfo(name: "mpu9250", displayName: "MPU-9250", kind: .imu, addresses: [0x68, 0x69]),
            ChipInfo(name: "mpu9255", displayName: "MPU-9255", kind: .imu, addresses: [0x68, 0x69])
        ]
    }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmI)
        if id == chipIDs.mpu9250 { return chips[0] }
        if id == chipIDs.mpu9255 { return chips[1] }
        return nil
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
        let id = try device.read(Self.whoAmI)
        guard id == Self.chipIDs.mpu9250 || id == Self.chipIDs.mpu9255 else {
            throw .wrongChip(chip: "MPU-9250", register: Self.whoAmI, expected: Self.chipIDs.mpu9250, found: id)
        }
        // Awake, clock auto-selected (the gyro PLL when it is ready, section 4.28).
        try device.write(Self.powerManagement1, 0x01)
        try device.write(Self.powerManagement2, 0x00)  // every axis on
        // DLPF_CFG 3 with FCHOICE_B 00: 41 Hz bandwidth, 1 kHz internal rate (section 4.6).
        try InvenSenseMotion.configure(
            device, rateHz: sampleRateHz, accelerometer: accelerometerRange,
            gyroscope: gyroscopeRange)
        // ACCEL_FCHOICE_B 0, A_DLPFCFG 3: 41 Hz bandwidth, 1 kHz rate (section 4.8).
        try device.write(Self.accelConfig2, 0x03)
        // The bypass only connects the AK8963 while the MPU's own I2C master is off.
        try device.write(Self.userControl, 0x00)
        try device.write(Self.interruptPinConfig, Self.bypassEnable)
        try device.write(InvenSenseMotion.interruptEnable, 0x01)  // RAW_RDY_EN: data ready in INT_STATUS
    }

    /// The newest sample in SI units (m/s^2, rad/s, degrees Celsius), or nil when none is ready.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> ImuSample? {
        try InvenSenseMotion.readSample(
            device, buffer, at: time, accelerometer: accelerometerRange,
            gyroscope: gyroscopeRange
        ) { Double($0) / Self.temperatureCountsPerDegree + 21 }
    }
}

extension MPU9250 {
    /// Only the divider changes: the filter, ranges and interrupts stay as `start` left them.
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool {
        sampleRateHz = hz
        try device.write(InvenSenseMotion.sampleRateDivider, InvenSenseMotion.divider(for: hz))
        return true
    }
}
