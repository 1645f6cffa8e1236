import LodestoneBoard
import LodestoneDevices
import Testing

/// A board file read against a chip list of the test's own: the Board module alone, without
/// the sampling side's list of the supported chips (BoardFileTests reads the shipped files).
@Suite struct BoardDescriptionTests {
    static let chips = [ChipInfo(name: "mpu6050", displayName: "MPU-6050", kind: .imu, addresses: [0x68, 0x69])]

    @Test func aChipOfTheListIsRead() throws {
        let text = #"{"name":"test","i2c":"/dev/i2c-3","imu":{"chip":"mpu6050","address":"0x69"}}"#
        let board = try BoardDescription.parse(text, file: "test.json", chips: Self.chips)
        #expect(board.name == "test" && board.imu?.chip == "mpu6050" && board.imu?.address == 0x69)
        #expect(board.imu.map(board.bus(of:)) == "/dev/i2c-3")
    }

    @Test func aChipOutsideTheListIsRefused() {
        #expect(throws: ConfigurationError.self) {
            try BoardDescription.parse(#"{"barometer":{"chip":"bmp280","address":"0x76"}}"#, file: "bad.json", chips: Self.chips)
        }
    }
}
