import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneSim
import Testing
@testable import lodestone
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// `lodestone calibrate mag --from FILE.csv`: the printed result and exit status.
@Suite struct CalibrateCommandTests {
    /// A sweep of random directions of a 50 uT field through a known offset and gain error,
    /// written as CSV with the columns in an unusual order and one broken line.
    func writeRecording(keep: (Vector3) -> Bool = { _ in true }, count: Int = 1500) -> String {
        var random = SeededRandom(seed: 7)
        var text = "mz,t,mx,my,ax,ay,az\n"
        var written = 0
        while written < count {
            let direction = Vector3(random.gaussian(1), random.gaussian(1), random.gaussian(1)).normalized
            guard direction.length > 0, keep(direction) else { continue }
            let field = direction * 50
            let raw =
                Vector3(field.x * 1.1 + 70, field.y * 0.95 - 60, field.z + 45)
                + Vector3(random.gaussian(0.3), random.gaussian(0.3), random.gaussian(0.3))
            text += "\(raw.z),\(Double(written) * 0.02),\(raw.x),\(raw.y),0,0,-1\n"
            written += 1
            if written == 10 { text += "garbage line\n" }
        }
        let path = "/tmp/lodestone-calibrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv"
        #expect(writeFileAtomically(path, Array(text.utf8)))
        return path
    }

    @Test func goodRecordingPrintsOneJSONLineAndExitsZero() throws {
        let path = writeRecording()
        defer { unlink(path) }
        let (output, status) = CalibrateCommand.offline(path: path, json: true)
        #expect(status == 0)
        #expect(output.hasSuffix("\n") && output.filter { $0 == "\n" }.count == 1)
        let json = try JSONValue.parse(output)
        guard case .object(let members) = json else { Issue.record("not an object"); return }
        #expect(
            members.map(\.0) == [
                "status", "reason", "mode", "offset", "softIron", "fieldStrength", "residualRMS", "coverage",
                "expectedHeadingError", "headingUncertainty", "turned"
            ])
        #expect(json["mode"] == .string("figure8") && json["turned"] == .null)
        #expect((json["headingUncertainty"]?.numberValue ?? 99) < 0.5)
        #expect(json["status"] == .string("ok"))
        #expect(json["reason"] == .null)
        guard case .array(let offset)? = json["offset"] else { Issue.record("no offset"); return }
        let o = offset.compactMap(\.numberValue)
        #expect(o.count == 3 && abs(o[0] - 70) < 0.1 && abs(o[1] + 60) < 0.1 && abs(o[2] - 45) < 0.1, "\(o)")
        guard case .array(let rows)? = json["softIron"], rows.count == 3 else { Issue.record("no softIron"); return }
        // The correction undoes the x gain of 1.1 and y gain of 0.95 (up to a common scale).
        func element(_ r: Int, _ c: Int) -> Double {
            guard case .array(let row) = rows[r], row.count == 3 else { return .nan }
            return row[c].numberValue ?? .nan
        }
        let xx = element(0, 0), yy = element(1, 1)
        #expect(abs(yy / xx - 1.1 / 0.95) < 0.01)
        let coverage = json["coverage"]?.numberValue ?? 0
        #expect(coverage > 0.9 && coverage <= 1)
        #expect((json["expectedHeadingError"]?.numberValue ?? 99) < 1.5)
    }

    /// Directions within 35 degrees of one: a few turns of the wrist.
    static func narrow(_ direction: Vector3) -> Bool { direction.dot(Vector3(0.6, 0, 0.8)) > 0.82 }

    @Test func refusedRecordingStillPrintsTheJSONWithTheReason() throws {
        let path = writeRecording(keep: Self.narrow)
        defer { unlink(path) }
        let (output, status) = CalibrateCommand.offline(path: path, json: true)
        #expect(status == 1)
        let json = try JSONValue.parse(output)
        #expect(json["status"] == .string("failed"))
        let reason = try #require(json["reason"]?.stringValue)
        #expect(reason.contains("tilt it and turn it over"), "\(reason)")
        #expect(json["offset"]?.kind == "an array")
    }

    @Test func readableSummarySaysWhatToDo() {
        let good = writeRecording()
        let bad = writeRecording(keep: Self.narrow)
        defer { unlink(good); unlink(bad) }
        let ok = CalibrateCommand.offline(path: good, json: false)
        #expect(ok.status == 0)
        #expect(ok.output.contains("1500 readings (1 unreadable line skipped), with accelerometer"))
        #expect(ok.output.contains("calibration good"))
        let refused = CalibrateCommand.offline(path: bad, json: false)
        #expect(refused.status == 1)
        #expect(refused.output.contains("calibration refused:\n  - the readings lie nearly in one plane"), "\(refused.output)")
        #expect(refused.output.contains("\n  - the readings "), "the heading's uncertainty is said too: \(refused.output)")
        #expect(refused.output.contains("point the"), "says which way to turn: \(refused.output)")
    }

    @Test func unusableFilesFailWithAReason() throws {
        let missing = CalibrateCommand.offline(path: "/nonexistent/mag.csv", json: true)
        #expect(missing.status == 1)
        #expect(try JSONValue.parse(missing.output)["reason"]?.stringValue?.contains("/nonexistent/mag.csv") == true)
        let path = "/tmp/lodestone-calibrate-bad-\(getpid()).csv"
        defer { unlink(path) }
        #expect(writeFileAtomically(path, Array("t,mx,my,mz\n1,a,b,c\n".utf8)))
        let empty = CalibrateCommand.offline(path: path, json: true)
        #expect(empty.status == 1)
        let json = try JSONValue.parse(empty.output)
        #expect(json["reason"]?.stringValue?.contains("no usable readings") == true)
        #expect(json["offset"] == .null && json["softIron"] == .null)
    }

    @Test func usageErrors() {
        func message(_ arguments: [String]) -> String? {
            do {
                _ = try CalibrateCommand.main(ArraySlice(arguments))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message([])?.contains("calibrate which sensor") == true)
        #expect(message(["gyro", "--from", "x.csv"])?.contains("cannot calibrate 'gyro'") == true)
        #expect(message(["mag", "--from"])?.contains("--from needs a value") == true)
        #expect(message(["mag", "--bogus"])?.contains("unknown option --bogus") == true)
        // The accelerometer has no live calibration: it must be given a recording.
        #expect(message(["accel"])?.contains("--from FILE.csv") == true)
        // The magnetometer's live calibration needs a running instance: no usage error, exit 1.
        #expect((try? CalibrateCommand.main(["mag", "--socket", "/tmp/lodestone-no-such.sock"])) == 1)
        #expect(CalibrateCommand.help.contains("lodestone calibrate mag --from FILE.csv [--swing] [--lat L --lon L] [--json]"))
        #expect(message(["mag", "--from", "x.csv", "--lat", "50"])?.contains("both --lat and --lon") == true)
        #expect(message(["mag", "--from", "x.csv", "--lat", "95", "--lon", "3"]) != nil)
        #expect(message(["mag", "--lat", "50", "--lon", "3"])?.contains("--lat and --lon are for --from") == true)
    }
}
