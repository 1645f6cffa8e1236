import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneStorage

@Suite struct CalibrationStoreTests {
    let calibration = MagnetometerCalibration(
        hardIronOffset: Vector3(70.0123, -60.4567, 44.9876),
        softIron: Matrix3(
            Vector3(1.100205, 0.132876, -0.133624), Vector3(0.132876, 1.011131, 0.010618),
            Vector3(-0.133624, 0.010618, 0.930361)),
        fieldStrength: 49.326, residualRMS: 0.3121, coverage: 0.975, expectedHeadingError: 0.86)

    func temporaryDirectory() -> String {
        "/tmp/lodestone-calibration-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func roundTrip() throws {
        let dataDir = temporaryDirectory()
        let store = CalibrationStore(dataDirectory: dataDir)
        try store.save(calibration, sensor: "mag")
        #expect(store.path(sensor: "mag") == dataDir + "/calibration/mag.json")
        #expect(fileExists(dataDir + "/calibration/mag.json"))
        #expect(!fileExists(dataDir + "/calibration/mag.json.tmp"))
        guard case .loaded(let loaded) = store.load(sensor: "mag") else {
            Issue.record("not loaded: \(store.load(sensor: "mag"))")
            return
        }
        #expect(loaded == calibration)
        // Saving again replaces the file.
        var changed = calibration
        changed.model = .sphere
        changed.softIron = .identity
        try store.save(changed, sensor: "mag")
        #expect(store.load(sensor: "mag") == .loaded(changed))
        #expect(store.loadLogging(sensor: "mag") == changed)
    }

    @Test func missingFileIsNotAnError() {
        let store = CalibrationStore(dataDirectory: temporaryDirectory())
        #expect(store.load(sensor: "mag") == .none)
        #expect(store.loadLogging(sensor: "mag") == nil)
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        ("{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0],[0,0,1]],\"fieldStr", "not valid JSON"),
        ("[1,2,3]", "expected a JSON object"),
        ("{\"version\":2}", "version 2 is not supported"),
        (
            "{\"version\":1,\"offset\":[1,2],\"softIron\":[[1,0,0],[0,1,0],[0,0,1]],\"fieldStrength\":50,\"residualRMS\":0.3,\"coverage\":1,\"expectedHeadingError\":1}",
            "\"offset\" must be an array of 3 numbers"
        ),
        (
            "{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0]],\"fieldStrength\":50,\"residualRMS\":0.3,\"coverage\":1,\"expectedHeadingError\":1}",
            "\"softIron\" must be 3 rows"
        ),
        (
            "{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0],[0,0,0]],\"fieldStrength\":50,\"residualRMS\":0.3,\"coverage\":1,\"expectedHeadingError\":1}",
            "not a plausible correction"
        ),
        (
            "{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0],[0,0,1]],\"fieldStrength\":\"50\",\"residualRMS\":0.3,\"coverage\":1,\"expectedHeadingError\":1}",
            "\"fieldStrength\" must be a number"
        ),
        (
            "{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0],[0,0,1]],\"fieldStrength\":50,\"residualRMS\":0.3,\"coverage\":3,\"expectedHeadingError\":1}",
            "\"coverage\" must be from 0 to 1"
        ),
        (
            "{\"version\":1,\"offset\":[1,2,3],\"softIron\":[[1,0,0],[0,1,0],[0,0,1]],\"fieldStrength\":50,\"coverage\":1,\"expectedHeadingError\":1}",
            "no \"residualRMS\""
        )
    ])
    func corruptFileIsRefusedWithAMessage(contents: String, expected: String) throws {
        let dataDir = temporaryDirectory()
        let store = CalibrationStore(dataDirectory: dataDir)
        #expect(makeDirectories(store.directory))
        let path = try #require(store.path(sensor: "mag"))
        #expect(writeFileAtomically(path, Array(contents.utf8)))
        guard case .refused(let message) = store.load(sensor: "mag") else {
            Issue.record("\(contents) was not refused")
            return
        }
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains(path))
        #expect(message.contains("calibrate"))
        #expect(store.loadLogging(sensor: "mag") == nil)
    }

    @Test func sensorNamesCannotLeaveTheDirectory() {
        let store = CalibrationStore(dataDirectory: "/tmp/x/")
        #expect(store.directory == "/tmp/x/calibration")
        #expect(store.path(sensor: "mag-0") == "/tmp/x/calibration/mag-0.json")
        for bad in ["", "../mag", "a/b", ".hidden", "mag\u{0}"] {
            #expect(store.path(sensor: bad) == nil, "\(bad)")
            #expect(throws: CalibrationFileError.self) { try store.save(calibration, sensor: bad) }
        }
    }

    @Test func fileIsOneLineWithTheDocumentedKeys() throws {
        let text = CalibrationJSON.file(calibration, sensor: "mag")
        #expect(text.hasPrefix("{\"version\":1,\"sensor\":\"mag\",\"model\":\"ellipsoid\",\"offset\":[70.0123,-60.4567,44.9876],"))
        #expect(text.contains("\"softIron\":[[1.100205,0.132876,-0.133624],[0.132876,1.011131,0.010618],[-0.133624,0.010618,0.930361]]"))
        #expect(text.filter { $0 == "\n" }.count == 1)
    }
}

@Suite struct CalibrationJSONNumberTests {
    @Test func wildNumbersStayValidJSON() {
        #expect(CalibrationJSON.numberText(.nan, decimals: 4) == "null")
        #expect(CalibrationJSON.numberText(-.infinity, decimals: 4) == "null")
        #expect(CalibrationJSON.numberText(12.345678, decimals: 4) == "12.3457")
        for huge in [9.5e14, 3e18, 1e300, -7e13] {
            let text = CalibrationJSON.numberText(huge, decimals: 6)
            #expect(Double(text) != nil, "\(text)")
        }
    }
}
