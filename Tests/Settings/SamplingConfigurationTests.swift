import Glibc
import LodestoneDomain
import LodestoneHAL
import Testing
@testable import LodestoneSettings
@testable import LodestoneCore

@Suite struct SamplingConfigurationTests {
    func file(_ text: String) -> String {
        let path = "/tmp/lodestone-sampling-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test func overridesTheTable() throws {
        let path = file(
            #"{"sampling":{"adaptive":true,"lowPower":true,"lowBatteryPercent":30,"rates":{"still":{"imu":20,"gpsInterval":10}},"lowPowerCeiling":{"imu":40}}}"#
        )
        defer { unlink(path) }
        var c = Configuration()
        try c.load(file: path)
        #expect(c.lowPower && c.lowBatteryPercent == 30)
        #expect(c.samplingTable.rates[.still]?.imu == 20 && c.samplingTable.rates[.still]?.gpsInterval == 10)
        #expect(c.samplingTable.rates[.still]?.magnetometer == 10, "untouched rates keep their defaults")
        #expect(c.samplingTable.lowPowerCeiling.imu == 40)
    }

    @Test(arguments: [
        (#"{"sampling":{"rates":{"flying":{"imu":20}}}}"#, "'sampling.rates.flying': unknown motion state"),
        (#"{"sampling":{"rates":{"still":{"imu":0}}}}"#, "'sampling.rates.still.imu': must be a number from 1 to 1000"),
        (#"{"sampling":{"rates":{"still":{"gyro":5}}}}"#, "'sampling.rates.still.gyro': unknown rate"),
        (#"{"sampling":{"adaptive":"yes"}}"#, "'sampling.adaptive': must be true or false"),
        (#"{"sampling":{"eco":true}}"#, "'sampling.eco': unknown key")
    ])
    func refusesBadOverridesNamingTheKey(text: String, expected: String) {
        let path = file(text)
        defer { unlink(path) }
        var c = Configuration()
        do {
            try c.load(file: path)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func readsThePowerSupplyClass() throws {
        let root = "/tmp/lodestone-power-\(getpid())"
        func put(_ path: String, _ text: String) {
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            _ = makeDirectories(root + "/" + directory)
            let fd = open(root + "/" + path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        put("BAT0/type", "Battery\n")
        put("BAT0/capacity", "17\n")
        put("BAT0/status", "Discharging\n")
        put("AC/type", "Mains\n")
        put("AC/online", "0\n")
        #expect(PowerSupply.read(directory: root) == PowerSupplyReading(externalPower: false, batteryPercent: 17))
        put("AC/online", "1\n")
        #expect(PowerSupply.read(directory: root).externalPower == true)
        put("BAT0/capacity", "lots\n")
        #expect(PowerSupply.read(directory: root).batteryPercent == nil)
        #expect(PowerSupply.read(directory: root + "/none") == PowerSupplyReading(externalPower: nil, batteryPercent: nil))
        // A reader kept from reading to reading sees the attributes change, and lists the
        // folder again when a supply goes away.
        put("BAT0/capacity", "64\n")
        let reader = PowerSupplyReader(directory: root)
        #expect(reader.read() == PowerSupplyReading(externalPower: true, batteryPercent: 64))
        put("AC/online", "0\n")
        put("BAT0/status", "Charging\n")
        put("BAT0/capacity", "65\n")
        #expect(reader.read() == PowerSupplyReading(externalPower: true, batteryPercent: 65))
        removeTree(root + "/BAT0")
        #expect(reader.read() == PowerSupplyReading(externalPower: false, batteryPercent: nil))
        removeTree(root)
    }
}
