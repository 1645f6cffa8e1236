import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
@testable import lodestone
import Testing
@testable import LodestoneEncoding
@testable import LodestoneStorage

@Suite struct AccelerometerCommandTests {
    func write(_ text: String) -> String {
        let path = "/tmp/lodestone-accel-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    @Test func fitsSavesAndLoadsSixPositions() throws {
        var rows = ["t,az,ay,ax"]  // columns in any order
        for (index, up) in [(1.0, 0.0, 0.0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)].enumerated() {
            for i in 0..<40 {
                rows.append("\(Double(index * 40 + i) / 100),\(up.2 * 1.01 + 0.06),\(up.1 * 0.99 - 0.02),\(up.0 * 1.02 + 0.04)")
            }
        }
        let csv = write(rows.joined(separator: "\n"))
        defer { unlink(csv) }
        let data = "/tmp/lodestone-accel-data-\(getpid())"
        let result = AccelerometerCommand.offline(path: csv, json: true, store: CalibrationStore(dataDirectory: data))
        #expect(result.status == 0, "\(result.output)")
        let report = try JSONValue.parse(result.output)
        #expect(report["status"]?.stringValue == "ok")
        guard case .array(let offset)? = report["offset"] else { Issue.record("no offset"); return }
        #expect(abs((offset[0].numberValue ?? 0) - 0.04) < 1e-4 && abs((offset[2].numberValue ?? 0) - 0.06) < 1e-4)
        let loaded = try #require(CalibrationStore(dataDirectory: data).loadAccelerometer())
        #expect(abs(loaded.scale.x - 1 / 1.02) < 1e-4)
    }

    @Test func aMissingFaceIsNamed() {
        let csv = write("ax,ay,az\n" + String(repeating: "0,0,1\n", count: 50))
        defer { unlink(csv) }
        let result = AccelerometerCommand.offline(path: csv, json: false, store: nil)
        #expect(result.status == 1)
        #expect(result.output.contains("+x, -x, +y, -y, -z pointing up"))
    }
}
