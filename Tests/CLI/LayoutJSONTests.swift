import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage
import Testing

/// `lodestone screenshot --layout-json FILE`: the page, its used fraction and its text runs with
/// their boxes, as the contract names them: every run on the panel, none clipped, a key figure.
@Suite struct LayoutJSONTests {
    @Test func theScreenshotWritesItsTextRuns() throws {
        let base = "/tmp/lodestone-layout-\(getpid())"
        defer { unlink(base + ".png"); unlink(base + ".json") }
        let end = EndToEndTests()
        let (status, output) = end.finish(
            try end.spawn([
                "screenshot", "--page", "compass", "--size", "480x320", "--settle", "1",
                "--out", base + ".png", "--layout-json", base + ".json"
            ]))
        #expect(status == 0, "\(output)")
        let document = try JSONValue.parse(String(decoding: readFileBytes(base + ".json") ?? [], as: UTF8.self))
        #expect(document["page"]?.stringValue == "compass" && document["width"]?.numberValue == 480 && document["height"]?.numberValue == 320)
        let used = try #require(document["usedFraction"]?.numberValue)
        #expect(used > 0.5 && used <= 1, "usedFraction \(used)")
        let runs = try #require(document["texts"]?.arrayValue)
        #expect(runs.count > 5 && runs.first?["text"]?.stringValue == "COMPASS", "\(runs.prefix(3))")
        #expect(runs.contains { $0["key"]?.boolValue == true }, "a key figure")
        for run in runs {
            let (x, y, w, h) = (run["x"]?.numberValue ?? -1, run["y"]?.numberValue ?? -1, run["w"]?.numberValue ?? -1, run["h"]?.numberValue ?? -1)
            #expect(x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 480 && y + h <= 320 && run["missingGlyphs"]?.numberValue == 0, "\(run)")
            #expect(run["clipped"]?.boolValue == false, "\(run)")
        }
    }
}
