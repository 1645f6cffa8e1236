import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage
import Testing

/// `lodestone screenshot --layout-json FILE`: the page's text runs with their boxes, as the
/// contract names them, every run on the panel.
@Suite struct LayoutJSONTests {
    @Test func theScreenshotWritesItsTextRuns() throws {
        let base = "/tmp/lodestone-layout-\(getpid())"
        defer { unlink(base + ".png"); unlink(base + ".json") }
        let end = EndToEndTests()
        let (status, output) = end.finish(
            try end.spawn([
                "screenshot", "--page", "sky", "--size", "480x320", "--settle", "1",
                "--out", base + ".png", "--layout-json", base + ".json"
            ]))
        #expect(status == 0, "\(output)")
        let runs = try #require(try JSONValue.parse(String(decoding: readFileBytes(base + ".json") ?? [], as: UTF8.self)).arrayValue)
        #expect(runs.count > 5 && runs.first?["text"]?.stringValue == "SKY", "\(runs.prefix(3))")
        for run in runs {
            let (x, y, w, h) = (run["x"]?.numberValue ?? -1, run["y"]?.numberValue ?? -1, run["w"]?.numberValue ?? -1, run["h"]?.numberValue ?? -1)
            #expect(x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 480 && y + h <= 320 && run["missingGlyphs"]?.numberValue == 0, "\(run)")
        }
    }
}
