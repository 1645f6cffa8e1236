import Glibc
import LodestoneCore
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import Testing

/// The framebuffer display: layouts per screen size, the night theme, and PNG screenshots
/// checked by an independent decoder and against checked-in reference images.
@Suite struct FramebufferRendererTests {
    static let screens: String = {
        var path = #filePath
        path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return path + "/Screens/"
    }()

    /// The page as the device draws it (`graphics`), or in text cells only.
    static func render(
        _ page: DisplayPage, width: Int, height: Int, format: PixelFormat, theme: Theme = .day, graphics: Bool = true, language: Language = .en
    ) -> MemoryFramebuffer {
        let frame = MemoryFramebuffer(width: width, height: height, format: format)
        let layout = FramebufferLayout(width: width, height: height)
        var model = DisplayFixtures.walk
        model.language = language
        if graphics {
            GraphicPages.draw(page, model, theme: theme, on: frame)
        } else {
            FramebufferRenderer.draw(
                page.draw(model, columns: layout.columns, rows: layout.rows, large: true),
                theme: theme, layout: layout, on: frame)
        }
        return frame
    }

    @Test func layoutsFollowTheScreen() {
        let cases: [(Int, Int, String, Int, Int)] = [
            (128, 64, "small", 21, 8), (240, 240, "medium", 20, 15), (320, 240, "medium", 26, 15),
            (480, 320, "large", 40, 20), (800, 480, "large", 44, 20),
            (1280, 800, "large", 42, 20), (1920, 1080, "large", 53, 22)
        ]
        for (width, height, name, columns, rows) in cases {
            let layout = FramebufferLayout(width: width, height: height)
            #expect(layout.name == name && layout.columns == columns && layout.rows == rows, "\(width)x\(height): \(layout)")
            // The cells fill the panel (not its top half on a monitor).
            let usedWidth = layout.columns * FramebufferLayout.cellWidth * layout.scale
            let usedHeight = layout.rows * FramebufferLayout.cellHeight * layout.scale
            #expect(usedWidth * 10 >= width * 9 && usedHeight * 10 >= height * 8, "\(width)x\(height) uses \(usedWidth)x\(usedHeight)")
        }
    }

    /// Every printable ASCII character has a glyph of its own, not the box for a missing one
    /// (a hint with braces, an address with an at sign).
    @Test func everyPrintableCharacterIsDrawn() {
        let box = Self.glyphPixels("\u{2603}")
        for code in 0x21...0x7E {
            let character = Character(UnicodeScalar(UInt8(code)))
            #expect(Self.glyphPixels(character) != box, "'\(character)' is drawn as the box")
        }
    }

    /// The lit pixels of one character drawn alone at 1:1.
    static func glyphPixels(_ character: Character) -> [Bool] {
        let frame = MemoryFramebuffer(width: 12, height: 16, format: .xrgb8888)
        var screen = TextScreen(columns: 2, rows: 2)
        screen.put(String(character), column: 0, row: 1)
        FramebufferRenderer.draw(screen, theme: .day, layout: FramebufferLayout(width: 12, height: 16), on: frame)
        let background = frame.get(x: 11, y: 15)
        var lit: [Bool] = []
        for y in 8..<16 { for x in 0..<6 { lit.append(frame.get(x: x, y: y) != background) } }
        return lit
    }

    /// The heading is drawn large (at least twice the 7-pixel font height) in amber at the top of a colour panel and lit
    /// on a mono one; nothing is drawn past the cells.
    @Test(arguments: [(320, 240, PixelFormat.rgb565), (128, 64, .mono)])
    func theHeadingIsLargeAtTheTop(width: Int, height: Int, format: PixelFormat) {
        let frame = Self.render(.compass, width: width, height: height, format: format, graphics: false)
        let layout = FramebufferLayout(width: width, height: height)
        let top = FramebufferLayout.cellHeight * layout.scale, bottom = top + 4 * FramebufferLayout.cellHeight * layout.scale
        var lit = 0, tallest = 0
        for x in 0..<width {
            var run = 0
            for y in top..<bottom {
                let p = frame.get(x: x, y: y)
                let on = format == .mono ? p.red > 0 : (p.red > 200 && p.green > 150 && p.blue < 40)
                if on { lit += 1; run += 1; tallest = max(tallest, run) } else { run = 0 }
            }
        }
        #expect(lit > 40 && tallest >= 2 * 7 * layout.scale, "lit \(lit), tallest stroke \(tallest)")
    }

    @Test func theNightThemeDrawsOnlyRed() {
        let frame = Self.render(.sky, width: 320, height: 240, format: .xrgb8888, theme: .night)
        var red = 0
        for y in 0..<240 {
            for x in 0..<320 {
                let p = frame.get(x: x, y: y)
                #expect(p.green == 0 && p.blue == 0)
                if p.red > 0 { red += 1 }
            }
        }
        #expect(red > 1000)
    }

