import Glibc
import LodestoneCore
@testable import LodestoneEncoding
import LodestoneHAL
import LodestoneOutputs
import Testing

/// The QR Code encoder judged by a reader that is not ours: Debian's zbarimg decodes each
/// symbol, drawn as a PNG with its quiet zone, back to the bytes given; the version is the
/// smallest that holds them at level M; Reed-Solomon against the standard's worked example.
@Suite struct QRCodeTests {
    /// The bytes each version holds in byte mode at level M (ISO/IEC 18004 table 7).
    static let capacity = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]

    /// A PNG of the symbol: 4 pixels a module, 4 light modules of quiet zone round it.
    static func png(_ code: QRCode) -> [UInt8] {
        let side = (code.size + 8) * 4
        let frame = MemoryFramebuffer(width: side, height: side, format: .xrgb8888)
        for y in 0..<side {
            for x in 0..<side {
                let level: UInt8 = code[x / 4 - 4, y / 4 - 4] ? 0 : 255
                let at = y * frame.lineLength + x * 4
                for channel in 0..<3 { frame.pixels[at + channel] = level }
            }
        }
        return PNGEncoder.encode(frame)
    }

    static var zbarimg: String? {
        ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { access($0, X_OK) == 0 }
    }

    /// What `zbarimg` reads from the PNG at `path`: its exit status and the decoded text (its
    /// stderr, a D-Bus notice where no system bus runs, set aside).
    static func decode(_ path: String, with zbarimg: String) throws -> (status: Int32, output: String) {
        let end = EndToEndTests()
        return end.finish(try end.spawnProgram("/bin/sh", ["-c", "'\(zbarimg)' -q --raw '\(path)' 2>/dev/null"], environment: []))
    }

    /// Text of `count` bytes, a pairing address as long as needed.
    static func text(_ count: Int) -> String {
        let base = "http://lodestone.local:8080/pair?code=7Q2X-9KMD&name=helm-tablet"
        return String(String(repeating: base + "/", count: count / base.count + 1).prefix(count))
    }

    @Test func theSmallestVersionAtLevelM() throws {
        for (index, bytes) in Self.capacity.enumerated() {
            #expect(QRCode(Array(Self.text(bytes).utf8))?.version == index + 1, "\(bytes) bytes")
            if bytes < 213 { #expect(QRCode(Array(Self.text(bytes + 1).utf8))?.version == index + 2, "\(bytes + 1) bytes") }
        }
        #expect(QRCode(Array(Self.text(214).utf8)) == nil, "beyond version 10")
        #expect(QRCode([])?.version == 1 && QRCode([])?.size == 21)
    }

    /// The standard's example "01234567" at version 1-M: its 16 data codewords give these 10
    /// error correction codewords (ISO/IEC 18004 annex I).
    @Test func reedSolomonAsTheStandardWorksIt() {
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(ReedSolomon.remainder(data, degree: 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func zbarimgReadsEveryVersion() throws {
        guard let zbarimg = Self.zbarimg else {
            print("skipped: zbarimg is not installed (scripts/install-deps --test installs zbar-tools)")
            return
        }
        let folder = "/tmp/lodestone-qr-\(getpid())"
        removeTree(folder)
        #expect(makeDirectories(folder))
        defer { removeTree(folder) }
        for bytes in [1] + Self.capacity {
            let text = Self.text(bytes)
            let code = try #require(QRCode(Array(text.utf8)))
            let path = folder + "/v\(code.version).png"
            #expect(writeFileAtomically(path, Self.png(code)))
            let (status, output) = try Self.decode(path, with: zbarimg)
            #expect(status == 0 && output == text + "\n", "version \(code.version), mask \(code.mask): \(output)")
        }
    }
}
