import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import Testing

/// The w1-therm text of a DS18B20, with scratchpads built from the datasheet's Table 1 and
/// CRCs from an independent CRC-8, and the sysfs folder read from a folder shaped like it.
@Suite struct DS18B20Tests {
    /// The 1-Wire CRC-8 worked the other way round from the driver: x^8 + x^5 + x^4 + 1
    /// (0x131) as MSB-first long division over bit-reversed bytes, then the remainder's bits
    /// reversed (the 1-Wire bus sends every byte LSB first).
    static func referenceCRC(_ bytes: [UInt8]) -> UInt8 {
        func reversed(_ byte: UInt8) -> UInt8 {
            var result: UInt8 = 0
            for bit in 0..<8 where byte & (1 << bit) != 0 { result |= 0x80 >> bit }
            return result
        }
        var remainder: UInt8 = 0
        for byte in bytes {
            let data = reversed(byte)
            for bit in stride(from: 7, through: 0, by: -1) {
                let incoming = (data >> UInt8(bit)) & 1
                let top = remainder >> 7
                remainder <<= 1
                if top ^ incoming != 0 { remainder ^= 0x31 }
            }
        }
        return reversed(remainder)
    }

    /// A scratchpad as a probe sends it: temperature LSB first, TH 0x4B, TL 0x46, configuration
    /// 0x7F (12 bits), the reserved 0xFF, 0x0C, 0x10, and the CRC.
    static func scratchpad(_ raw: UInt16) -> [UInt8] {
        let bytes: [UInt8] = [UInt8(raw & 0xFF), UInt8(raw >> 8), 0x4B, 0x46, 0x7F, 0xFF, 0x0C, 0x10]
        return bytes + [referenceCRC(bytes)]
    }

    /// The two lines of `w1_slave`; `t` defaults to what the kernel computes (raw × 1000 / 16,
    /// truncated toward zero as C does).
    static func slave(_ bytes: [UInt8], verdict: String = "YES", t: Int? = nil) -> String {
        let hex = bytes.map { hexDigits($0) }.joined(separator: " ")
        let raw = Int(Int16(bitPattern: UInt16(bytes.first ?? 0) | UInt16(bytes.dropFirst().first ?? 0) << 8))
        return "\(hex) : crc=\(hexDigits(bytes.last ?? 0)) \(verdict)\n\(hex) t=\(t ?? raw * 1000 / 16)\n"
    }

