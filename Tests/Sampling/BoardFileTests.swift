import Glibc
import LodestoneCore
import Testing
@testable import LodestoneDevices
@testable import LodestoneBoard
import LodestoneSampling

/// The board-file parser against the files in boards/ and against broken ones.
@Suite struct BoardFileTests {
    static let boardsDirectory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/boards"
    }()

    static var boardFiles: [String] {
        guard let directory = opendir(boardsDirectory) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json") { names.append(name) }
        }
        return names.sorted()
    }

    @Test func everyShippedBoardFileIsValid() throws {
        let files = Self.boardFiles
        #expect(files.count >= 5, "boards/ should hold the Raspberry Pi 4, 5, Zero 2 W, BeagleBone Black and simulated boards")
        for name in files {
            let board = try BoardDescription.load(file: Self.boardsDirectory + "/" + name)
            // A handheld has the motion sensors; a weather station on a jetty may do without.
            #expect(board.barometer != nil && ((board.imu != nil && board.magnetometer != nil) || !board.station.isEmpty), "\(name)")
            #expect(board.gpsPort != nil, "\(name)")
            // A chip's label survives the kernel renumbering the chips; a gpiochipN path may not.
            if let chip = board.gpio?.chip { #expect(!chip.hasPrefix("/dev/gpiochip"), "\(name) names its GPIO chip by number: \(chip)") }
        }
        let pi5 = try BoardDescription.load(file: Self.boardsDirectory + "/raspberry-pi-5.json")
        #expect(pi5.gpio?.chip == "pinctrl-rp1")
    }

    @Test func readsEveryField() throws {
        let board = try BoardDescription.parse(
            """
            {"name":"test","i2c":"/dev/i2c-3",
             "imu":{"chip":"MPU6050","address":"0x69","orientation":"-y,x,z","dataReady":4},
             "magnetometer":{"chip":"qmc5883l","address":13,"bus":"/dev/i2c-4"},
             "barometer":{"chip":"bmp280","address":"77"},
             "gps":{"port":"/dev/ttyUSB0","baud":38400,"pps":18},
             "gpio":{"chip":"/dev/gpiochip4","buttons":{"bearingLock":5,"track":13},"buzzer":12,"led":16},
             "display":"fb:/dev/fb1"}
            """, file: "test.json")
        #expect(board.imu == BoardDescription.Chip(chip: "mpu6050", address: 0x69, mounting: try AxisMapping(parsing: "-y,x,z"), dataReadyLine: 4))
        #expect(board.imu.map(board.bus(of:)) == "/dev/i2c-3")
        #expect(board.magnetometer.map(board.bus(of:)) == "/dev/i2c-4")
        #expect(board.barometer?.address == 0x77)
        #expect(board.gpsPort == "/dev/ttyUSB0" && board.gpsBaud == 38400 && board.gpsPPSLine == 18)
        #expect(board.gpio?.chip == "/dev/gpiochip4" && board.gpio?.buttons == ["bearingLock": 5, "track": 13])
        #expect(board.gpio?.buzzer == 12 && board.gpio?.led == 16)
        #expect(board.display == "fb:/dev/fb1")
        #expect(!board.simulated)
    }

    @Test(arguments: [
        (#"{"imu":{"chip":"bno055","address":"0x28"}}"#, "'imu.chip': \"bno055\" is not a supported imu"),
        (#"{"imu":{"chip":"mpu6050","address":"0x99"}}"#, "'imu.address': must be a 7-bit I2C address"),
        (#"{"imu":{"chip":"mpu6050","address":"0x50"}}"#, "'imu.address': a MPU-6050 answers only at 0x68 or 0x69"),
        (#"{"imu":{"chip":"mpu6050"}}"#, "'imu.address': is missing"),
        (#"{"imu":{"chip":"qmc5883l","address":"0x0d"}}"#, "is not a supported imu"),
        (#"{"imu":{"chip":"mpu6050","address":"0x68","orientation":"x,x,z"}}"#, "'imu.orientation': \"x,x,z\" uses a chip axis twice"),
        (#"{"imu":{"chip":"mpu6050","address":"0x68","orientation":"x,y,-z"}}"#, "is a mirror image"),
        (#"{"imu":{"chip":"mpu6050","address":"0x68","orientation":"up"}}"#, "is not an axis mapping"),
        (#"{"imu":{"chip":"mpu6050","address":"0x68","colour":"red"}}"#, "'imu.colour': unknown field"),
        (#"{"gps":{"port":"/dev/ttyS0","baud":1200}}"#, "'gps.baud': must be one of 4800"),
        (#"{"gps":{"baud":9600}}"#, "'gps.port': is missing"),
        (#"{"gps":{"port":"/dev/ttyS0","pps":18}}"#, "'gps.pps': needs the chip it is on"),
        (#"{"gps":{"port":"/dev/ttyS0","pps":2000},"gpio":{"chip":"gpiochip0"}}"#, "'gps.pps': must be a GPIO line offset"),
        (#"{"gps":{"port":"/dev/ttyS0","pps":12},"gpio":{"chip":"gpiochip0","buzzer":12}}"#, "'gps.pps': line 12 is already used by gpio.buzzer"),
        (#"{"gps":{"port":"/dev/ttyS0","pps":18},"gpio":{"chip":"gpiochip0","buttons":{"page":18}}}"#, "line 18 is already used by gpio.buttons.page"),
        (#"{"gps":{"port":"/dev/ttyS0","pps":18},"gpio":{"chip":"gpiochip0"}}"#, ""),
        (#"{"gpio":{"buttons":{"fire":3}}}"#, "'gpio.buttons.fire': unknown button"),
        (#"{"gpio":{"buzzer":5,"led":5}}"#, "line 5 is already used"),
        (#"{"gpio":{"buzzer":-1}}"#, "'gpio.buzzer': must be a GPIO line offset"),
        (#"{"display":"hdmi"}"#, "'display': must be \"terminal\""),
        (#"{"wheels":4}"#, "'wheels': unknown field"),
        (#"{"magnetometer":{"chip":"qmc5883l","address":"0x0d","dataReady":4}}"#, "'magnetometer.dataReady': the QMC5883L is polled"),
        (
            #"{"imu":{"chip":"mpu6050","address":"0x68"},"barometer":{"chip":"bmp280","address":"0x76"},"magnetometer":{"chip":"qmc5883l","address":"0x0d","bus":"/dev/i2c-1"}}"#,
            ""
        ),
        (#"[1,2]"#, "a board file holds one JSON object"),
        (#"{"imu": "#, "not valid JSON")
    ])
    func rejectsABadFileSayingWhere(text: String, expected: String) {
        do {
            _ = try BoardDescription.parse(text, file: "bad.json")
            #expect(expected.isEmpty, "accepted \(text)")
        } catch {
            #expect(!expected.isEmpty, "refused \(text): \(error.description)")
            #expect(error.description.hasPrefix("board file bad.json"), "\(error.description)")
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func twoChipsCannotShareAnAddressOnOneBus() {
        // Both barometers strap to 0x76; only the bus tells them apart.
        let text =
            #"{"barometer":{"chip":"bmp280","address":"0x76"},"imu":{"chip":"mpu6050","address":"0x68"},"magnetometer":{"chip":"qmc5883l","address":"0x0d"}}"#
        #expect((try? BoardDescription.parse(text, file: "ok.json")) != nil)
    }

    @Test func aMissingFileSaysWhatToGive() {
        #expect(throws: ConfigurationError.self) { try BoardDescription.load(file: "/nonexistent/board.json") }
        do { _ = try BoardDescription.load(file: "/nonexistent/board.json") } catch {
            #expect(error.description.contains("--board sim"))
        }
    }
}
