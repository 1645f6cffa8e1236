import LodestoneCore
import LodestoneDevices
import LodestoneEncoding

/// Which chips a board has and where they are wired: the only thing that changes between a
/// Raspberry Pi with breakouts, a BeagleBone, and the simulated board. Read from a board file
/// (JSON; see boards/ and the README) and validated field by field.
public struct BoardDescription: Sendable, Equatable {
    public struct Chip: Sendable, Equatable {
        public var chip: String
        public var address: UInt8
        /// The chip's bus when it is not the board's main one.
        public var bus: String?
        /// Board axis from chip axis: identity when the breakout lies flat, markings forward.
        public var mounting: AxisMapping
        /// A GPIO line wired to the chip's data-ready interrupt pin, if any.
        public var dataReadyLine: Int?

        public init(
            chip: String, address: UInt8, bus: String? = nil, mounting: AxisMapping = .identity,
            dataReadyLine: Int? = nil
        ) {
            self.chip = chip
            self.address = address
            self.bus = bus
            self.mounting = mounting
            self.dataReadyLine = dataReadyLine
        }
    }

    /// GPIO lines for the controls and indicators of a handheld device.
    public struct GPIOWiring: Sendable, Equatable {
        /// The GPIO chip: its label (what `gpiodetect` shows in brackets, e.g. pinctrl-bcm2711),
        /// which stays the same when the kernel numbers the chips differently (a Raspberry Pi 5's
        /// header moved from gpiochip4 to gpiochip0 with kernel 6.6.45), or a device path.
        public var chip = "/dev/gpiochip0"
        /// Button name to line offset: bearingLock, snapshot, track.
        public var buttons: [String: Int] = [:]
        public var buzzer: Int?
        public var led: Int?
        public init() {}
    }

    public var name: String
    /// True for the built-in simulated board (emulated chips, GPS on a pseudo-terminal).
    public var simulated: Bool
    /// The main I2C bus device, e.g. /dev/i2c-1.
    public var i2c: String
    public var imu: Chip?
    public var magnetometer: Chip?
    public var barometer: Chip?
    /// The GPS serial port and its baud rate; nil when the board has no GPS.
    public var gpsPort: String?
    public var gpsBaud: Int
    /// The GPIO line the receiver's pulse-per-second output is wired to (on `gpio.chip`; the
    /// simulated board's receiver pulses it by itself): its rising edge marks the start of each
    /// UTC second, stamped by the kernel, which is what chrony is then given.
    public var gpsPPSLine: Int?
    public var gpio: GPIOWiring?
    /// "terminal", "none" or "fb:/dev/fbN"; nil leaves it to the configuration.
    public var display: String?
    /// Temperature probes, anemometer and wind vane, when the board has them.
    public var station = StationWiring()
    /// A still camera: a V4L2 device (`"camera": {"device": "/dev/video0"}`, optionally with
    /// `"width"` and `"height"`), or "sim" for the simulated board's.
    public var camera: CameraWiring?

    public struct CameraWiring: Sendable, Equatable {
        public var device: String
        public var width = 1280, height = 720
        public init(device: String, width: Int = 1280, height: Int = 720) { (self.device, self.width, self.height) = (device, width, height) }
    }

    public static let buttonNames = ["bearingLock", "snapshot", "track", "log", "page", "photo"]
    public static let baudRates = [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]

    public init(
        name: String, simulated: Bool, i2c: String, imu: Chip?, magnetometer: Chip?, barometer: Chip?,
        gpsPort: String?, gpsBaud: Int
    ) {
        self.name = name
        self.simulated = simulated
        self.i2c = i2c
        self.imu = imu
        self.magnetometer = magnetometer
        self.barometer = barometer
        self.gpsPort = gpsPort
        self.gpsBaud = gpsBaud
    }

    /// The simulated board: an MPU-6050, a QMC5883L and a BMP280 on one bus, a GPS on a pty,
    /// and a weather station: a probe in the water, a cup anemometer on line 17 and a vane on
    /// an ADS1115's first input.
    public static let simulatedBoard: BoardDescription = {
        var board = BoardDescription(
            name: "simulated board", simulated: true, i2c: "sim:i2c-1",
            imu: Chip(chip: "mpu6050", address: 0x68), magnetometer: Chip(chip: "qmc5883l", address: 0x0D),
            barometer: Chip(chip: "bmp280", address: 0x76), gpsPort: "sim:pty", gpsBaud: 9600)
        board.station.probes = [.init(name: "water", id: "28-00000a1b2c3d")]
        board.station.anemometer = .init(line: 17)
        board.station.vane = .init()
        board.camera = CameraWiring(device: "sim", width: 640, height: 480)
        return board
    }()

    /// The bus a chip is on.
    public func bus(of chip: Chip) -> String { chip.bus ?? i2c }

    /// A board file's text, naming chips from `chips`. The error names the file, the field and
    /// what is wrong.
    public static func parse(_ text: String, file path: String, chips: [ChipInfo]) throws(ConfigurationError) -> BoardDescription {
        let reader = BoardFileReader(file: path, chips: chips)
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw reader.error(nil, "not valid JSON: \(error.description)")
        }
        guard case .object(let members) = root else { throw reader.error(nil, "a board file holds one JSON object") }
        var board = BoardDescription(
            name: path, simulated: false, i2c: "/dev/i2c-1", imu: nil, magnetometer: nil,
            barometer: nil, gpsPort: nil, gpsBaud: 9600)
        for (key, value) in members {
            switch key {
            case "name": board.name = try reader.string(key, value, "a string")
            case "simulated": board.simulated = try reader.boolean(key, value)
            case "i2c": board.i2c = try reader.string(key, value, "a device path such as /dev/i2c-1")
            case "imu": board.imu = try reader.chip(value, kind: .imu)
            case "magnetometer": board.magnetometer = try reader.chip(value, kind: .magnetometer)
            case "barometer": board.barometer = try reader.chip(value, kind: .barometer)
            case "gps": (board.gpsPort, board.gpsBaud, board.gpsPPSLine) = try reader.gps(value)
            case "gpio": board.gpio = try reader.gpio(value)
            case "temperatureProbes": board.station.probes = try reader.temperatureProbes(value)
            case "oneWire":
                board.station.oneWireDirectory = try reader.string(key, value, "the folder the kernel's w1 driver shows the probes in, /sys/bus/w1/devices")
            case "wind": try reader.wind(value, into: &board.station)
            case "camera": board.camera = try reader.camera(value)
            case "display":
                let display = try reader.string(key, value, "\"terminal\", \"none\" or \"fb:/dev/fbN\"")
                guard display == "terminal" || display == "none" || display.hasPrefix("fb:/") else {
                    throw reader.error(key, "must be \"terminal\", \"none\" or \"fb:/dev/fbN\", found \"\(display)\"")
                }
                board.display = display
            default:
                throw reader.error(
                    key,
                    "unknown field; known fields: name, simulated, i2c, imu, magnetometer, barometer, gps, gpio, display, temperatureProbes, oneWire, wind, camera"
                )
            }
        }
        try reader.checkAddressesDistinct(board)
        try reader.checkPulseLine(board)
        return board
    }
}