    @Test func theCRCMatchesPublishedVectors() {
        // Maxim application note 27's ROM example, and a real probe's w1_slave line.
        #expect(Self.referenceCRC([0x02, 0x1C, 0xB8, 0x01, 0x00, 0x00, 0x00]) == 0xA2)
        #expect(DS18B20.crc8([0x02, 0x1C, 0xB8, 0x01, 0x00, 0x00, 0x00]) == 0xA2)
        #expect(DS18B20.crc8([0x72, 0x01, 0x4B, 0x46, 0x7F, 0xFF, 0x0E, 0x10]) == 0x57)
        var seed: UInt64 = 5
        for _ in 0..<200 {
            let bytes: [UInt8] = (0..<8).map { _ in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: seed >> 33)
            }
            #expect(DS18B20.crc8(bytes) == Self.referenceCRC(bytes))
        }
    }

    @Test func aRealProbesLines() {
        let text = "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n"
        #expect(DS18B20.parseSlave(text) == .success(23.125))
    }

    /// Datasheet Table 1: temperature and its 12-bit register value.
    @Test(arguments: [
        (125.0, UInt16(0x07D0)), (25.0625, 0x0191), (10.125, 0x00A2), (0.5, 0x0008),
        (0, 0x0000), (-0.5, 0xFFF8), (-10.125, 0xFF5E), (-25.0625, 0xFE6F), (-55, 0xFC90)
    ])
    func datasheetTableOneDecodes(celsius: Double, raw: UInt16) {
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(raw))) == .success(celsius))
    }

    @Test func minusOneSixteenthIsAReadingNotADisconnection() {
        // Temperature bytes FF FF with a proper scratchpad around them: -0.0625 °C.
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(0xFFFF))) == .success(-0.0625))
    }

    @Test func theTemperatureAttribute() {
        #expect(DS18B20.parseTemperature("21375\n") == .success(21.375))
        #expect(DS18B20.parseTemperature("-10125\n") == .success(-10.125))
        #expect(DS18B20.parseTemperature(" 0 \r\n") == .success(0))
        #expect(DS18B20.parseTemperature("125000\n") == .success(125))
        #expect(DS18B20.parseTemperature("85000\n") == .failure(.powerOnValue))
        #expect(DS18B20.parseTemperature("-127000\n") == .failure(.disconnected))
        #expect(DS18B20.parseTemperature("125063\n") == .failure(.outOfRange(celsius: 125.063)))
        #expect(DS18B20.parseTemperature("-60000\n") == .failure(.outOfRange(celsius: -60)))
        for text in ["", "\n", "21.375\n", "abc", "21375 22000", "9999999999999999999999"] {
            guard case .failure(.malformed) = DS18B20.parseTemperature(text) else {
                Issue.record("\"\(text)\" was accepted")
                continue
            }
        }
    }

    @Test func theKernelsNoIsRefused() {
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(0x0191), verdict: "NO")) == .failure(.kernelRejected))
    }

    @Test func aCRCMismatchIsRefusedEvenWhenTheKernelSaidYes() {
        var bytes = Self.scratchpad(0x0191)
        let good = bytes.last ?? 0
        bytes = bytes.dropLast() + [good ^ 0x01]
        #expect(DS18B20.parseSlave(Self.slave(bytes)) == .failure(.crcMismatch(computed: good, received: good ^ 0x01)))
        let reason = DS18B20.ReadingError.crcMismatch(computed: good, received: good ^ 0x01).description
        #expect(reason.hasPrefix("CRC check failed"))
    }

    @Test func thePowerOnValueIsNotAReading() {
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(0x0550))) == .failure(.powerOnValue))
        #expect(DS18B20.ReadingError.powerOnValue.description.hasPrefix("85.0 °C is the power-on value, not a reading"))
    }

    @Test func disconnectedAndShortedProbes() {
        let ones = [UInt8](repeating: 0xFF, count: 9)
        #expect(DS18B20.parseSlave(Self.slave(ones, verdict: "NO", t: -62)) == .failure(.disconnected))
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(0xF810))) == .failure(.disconnected))  // -127 °C
        let zeros = [UInt8](repeating: 0, count: 9)  // CRC of zeros is zero: only the config byte tells
        #expect(DS18B20.parseSlave(Self.slave(zeros)) == .failure(.dataLineLow))
    }

    @Test func outOfRangeAndDisagreement() {
        #expect(DS18B20.parseSlave(Self.slave(Self.scratchpad(0x07E0))) == .failure(.outOfRange(celsius: 126)))
        #expect(
            DS18B20.parseSlave(Self.slave(Self.scratchpad(0x0191), t: 26062))
                == .failure(.disagreement(scratchpad: 25.0625, kernel: 26.062)))
    }

    @Test func malformedTextIsRefusedNotTrapped() {
        let good = Self.slave(Self.scratchpad(0x0191))
        let lines = good.split(separator: "\n").map(String.init)
        let samples = [
            "", "\n\n", lines.first ?? "", "hello\nworld\n",
            good.replacingFirst("91", with: "9g"),  // not hex
            good.replacingFirst("t=25062", with: "t=abc"),
            good.replacingFirst("t=25062", with: "25062"),
            (lines.first ?? "") + "\n" + "00 01 4b 46 7f ff 0c 10 00 t=25062\n",  // lines disagree
            "91 01 4b : crc=91 YES\n91 01 4b t=1\n"
        ]
        for text in samples {
            guard case .failure(.malformed) = DS18B20.parseSlave(text) else {
                Issue.record("\(text.debugDescription) was not refused as malformed")
                continue
            }
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        replacing(target, with: replacement, maxReplacements: 1)
    }
}

