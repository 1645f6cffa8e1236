import Glibc
import Testing
@testable import LodestoneSettings
@testable import LodestoneBoard

@Suite struct ConfigurationTests {
    func file(_ text: String) -> String {
        let path = "/tmp/lodestone-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test func loadsEveryKey() throws {
        let path = file(
            """
            {"board":"sim","scenario":"boat","speed":10,"seed":7,"socket":"/tmp/x.sock","dataDir":"/tmp/d",
             "display":"none","loopRateHz":400,"rates":{"imu":200,"magnetometer":100,"barometer":10,"gps":10,"processing":25},
             "simulatedGPSRateHz":5,"qnh":1020,"realTime":{"priority":null,"cpu":1,"lockMemory":false}}
            """)
        defer { unlink(path) }
        var c = Configuration()
        try c.load(file: path)
        #expect(c.scenario == "boat" && c.speed == 10 && c.seed == 7 && c.socket == "/tmp/x.sock")
        #expect(c.loopRateHz == 400 && c.imuRateHz == 200 && c.barometerRateHz == 10 && c.processingRateHz == 25)
        #expect(c.realTimePriority == nil && c.cpu == 1 && c.lockMemory == false && c.qnh == 1020)
    }

    @Test(arguments: [
        (#"{"bogus": 1}"#, "'bogus': unknown key"),
        (#"{"rates": {"imu": "fast"}}"#, "'rates.imu': must be a number from 1 to 1000, found \"fast\""),
        (#"{"rates": {"compass": 10}}"#, "'rates.compass': unknown key"),
        (#"{"scenario": "flying"}"#, "'scenario': must be one of walk, boat, still, drive"),
        (#"{"qnh": 2000}"#, "'qnh': must be a number from 850 to 1100, found 2000"),
        (#"{"realTime": {"lockMemory": "yes"}}"#, "'realTime.lockMemory': must be true or false"),
        (#"{"speed": 1,"#, "not valid JSON"),
        ("[]", "one JSON object")
    ])
    func namesTheFileTheKeyAndTheProblem(text: String, expected: String) {
        let path = file(text)
        defer { unlink(path) }
        var c = Configuration()
        do {
            try c.load(file: path)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(path))
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func missingFileSaysSo() {
        var c = Configuration()
        #expect(throws: ConfigurationError.self) { try c.load(file: "/nonexistent/lodestone.json") }
    }

    @Test func ratesAboveTheLoopRateAreRefused() {
        var c = Configuration()
        c.imuRateHz = 500
        #expect(throws: ConfigurationError.self) { try c.validate() }
    }
}
