import Glibc
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneSettings
@testable import LodestoneBoard

/// A refused number is quoted as it was written, wherever it is refused: the configuration
/// file, a board file, a socket request and a flag. Reading it as a Double and printing that
/// turned 1e308 into 9200000000000000000.
@Suite struct RefusedNumberTests {
    func file(_ text: String) -> String {
        let path = "/tmp/lodestone-refused-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test(arguments: [
        (#"{"qnh": 1e308}"#, "found 1e308"),
        (#"{"speed": -0.0}"#, "found -0.0"),
        (#"{"loopRateHz": 1E+5}"#, "found 1E+5"),
        (#"{"seed": 2.50}"#, "found 2.50"),
        (#"{"rates": {"imu": 1e-7}}"#, "found 1e-7"),
        (#"{"sampling": {"lowBatteryPercent": 0.000001e2}}"#, "found 0.000001e2"),
        (#"{"mqtt": {"broker": "localhost:1883", "queueLimit": 1e308}}"#, "found 1e308")
    ])
    func theConfigurationFileQuotesIt(text: String, expected: String) {
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

    @Test func aBoardFileQuotesIt() {
        for (text, expected) in [
            (#"{"gps":{"port":"/dev/ttyS0","baud":9.601e3}}"#, "found 9.601e3"),
            (#"{"gps":{"port":"/dev/ttyS0","baud":1e308}}"#, "found 1e308")
        ] {
            do {
                _ = try BoardDescription.parse(text, file: "board.json")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }

    @Test func aSocketRequestQuotesIt() throws {
        for (name, argument, expected) in [
            ("LOCK", #"{"bearing":1e308}"#, "not 1e308"), ("BARO", #"{"qnh":-0.0}"#, "not -0.0"),
            ("BARO", #"{"altitude":1E+5}"#, "not 1E+5"),
            ("ALERT", #"{"name":"pressureHigh","threshold":1e308}"#, "not 1e308")
        ] {
            let json = try JSONValue.parse(argument)
            do {
                switch name {
                case "LOCK": _ = try LockRequest.decode(json)
                case "BARO": _ = try BaroRequest.decode(json)
                default: _ = try AlertRuleChange.decode(json)
                }
                Issue.record("accepted ?\(name)=\(argument)")
            } catch {
                #expect(error.message.contains(expected), "\(error.message)")
            }
        }
    }

    @Test func aFlagQuotesIt() throws {
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawn(["run", "--qnh", "1e308", "--duration", "1", "--display", "none"]))
        #expect(status == 2 && output.contains("'1e308'") && !output.contains("9200000000000000000"), "\(output)")
    }
}
