import Glibc
import LodestoneCore
@testable import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing

/// The connect page: the web app's one-time pairing address as a QR code that Debian's
/// zbarimg reads off `lodestone screenshot`'s picture at every panel size, the code kept while
/// it may pair and renewed once used or about to expire, and the terminal's half-block symbol.
@Suite(.serialized) struct ConnectPageTests {
    static func isPairingURL(_ text: String) -> Bool {
        guard text.hasPrefix("http://127.0.0.1:"), let code = text.split(separator: "=").last, text.contains("/pair?code=") else { return false }
        return code.count == 10 && code.allSatisfy { "abcdefghijkmnpqrstuvwxyz23456789".contains($0) }
    }

    @Test func zbarimgReadsTheScreenshot() throws {
        guard let zbarimg = QRCodeTests.zbarimg else {
            print("skipped: zbarimg is not installed (scripts/install-deps --test installs zbar-tools)")
            return
        }
        let folder = "/tmp/lodestone-connect-\(getpid())"
        removeTree(folder)
        #expect(makeDirectories(folder))
        defer { removeTree(folder) }
        let end = EndToEndTests()
        for (size, format, theme) in [("320x240", "rgb565", "day"), ("128x64", "mono", "day"), ("800x480", "rgb565", "night")] {
            let path = folder + "/connect-\(size).png"
            let (status, output) = end.finish(
                try end.spawn([
                    "screenshot", "--page", "connect", "--size", size, "--format", format, "--theme", theme,
                    "--settle", "1", "--out", path
                ]))
            #expect(status == 0, "\(output)")
            let (read, text) = try QRCodeTests.decode(path, with: zbarimg)
            #expect(read == 0 && Self.isPairingURL(String(text.split(separator: "\n").first ?? "")), "\(size) \(theme): '\(text)'")
        }
    }

    @Test func theCodeIsKeptWhileItMayPairAndRenewedAfter() throws {
        let data = "/tmp/lodestone-connect-web-\(getpid())"
        removeTree(data)
        #expect(makeDirectories(data))
        defer { removeTree(data) }
        let web = try WebOutput(listen: "127.0.0.1:\(EndToEndTests.freePort())", access: .paired, dataDirectory: data)
        let now = 1_790_000_000.0
        let first = web.connectPanel(now: now)
        let url = try #require(first.url)
        #expect(Self.isPairingURL(url) && first.minutesLeft == 10, "\(url)")
        #expect(web.connectPanel(now: now + 60).url == url, "the same code while it may pair")
        // Used by a phone (typed in capitals from the screen, even): a new one.
        let code = String(url.split(separator: "=").last ?? "")
        #expect(web.pairings.redeem(code: code.uppercased(), name: "phone", now: now + 120) != nil)
        let second = try #require(web.connectPanel(now: now + 121).url)
        #expect(second != url && Self.isPairingURL(second))
        // About to expire: a new one a minute before.
        #expect(web.connectPanel(now: now + 121 + 8 * 60).url == second && web.connectPanel(now: now + 121 + 9 * 60 + 1).url != second)
    }

    @Test func theTerminalDrawsTheSymbolInHalfBlocks() throws {
        var model = DisplayModel()
        let url = "http://192.168.1.20:8080/pair?code=7q2x9kmdab"
        model.connect = ConnectPanel(url: url, minutesLeft: 9)
        let code = try #require(QRCode(Array(url.utf8)))
        let screen = DisplayPage.connect.draw(model, columns: 80, rows: 40).text
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let symbol = lines.filter { $0.contains("▀") || $0.contains("▄") }
        #expect(symbol.count >= (code.size + 4) / 2 - 2, "\(screen)")
        // The first symbol row: the quiet zone's light above the finder's dark top edge.
        #expect(screen.contains(url) && screen.contains("good once, for 9 more min"), "\(screen)")
        #expect(DisplayPage.connect.draw(DisplayModel(), columns: 80, rows: 24).text.contains("the web app is off"))
    }
}
