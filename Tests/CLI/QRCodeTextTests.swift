import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneOutputs
import Testing

/// The QR code as `lodestone web pair` and the terminal's connect page draw it in half blocks,
/// read back as a person's camera would: every character's two halves are the symbol's modules
/// with the quiet zone round them, and zbarimg decodes a picture of the characters.
@Suite struct QRCodeTextTests {
    static let address = "http://192.168.1.20:8080/pair?code=7Q2X9KMD"

    /// The modules the lines show, row by row (true: dark), read from the characters alone.
    static func modules(_ lines: [String], blocksAreDark: Bool) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in lines {
            var upper: [Bool] = [], lower: [Bool] = []
            for character in line {
                let (top, bottom) = character == "█" ? (true, true) : character == "▀" ? (true, false) : character == "▄" ? (false, true) : (false, false)
                upper.append(top == blocksAreDark)
                lower.append(bottom == blocksAreDark)
            }
            rows += [upper, lower]
        }
        return rows
    }

    @Test(arguments: [true, false])
    func theCharactersAreTheModulesWithTheQuietZone(blocksAreDark: Bool) throws {
        let code = try #require(QRCode(Array(Self.address.utf8)))
        let lines = code.halfBlockLines(quietZone: 4, blocksAreDark: blocksAreDark)
        #expect(lines.count == (code.size + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 8 })
        let shown = Self.modules(lines, blocksAreDark: blocksAreDark)
        for y in -4..<(code.size + 4) {
            let row = shown.indices.contains(y + 4) ? shown[y + 4] : []
            for x in -4..<(code.size + 4) {
                let module = row.indices.contains(x + 4) ? row[x + 4] : nil
                #expect(module == code[x, y], "module \(x), \(y)")
            }
        }
        // The half row past an odd count is light: more quiet zone, never a stray dark line.
        #expect(shown.last?.allSatisfy { !$0 } == true)
    }

    @Test func zbarimgReadsTheTerminalsCode() throws {
        guard let zbarimg = QRCodeTests.zbarimg else {
            print("skipped: zbarimg is not installed (scripts/install-deps --test installs zbar-tools)")
            return
        }
        let code = try #require(QRCode(Array(Self.address.utf8)))
        let shown = Self.modules(code.halfBlockLines(quietZone: 4, blocksAreDark: true), blocksAreDark: true)
        let (width, height) = ((shown.first?.count ?? 0) * 4, shown.count * 4)
        let frame = MemoryFramebuffer(width: width, height: height, format: .xrgb8888)
        for (y, row) in shown.enumerated() {
            for (x, dark) in row.enumerated() {
                for dy in 0..<4 {
                    for dx in 0..<4 {
                        let at = (y * 4 + dy) * frame.lineLength + (x * 4 + dx) * 4
                        for channel in 0..<3 where frame.pixels.indices.contains(at + channel) { frame.pixels[at + channel] = dark ? 0 : 255 }
                    }
                }
            }
        }
        let path = "/tmp/lodestone-qr-text-\(getpid()).png"
        defer { unlink(path) }
        #expect(writeFileAtomically(path, PNGEncoder.encode(frame)))
        let (status, output) = try QRCodeTests.decode(path, with: zbarimg)
        #expect(status == 0 && output == Self.address + "\n", "\(output)")
    }
}
