import Glibc
import LodestoneCore
@testable import LodestoneRuntime
import Testing
@testable import LodestoneStorage

/// `lodestone track show ID --plot`: the stored track on the terminal and as a PNG.
@Suite(.serialized) struct TrackPlotCommandTests {
    @Test func aStoredTrackIsDrawnToTheTerminalAndToAPNG() throws {
        let (directory, id) = try PersonalDataTests.dataDirectory("plot")
        defer { removeTree(directory) }
        let end = EndToEndTests()
        let (status, text) = end.finish(try end.spawn(["track", "show", id, "--plot", "--data-dir", directory]))
        #expect(status == 0 && text.contains("S") && text.contains("@") && text.contains("N↑") && text.contains("|-"), "\(text)")
        let png = directory + "/ridge.png"
        let (written, said) = end.finish(try end.spawn(["track", "show", id, "--plot", "--out", png, "--size", "480x320", "--data-dir", directory]))
        #expect(written == 0 && said.contains("wrote"), "\(said)")
        let bytes = readFileBytes(png) ?? []
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 1000)
        // IHDR's width and height, big-endian at bytes 16 and 20.
        if bytes.count > 24 {
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 480 && height == 320)
        }
        let (bad, why) = end.finish(try end.spawn(["track", "show", id, "--plot", "--out", png, "--size", "10x10", "--data-dir", directory]))
        #expect(bad == 2 && why.contains("--size"))
    }
}
