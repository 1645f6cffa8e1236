import Glibc
import LodestoneCore
import Testing

@testable import LodestoneVerify

/// The comparison behind `verify --recording FILE --reports FILE2`: per class and device, in
/// order; the first difference named with its place and field; reports on one side only said.
@Suite struct PublishedReportsTests {
    static let folder = "/tmp/lodestone-published-\(getpid())"

    static let published = [
        #"{"class":"ATT","device":"imu","time":"2026-06-21T08:00:00.100Z","pitch":1.5}"#,
        #"{"class":"TPV","device":"gps","time":"2026-06-21T08:00:01.000Z","lat":47.1}"#,
        #"{"class":"ATT","device":"imu","time":"2026-06-21T08:00:00.200Z","pitch":1.6}"#,
        #"{"class":"MOTION","time":"2026-06-21T08:00:01.000Z","steps":2}"#,
        #"{"class":"ATT","device":"imu","time":"2026-06-21T08:00:00.300Z","pitch":1.7}"#
    ]

    func compare(_ published: [String], ending: String = "\n", replayed: [String]) throws -> RefereeCheck {
        mkdir(Self.folder, 0o700)
        let path = Self.folder + "/reports-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { unlink(path) }
        try replaceFile(path, with: Array((published.joined(separator: "\n") + ending).utf8))
        let comparison = try PublishedReports(path: path)
        for line in replayed { comparison.take(line) }
        return comparison.check(trip: "trip")
    }

    @Test func theSameReportsPassWhateverTheInterleavingOfStreams() throws {
        // Streams of different classes may interleave otherwise; each keeps its own order.
        let replayed = [Self.published[0], Self.published[2], Self.published[1], Self.published[4], Self.published[3]]
        let check = try compare(Self.published, replayed: replayed)
        #expect(check.passed && check.measured == 5, "\(check.detail)")
    }

    @Test func theFirstDifferenceIsNamedWithItsPlaceAndField() throws {
        var replayed = Self.published
        replayed[2] = replayed[2].replacing("1.6", with: "1.65")
        replayed[4] = replayed[4].replacing("1.7", with: "9")
        let check = try compare(Self.published, replayed: replayed)
        #expect(!check.passed)
        #expect(check.detail.contains(#"the 2nd ATT of imu (line 3 of "#), "\(check.detail)")
        #expect(check.detail.contains(#"at 2026-06-21T08:00:00.200Z differs in "pitch": published 1.6, replayed 1.65"#), "\(check.detail)")
        #expect(!check.detail.contains("replayed 9"), "only the first difference is named: \(check.detail)")
    }

    @Test func reportsOnOneSideOnlyAreCountedAndTheFirstNamed() throws {
        let short = try compare(Self.published, replayed: Array(Self.published.prefix(3)))
        #expect(!short.passed && short.detail.contains("2 published reports were not replayed"), "\(short.detail)")
        let long = try compare(Array(Self.published.prefix(4)), replayed: Self.published)
        #expect(!long.passed && long.detail.contains("1 replayed reports were never published, first the 3rd ATT of imu"), "\(long.detail)")
    }

    /// A write cut by a power failure is not a report: warned about, skipped, the rest compared.
    @Test func aCutLastLineIsSkipped() throws {
        let check = try compare(Self.published, ending: "\n{\"class\":\"AT", replayed: Self.published)
        #expect(check.passed, "\(check.detail)")
        #expect(check.detail.contains("1 lines of"), "\(check.detail)")
    }

    @Test func aFolderOrAMissingFileIsRefusedWithWhatToDo() {
        for path in ["/nonexistent/reports.jsonl", "/tmp"] {
            #expect(throws: (any Error).self) { _ = try PublishedReports(path: path) }
        }
        do {
            _ = try PublishedReports(path: "/nonexistent/reports.jsonl")
        } catch {
            #expect(error.description.contains("lodestone run --record FILE --reports FILE2"), "\(error.description)")
        }
    }
}