/// `OneWireDirectory` against a temporary folder shaped like /sys/bus/w1/devices.
@Suite struct DS18B20SysfsFolderTests {
    /// A temporary folder; removed by `remove`.
    final class Folder {
        let path: String
        private var files: [String] = []
        private var folders: [String] = []

        init?() {
            var template = Array("/tmp/lodestone-w1-test-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) != nil else { return nil }
            path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        func folder(_ name: String) {
            let full = path + "/" + name
            if mkdir(full, 0o755) == 0 { folders.append(full) }
        }

        func file(_ name: String, _ text: String) {
            let full = path + "/" + name
            let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return }
            files.append(full)
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }

        func remove() {
            for file in files.reversed() { unlink(file) }
            for folder in folders.reversed() { rmdir(folder) }
            rmdir(path)
        }
    }

    static let withAttribute = "28-000005e2fdc3"
    static let slaveOnly = "28-0316a279ed1f"
    static let badCRC = "28-0417c1b2c3aa"

    static func sysfs() -> Folder? {
        guard let folder = Folder() else { return nil }
        for name in [withAttribute, slaveOnly, badCRC, "28-05000000dead", "w1_bus_master1", "10-000802b4c2e1"] {
            folder.folder(name)
        }
        folder.file(withAttribute + "/temperature", "21375\n")
        folder.file(withAttribute + "/w1_slave", DS18B20Tests.slave(DS18B20Tests.scratchpad(0x0000)))
        folder.file(slaveOnly + "/w1_slave", DS18B20Tests.slave(DS18B20Tests.scratchpad(0x0191)))
        // -10.125 °C (5E FF ...) with one bit flipped on the wire: 5A FF ... and the old CRC.
        let corrupted = [UInt8(0x5A)] + DS18B20Tests.scratchpad(0xFF5E).dropFirst()
        folder.file(badCRC + "/w1_slave", DS18B20Tests.slave(corrupted, verdict: "NO", t: -10125))
        return folder
    }

    @Test func listsOnlyTheThermometers() throws {
        let folder = try #require(Self.sysfs())
        defer { folder.remove() }
        let directory = OneWireDirectory(basePath: folder.path)
        #expect(directory.probes() == .success([Self.withAttribute, Self.slaveOnly, Self.badCRC, "28-05000000dead"].sorted()))
    }

    @Test func readsTheAttributeFirstAndFallsBackToW1Slave() throws {
        let folder = try #require(Self.sysfs())
        defer { folder.remove() }
        let directory = OneWireDirectory(basePath: folder.path)
        let attribute = directory.read(probe: Self.withAttribute)
        #expect(attribute == .success(.temperature("21375\n")))
        let slave = directory.read(probe: Self.slaveOnly)
        guard case .success(let text) = slave else {
            Issue.record("\(slave)")
            return
        }
        #expect(DS18B20.parse(text) == .success(25.0625))
        guard case .success(let bad) = directory.read(probe: Self.badCRC) else {
            Issue.record("the bad probe's file was not read")
            return
        }
        #expect(DS18B20.parse(bad) == .failure(.kernelRejected))
        #expect(attribute.map(DS18B20.parse) == .success(.success(21.375)))
    }

    @Test func missingProbesAndBusesAreTypedErrors() throws {
        let folder = try #require(Self.sysfs())
        defer { folder.remove() }
        let directory = OneWireDirectory(basePath: folder.path)
        #expect(directory.read(probe: "28-05000000dead") == .failure(.noSuchProbe(id: "28-05000000dead", base: folder.path)))
        #expect(directory.read(probe: "28-ffffffffffff") == .failure(.noSuchProbe(id: "28-ffffffffffff", base: folder.path)))
        #expect(directory.read(probe: "../etc") == .failure(.noSuchProbe(id: "../etc", base: folder.path)))
        #expect(directory.read(probe: "") == .failure(.noSuchProbe(id: "", base: folder.path)))
        let absent = OneWireDirectory(basePath: folder.path + "/no-such-folder")
        #expect(absent.probes() == .failure(.noBus(path: folder.path + "/no-such-folder")))
        #expect(OneWireError.noBus(path: "/sys/bus/w1/devices").description.contains("dtoverlay=w1-gpio"))
    }
}
