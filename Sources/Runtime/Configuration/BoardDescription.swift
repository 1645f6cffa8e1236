import LodestoneOutputs

/// Which chips a board has and where they are wired: the only thing that changes between a
/// Raspberry Pi with breakouts, another single-board computer, and the simulated board.
public struct BoardDescription: Sendable, Equatable {
    public struct Chip: Sendable, Equatable {
        public var chip: String
        public var address: UInt8
        public init(chip: String, address: UInt8) {
            self.chip = chip
            self.address = address
        }
    }

    public var name: String
    /// True for the built-in simulated board (emulated chips, GPS on a pseudo-terminal).
    public var simulated: Bool
    /// The I2C bus device, e.g. /dev/i2c-1.
    public var i2c: String
    public var imu: Chip?
    public var magnetometer: Chip?
    public var barometer: Chip?
    /// The GPS serial port and its baud rate; nil when the board has no GPS.
    public var gpsPort: String?
    public var gpsBaud: Int

    public static let supportedChips = ["imu": ["mpu6050"], "magnetometer": ["qmc5883l"], "barometer": ["bmp280"]]

    /// The simulated board: an MPU-6050, a QMC5883L and a BMP280 on one bus and a GPS on a pty.
    public static let simulatedBoard = BoardDescription(
        name: "simulated board", simulated: true, i2c: "sim:i2c-1",
        imu: Chip(chip: "mpu6050", address: 0x68), magnetometer: Chip(chip: "qmc5883l", address: 0x0D),
        barometer: Chip(chip: "bmp280", address: 0x76), gpsPort: "sim:pty", gpsBaud: 9600)

    /// Reads a board file (JSON; see boards/ for examples).
    public static func load(file path: String) throws(ConfigurationError) -> BoardDescription {
        let text: String
        do { text = try readTextFile(path) } catch {
            throw ConfigurationError(file: path, key: nil, problem: error.description + "; give --board sim or the path of a board file (see boards/)")
        }
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw ConfigurationError(file: path, key: nil, problem: "not valid JSON: \(error.description)")
        }
        guard case .object(let members) = root else {
            throw ConfigurationError(file: path, key: nil, problem: "a board file holds one JSON object")
        }
        var board = BoardDescription(name: path, simulated: false, i2c: "/dev/i2c-1", imu: nil, magnetometer: nil,
                                     barometer: nil, gpsPort: nil, gpsBaud: 9600)
        for (key, value) in members {
            switch key {
            case "name":
                guard let s = value.stringValue else { throw ConfigurationError(file: path, key: key, problem: "must be a string") }
                board.name = s
            case "simulated":
                guard let b = value.boolValue else { throw ConfigurationError(file: path, key: key, problem: "must be true or false") }
                board.simulated = b
            case "i2c":
                guard let s = value.stringValue else { throw ConfigurationError(file: path, key: key, problem: "must be a device path such as /dev/i2c-1") }
                board.i2c = s
            case "imu", "magnetometer", "barometer":
                let chip = try parseChip(value, kind: key, file: path)
                switch key {
                case "imu": board.imu = chip
                case "magnetometer": board.magnetometer = chip
                default: board.barometer = chip
                }
            case "gps":
                guard case .object(let gps) = value else {
                    throw ConfigurationError(file: path, key: key, problem: "must be an object with port and baud")
                }
                for (name, option) in gps {
                    switch name {
                    case "port":
                        guard let s = option.stringValue else { throw ConfigurationError(file: path, key: "gps.port", problem: "must be a device path such as /dev/serial0") }
                        board.gpsPort = s
                    case "baud":
                        guard let n = option.numberValue, [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600].contains(Int(n)) else {
                            throw ConfigurationError(file: path, key: "gps.baud", problem: "must be one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600")
                        }
                        board.gpsBaud = Int(n)
                    default:
                        throw ConfigurationError(file: path, key: "gps." + name, problem: "unknown key; known keys: port, baud")
                    }
                }
            default:
                throw ConfigurationError(file: path, key: key,
                                         problem: "unknown key; known keys: name, simulated, i2c, imu, magnetometer, barometer, gps")
            }
        }
        return board
    }

    static func parseChip(_ value: JSONValue, kind: String, file: String) throws(ConfigurationError) -> Chip {
        guard case .object = value, let chip = value["chip"]?.stringValue?.lowercased() else {
            throw ConfigurationError(file: file, key: kind, problem: "must be an object like {\"chip\": \"\(supportedChips[kind]?[0] ?? "")\", \"address\": \"0x68\"}")
        }
        guard supportedChips[kind]?.contains(chip) == true else {
            throw ConfigurationError(file: file, key: kind + ".chip",
                                     problem: "\"\(chip)\" is not a supported \(kind); supported: \(supportedChips[kind]?.joined(separator: ", ") ?? "")")
        }
        let address: UInt8
        switch value["address"] {
        case .string(let text)?:
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let parsed = UInt8(digits, radix: 16), parsed >= 0x03, parsed <= 0x77 else {
                throw ConfigurationError(file: file, key: kind + ".address", problem: "must be a 7-bit I2C address such as \"0x68\"")
            }
            address = parsed
        case .number(let n)?:
            guard n >= 3, n <= 0x77, n == n.rounded() else {
                throw ConfigurationError(file: file, key: kind + ".address", problem: "must be a 7-bit I2C address such as \"0x68\"")
            }
            address = UInt8(n)
        default:
            throw ConfigurationError(file: file, key: kind + ".address", problem: "is missing: give the chip's I2C address such as \"0x68\"")
        }
        return Chip(chip: chip, address: address)
    }
}
