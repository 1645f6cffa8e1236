import LodestoneCore
import LodestoneDevices
import LodestoneEncoding

/// Field-by-field validation of a board file: every error names the file, the field and
/// what a correct value looks like.
struct BoardFileReader {
    let file: String
    /// The chips a board file may name (`SupportedChips.all`): given, so the reader depends on
    /// no driver and is fuzzed alone.
    let chips: [ChipInfo]

    func error(_ key: String?, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, key: key, problem: problem, what: "board file")
    }

    func string(_ key: String, _ value: JSONValue, _ expected: String) throws(ConfigurationError) -> String {
        guard let s = value.stringValue, !s.isEmpty else { throw error(key, "must be \(expected), found \(describe(value))") }
        return s
    }

    func boolean(_ key: String, _ value: JSONValue) throws(ConfigurationError) -> Bool {
        guard let b = value.boolValue else { throw error(key, "must be true or false, found \(describe(value))") }
        return b
    }

    func line(_ key: String, _ value: JSONValue) throws(ConfigurationError) -> Int {
        guard let n = value.numberValue, let offset = Int(whole: n, in: 0...1023) else {
            throw error(key, "must be a GPIO line offset from 0 to 1023 (the chip's line number, BCM numbering on a Raspberry Pi), found \(describe(value))")
        }
        return offset
    }

    func chip(_ value: JSONValue, kind: SensorKind) throws(ConfigurationError) -> BoardDescription.Chip {
        let key = kind.rawValue
        let names = chips.filter { $0.kind == kind }.map(\.name)
        guard case .object(let members) = value else {
            throw error(key, "must be an object like {\"chip\": \"\(names.first ?? "")\", \"address\": \"0x68\"}")
        }
        guard let name = value["chip"]?.stringValue?.lowercased() else {
            throw error(key + ".chip", "is missing: name the chip, one of \(names.joined(separator: ", "))")
        }
        guard let info = chips.first(where: { $0.name == name }), info.kind == kind else {
            throw error(key + ".chip", "\"\(name)\" is not a supported \(key); supported: \(names.joined(separator: ", "))")
        }
        var chip = BoardDescription.Chip(chip: name, address: 0)
        var sawAddress = false
        for (field, option) in members {
            let path = key + "." + field
            switch field {
            case "chip": break
            case "address":
                chip.address = try address(path, option, info: info)
                sawAddress = true
            case "bus": chip.bus = try string(path, option, "a device path such as /dev/i2c-1")
            case "orientation":
                let text = try string(path, option, "three signed chip axes such as \"x,y,z\"")
                do { chip.mounting = try AxisMapping(parsing: text) } catch let problem { throw error(path, problem.description) }
            case "dataReady":
                // Only these drivers switch the chip's interrupt pin on, and only the IMU's is read.
                guard ["mpu6050", "mpu9250", "mpu9255"].contains(name) else {
                    throw error(
                        path,
                        "the \(info.displayName) is polled (its driver does not enable a data-ready pin): remove this field; data-ready lines are supported for the MPU-6050 and MPU-9250"
                    )
                }
                chip.dataReadyLine = try line(path, option)
            default:
                throw error(path, "unknown field; known fields: chip, address, bus, orientation, dataReady")
            }
        }
        guard sawAddress else {
            throw error(
                key + ".address",
                "is missing: give the chip's I2C address, for a \(info.displayName) one of \(info.addresses.map { hexByte($0) }.joined(separator: ", "))")
        }
        return chip
    }

    func address(_ key: String, _ value: JSONValue, info: ChipInfo) throws(ConfigurationError) -> UInt8 {
        try address(key, value, displayName: info.displayName, addresses: info.addresses)
    }

    /// A chip's address, which must be one its address pins can select.
    func address(_ key: String, _ value: JSONValue, displayName: String, addresses: [UInt8]) throws(ConfigurationError) -> UInt8 {
        let parsed: UInt8?
        switch value {
        case .string(let text):
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            parsed = UInt8(digits, radix: 16)
        case .number(let n, _):
            parsed = UInt8(whole: n)
        default:
            parsed = nil
        }
        guard let address = parsed, address >= 0x03, address <= 0x77 else {
            throw error(key, "must be a 7-bit I2C address such as \"\(addresses.first.map(hexByte) ?? "0x48")\", found \(describe(value))")
        }
        guard addresses.contains(address) else {
            throw error(key, "a \(displayName) answers only at \(addresses.map { hexByte($0) }.joined(separator: " or ")), not \(hexByte(address))")
        }
        return address
    }

    func gps(_ value: JSONValue) throws(ConfigurationError) -> (port: String?, baud: Int, pps: Int?) {
        guard case .object(let members) = value else { throw error("gps", "must be an object like {\"port\": \"/dev/serial0\", \"baud\": 9600}") }
        var port: String?
        var baud = 9600
        var pps: Int?
        for (field, option) in members {
            switch field {
            case "port": port = try string("gps.port", option, "a device path such as /dev/serial0 or /dev/ttyUSB0")
            case "baud":
                guard let n = option.numberValue, let rate = Int(whole: n), BoardDescription.baudRates.contains(rate) else {
                    throw error("gps.baud", "must be one of \(BoardDescription.baudRates.map(String.init).joined(separator: ", ")), found \(describe(option))")
                }
                baud = rate
            case "pps": pps = try line("gps.pps", option)
            default:
                throw error("gps." + field, "unknown field; known fields: port, baud, pps")
            }
        }
        guard port != nil else { throw error("gps.port", "is missing: give the receiver's serial device") }
        return (port, baud, pps)
    }

    /// `{"device": "/dev/video0", "width": 1280, "height": 720}`.
    func camera(_ value: JSONValue) throws(ConfigurationError) -> BoardDescription.CameraWiring {
        guard case .object(let members) = value else { throw error("camera", "must be an object like {\"device\": \"/dev/video0\"}") }
        var wiring = BoardDescription.CameraWiring(device: "")
        for (field, option) in members {
            switch field {
            case "device": wiring.device = try string("camera.device", option, "a V4L2 device such as /dev/video0, or \"sim\"")
            case "width", "height":
                guard let n = option.numberValue, let whole = Int(whole: n), (16...8192).contains(whole) else {
                    throw error("camera." + field, "must be a whole number of pixels from 16 to 8192, found \(describe(option))")
                }
                if field == "width" { wiring.width = whole } else { wiring.height = whole }
            default:
                throw error("camera." + field, "unknown field; known fields: device, width, height")
            }
        }
        guard !wiring.device.isEmpty else { throw error("camera.device", "is missing: give the camera's device, /dev/video0") }
        return wiring
    }

    func gpio(_ value: JSONValue) throws(ConfigurationError) -> BoardDescription.GPIOWiring {
        guard case .object(let members) = value else {
            throw error("gpio", "must be an object like {\"chip\": \"/dev/gpiochip0\", \"buttons\": {\"bearingLock\": 5}, \"buzzer\": 12}")
        }
        var wiring = BoardDescription.GPIOWiring()
        var used: [Int: String] = [:]
        func claim(_ line: Int, _ path: String) throws(ConfigurationError) {
            if let other = used[line] { throw error(path, "line \(line) is already used by \(other)") }
            used[line] = path
        }
        for (field, option) in members {
            let path = "gpio." + field
            switch field {
            case "chip":
                wiring.chip = try string(
                    path, option, "a chip label such as \"pinctrl-bcm2711\" (gpiodetect lists them) or a device path such as /dev/gpiochip0")
            case "buzzer":
                wiring.buzzer = try line(path, option)
                try claim(wiring.buzzer ?? 0, path)
            case "led":
                wiring.led = try line(path, option)
                try claim(wiring.led ?? 0, path)
            case "buttons":
                guard case .object(let buttons) = option else { throw error(path, "must be an object of button name to line, e.g. {\"bearingLock\": 5}") }
                for (name, lineValue) in buttons {
                    guard BoardDescription.buttonNames.contains(name) else {
                        throw error(path + "." + name, "unknown button; known buttons: \(BoardDescription.buttonNames.joined(separator: ", "))")
                    }
                    let offset = try line(path + "." + name, lineValue)
                    try claim(offset, path + "." + name)
                    wiring.buttons[name] = offset
                }
            default:
                throw error(path, "unknown field; known fields: chip, buttons, buzzer, led")
            }
        }
        return wiring
    }

    /// Two chips on one bus at one address would read each other's registers.
    func checkAddressesDistinct(_ board: BoardDescription) throws(ConfigurationError) {
        let chips: [(String, BoardDescription.Chip)] = [
            ("imu", board.imu), ("magnetometer", board.magnetometer),
            ("barometer", board.barometer)
        ].compactMap { name, chip in chip.map { (name, $0) } }
        for i in chips.indices {
            for j in chips.indices where j > i {
                let (a, b) = (chips[i], chips[j])
                if board.bus(of: a.1) == board.bus(of: b.1) && a.1.address == b.1.address {
                    throw error(b.0 + ".address", "\(hexByte(b.1.address)) on \(board.bus(of: b.1)) is already the \(a.0)'s address")
                }
            }
        }
    }

    /// A pulse line is read from the board's GPIO chip, and is no button's, buzzer's or LED's.
    func checkPulseLine(_ board: BoardDescription) throws(ConfigurationError) {
        guard let line = board.gpsPPSLine, !board.simulated else { return }
        guard let wiring = board.gpio else {
            throw error("gps.pps", "needs the chip it is on: add \"gpio\": {\"chip\": \"pinctrl-bcm2711\"} (gpiodetect lists the chips)")
        }
        let others: [(String, Int?)] =
            wiring.buttons.map { ("gpio.buttons." + $0.key, $0.value) }
            + [("gpio.buzzer", wiring.buzzer), ("gpio.led", wiring.led), ("imu.dataReady", board.imu?.dataReadyLine)]
        if let other = others.first(where: { $0.1 == line }) { throw error("gps.pps", "line \(line) is already used by \(other.0)") }
    }
}