    /// The PNG file read back by Python's zlib (an independent inflate) and a chunk parser:
    /// signature, CRCs, header, and every pixel equal to the frame's.
    @Test func pngFilesDecodeToTheFrame() throws {
        guard access("/usr/bin/python3", X_OK) == 0 else {
            print("skipped: /usr/bin/python3 is not installed (scripts/install-deps --test installs it)")
            return
        }
        let frame = Self.render(.sky, width: 480, height: 320, format: .xrgb8888)
        let png = PNGEncoder.encode(frame)
        var rgb: [UInt8] = []
        for y in 0..<320 { for x in 0..<480 { let p = frame.get(x: x, y: y); rgb += [p.red, p.green, p.blue] } }
        let base = "/tmp/lodestone-png-\(getpid())"
        defer { unlink(base + ".png"); unlink(base + ".rgb"); unlink(base + ".py") }
        try write(png, to: base + ".png")
        try write(rgb, to: base + ".rgb")
        try write(Array(Self.checker.utf8), to: base + ".py")
        let status = system("/usr/bin/python3 \(base).py \(base).png \(base).rgb")
        #expect(status == 0, "the independent decoder disagrees (exit \(status))")
        print("PNG of a 480x320 page: \(png.count) bytes for \(rgb.count) bytes of pixels")
    }

    static let checker = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        expected = open(sys.argv[2], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
        at, idat, header = 8, b'', None
        while at < len(data):
            length, kind = struct.unpack('>I4s', data[at:at + 8])
            body = data[at + 8:at + 8 + length]
            crc, = struct.unpack('>I', data[at + 8 + length:at + 12 + length])
            assert zlib.crc32(kind + body) == crc, 'crc of ' + kind.decode()
            if kind == b'IHDR': header = struct.unpack('>IIBBBBB', body)
            if kind == b'IDAT': idat += body
            at += 12 + length
        width, height, depth, colour, _, _, interlace = header
        assert (depth, colour, interlace) == (8, 2, 0), header
        raw = zlib.decompress(idat)
        stride = width * 3
        previous, pixels = bytearray(stride), bytearray()
        for y in range(height):
            kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            if kind == 2:
                row = bytearray((a + b) & 255 for a, b in zip(row, previous))
            else:
                assert kind == 0, kind
            pixels += row
            previous = row
        assert bytes(pixels) == expected, 'pixels differ'
        """

    /// Pages drawn from the fixed model must match the reviewed images in Tests/Outputs/Screens
    /// byte for byte. After a deliberate change, LODESTONE_WRITE_SCREENS=1 rewrites them (look
    /// at them before committing).
    /// Every page at 320 x 240 and 800 x 480, day and night, and a few other panels and formats.
    static let references: [(String, DisplayPage, Int, Int, PixelFormat, Theme)] =
        DisplayPage.allCases.flatMap { page in
            [(320, 240), (800, 480)].flatMap { size in
                [Theme.day, .night].map { theme in
                    ("\(page.rawValue)-\(size.0)x\(size.1)" + (theme == .night ? "-night" : ""), page, size.0, size.1, PixelFormat.rgb565, theme)
                }
            }
        } + [
            ("sky-480x320", DisplayPage.sky, 480, 320, PixelFormat.xrgb8888, Theme.day),
            ("compass-128x64-mono", .compass, 128, 64, .mono, .day),
            ("level-240x240", .level, 240, 240, .rgb565, .day),
            ("compass-480x320", .compass, 480, 320, .rgb565, .day),
            ("track-480x320", .track, 480, 320, .rgb565, .day)
        ]

    @Test(arguments: references)
    func pagesMatchTheReferenceImages(name: String, page: DisplayPage, width: Int, height: Int, format: PixelFormat, theme: Theme) throws {
        let png = PNGEncoder.encode(Self.render(page, width: width, height: height, format: format, theme: theme))
        let path = Self.screens + name + ".png"
        if getenv("LODESTONE_WRITE_SCREENS") != nil { try write(png, to: path) }
        let reference = try read(path)
        if reference != png { try write(png, to: "/tmp/\(name).png") }
        let same = reference == png  // compared first, so a failure does not print both files' bytes
        #expect(same, "\(name) differs from \(path); the new drawing is in /tmp/\(name).png")
    }

    /// Every page in German at 320 x 240 and 800 x 480: the longer words laid out as reviewed.
    static let germanReferences: [(String, DisplayPage, Int, Int)] = DisplayPage.allCases.flatMap { page in
        [(320, 240), (800, 480)].map { size in ("\(page.rawValue)-\(size.0)x\(size.1)-de", page, size.0, size.1) }
    }

    @Test(arguments: germanReferences)
    func germanPagesMatchTheReferenceImages(name: String, page: DisplayPage, width: Int, height: Int) throws {
        let png = PNGEncoder.encode(Self.render(page, width: width, height: height, format: .rgb565, language: .de))
        let path = Self.screens + name + ".png"
        if getenv("LODESTONE_WRITE_SCREENS") != nil { try write(png, to: path) }
        let reference = try read(path)
        if reference != png { try write(png, to: "/tmp/\(name).png") }
        let same = reference == png
        #expect(same, "\(name) differs from \(path); the new drawing is in /tmp/\(name).png")
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0, "cannot write \(path)")
        defer { close(fd) }
        try #require(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0, "missing \(path)")
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}
