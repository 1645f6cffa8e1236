import Glibc
import LodestoneCore
import LodestoneStorage
import Testing

/// The regression corpus (Tests/Recordings): each recording, from the simulated trips on the
/// chip families the simulator has and from the hardware lab's real kernel, replayed by the
/// built binary, must publish exactly the report stream kept beside it (its SHA-256 and its
/// count of lines). A change that asks the chips one question more diverges; a change that
/// publishes one figure otherwise changes the digest: `scripts/recordings --digests` writes the
/// new ones when that was meant.
@Suite(.serialized) struct RecordingCorpusTests {
    let program = EndToEndTests()

    /// Tests/Recordings, found from this file.
    static var folder: String {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Recordings"
    }

    static var recordings: [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".rec") { names.append(String(name.dropLast(4))) }
        }
        return names.sorted()
    }

    @Test func theCorpusHoldsTheSimulatedChipFamiliesAndTheLab() {
        let names = Self.recordings
        #expect(names.contains("walk") && names.contains("boat"), "\(names)")
        #expect(names.contains { $0.contains("mpu9250") } && names.contains { $0.contains("lsm6dsox") }, "\(names)")
        #expect(names.contains { $0.hasPrefix("lab-") }, "\(names)")
    }

    @Test(arguments: recordings) func eachRecordingReplaysToItsReportStream(_ name: String) throws {
        let expected = try readTextFile(Self.folder + "/" + name + ".reports").split(separator: " ")
        try #require(expected.count == 2, "\(name).reports holds a SHA-256 and a count of lines")
        let reports = "/tmp/lodestone-corpus-\(getpid())-\(name).jsonl"
        defer { unlink(reports) }
        let replay = program.finish(try program.spawn(["replay", Self.folder + "/" + name + ".rec", "--speed", "max", "--reports", reports]))
        #expect(replay.status == 0, "\(replay.output)")
        let published = try #require(readFileBytes(reports))
        let lines = published.filter { $0 == UInt8(ascii: "\n") }.count
        #expect("\(lines)" == expected.last.map(String.init)?.trimmingSpaces, "\(name): \(lines) reports")
        #expect(
            SHA256.hex(published) == expected.first.map(String.init),
            "\(name) replays to other reports than the corpus keeps: if the change means that, run scripts/recordings --digests")
    }
}

extension String {
    fileprivate var trimmingSpaces: String { String(self.filter { !$0.isWhitespace }) }
}
