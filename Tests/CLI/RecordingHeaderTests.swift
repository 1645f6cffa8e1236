import Glibc
import LodestoneCore
import LodestoneEncoding
import Testing
@testable import LodestoneStorage

/// A recording's header holds numbers the readers turn into dates and integers: one beyond
/// what they can hold is the file's error, naming the field, never a trap (exit 132).
@Suite(.serialized) struct RecordingHeaderTests {
    /// Tests/Recordings/walk.rec, found from this file.
    static var walk: String {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Recordings/walk.rec"
    }

    /// walk.rec again, in a folder of its own, with its header's text changed by `edit`.
    static func edited(_ edit: (String) -> String) throws -> (folder: String, file: String) {
        let contents = try RecordingFile.read(path: walk)
        let header = try JSONValue.parse(edit(contents.header.serialized))
        let folder = "/tmp/lodestone-header-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try #require(makeDirectories(folder))
        _ = try RecordingFile.write(path: folder + "/walk.rec", header: header, events: contents.events, outputSide: contents.outputSide, now: 0)
        return (folder, folder + "/walk.rec")
    }

    @Test func everyHostileNumberIsRefusedNamingItsField() throws {
        let base = try RecordingFile.read(path: Self.walk).header.serialized
        #expect(base.contains(#""startUTC":1782028800"#), "walk.rec's header changed: \(base)")
        for (written, field) in [
            (#""startUTC":1e19"#, "startUTC 1e19"), (#""startUTC":-1"#, "startUTC -1"), (#""startUTC":"soon""#, #"startUTC "soon""#),
            (#""startUTC":1782028800,"from":1e308"#, "from 1e308"), (#""startUTC":1782028800,"codec":1e19"#, "codec 1e19")
        ] {
            let text = base.replacing(#""startUTC":1782028800"#, with: written, maxReplacements: 1)
            do {
                _ = try RecordingHeader.parse(Array(text.utf8), file: "walk.rec")
                Issue.record("accepted \(written)")
            } catch {
                #expect(error.description.hasPrefix("walk.rec: the header's \(field) is out of range"), "\(error.description)")
            }
        }
        #expect(throws: StorageError.self) {
            _ = try RecordingHeader.parse(Array(base.replacing(#""lines":[]"#, with: #""lines":[1e19]"#, maxReplacements: 1).utf8), file: "walk.rec")
        }
        // The recording as it was is taken, its start where it was.
        #expect(try RecordingHeader.parse(Array(base.utf8), file: "walk.rec")["startUTC"]?.numberValue == 1_782_028_800)
    }

    @Test(arguments: [["recording", "info"], ["replay"], ["verify", "--recording"]])
    func aStartBeyondAnyDateIsAnErrorNotATrap(command: [String]) throws {
        let made = try Self.edited { $0.replacing(#""startUTC":1782028800"#, with: #""startUTC":1e19"#, maxReplacements: 1) }
        defer { removeTree(made.folder) }
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawn(command + [made.file]))
        #expect(status == 1, "exit \(status): \(output)")
        // The file is written again from the parsed header, which writes the number as 1e+19.
        #expect(output.contains("walk.rec: the header's startUTC 1e+19 is out of range"), "\(output)")
    }

    @Test func anInstantNoFileShouldHoldIsStillWrittenAsADate() {
        for hostile in [1e19, -1e19, .infinity, -.infinity, .nan, 1.797e308] {
            #expect(TimeZoneRules.utc.iso8601(hostile).count == TimeZoneRules.iso8601Length, "\(hostile)")
        }
        #expect(Int64(saturating: 1e19) == .max && Int64(saturating: -1e19) == .min && Int64(saturating: .nan) == 0)
        #expect(Int32(saturating: -2.9) == -2 && UInt8(saturating: 300) == 255 && UInt8(saturating: -1) == 0)
    }
}
