import Glibc
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// The display's font: every letter of Latin-1 and Latin Extended-A in both cases, each its own
/// shape, missing characters counted, and large figures drawn smooth on colour panels and
/// one-bit on mono ones. A specimen of the whole font is kept as a reviewed picture.
@Suite struct FontTests {
    /// Printable ASCII, Latin-1 (from U+00A0) and Latin Extended-A.
    static let covered: [UInt32] = Array(0x20...0x7E) + Array(0xA0...0x17F)

    static func character(_ value: UInt32) -> Character? { Unicode.Scalar(value).map(Character.init) }

    @Test func everyLatinCharacterHasAGlyph() {
        let lacking = Self.covered.filter { value in Self.character(value).map { !Font5x7.hasGlyph($0) } ?? true }
        #expect(lacking.isEmpty, "no glyph for \(lacking.map { "U+" + String($0, radix: 16, uppercase: true) })")
    }

    /// Letters that look alike in any print (the eths and D with stroke, for one) may share a
    /// glyph; every other letter has its own, so "Zürich" never reads "Zurich".
    @Test func everyLetterHasItsOwnShape() {
        let alike: Set<String> = ["ÐĐ"]
        var byGlyph: [UInt64: [Character]] = [:]
        for value in Self.covered {
            guard let character = Self.character(value), character.isLetter, let glyph = Font5x7.glyph(character) else { continue }
            byGlyph[glyph, default: []].append(character)
        }
        let shared = byGlyph.values.filter { $0.count > 1 }.map { String($0) }.filter { !alike.contains($0) }
        #expect(shared.isEmpty, "letters drawn alike: \(shared.sorted())")
    }

    @Test func lowerCaseIsItsOwnAndDescendersGoBelowTheLine() {
        for (lower, upper) in zip("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
            #expect(Font5x7.glyph(lower) != Font5x7.glyph(upper), "\(lower) drawn as \(upper)")
        }
        for letter in "gjpqy" {
            #expect(Font5x7.glyph(letter).map { Font5x7.row($0, 7) != 0 } == true, "\(letter) has no descender")
        }
        for letter in "acemnorsuvwxz" {
            #expect(
                Font5x7.glyph(letter).map { Font5x7.row($0, 0) == 0 && Font5x7.row($0, 1) == 0 && Font5x7.row($0, 7) == 0 } == true,
                "\(letter) is not an x-height letter")
        }
    }

    @Test func accentsSitOnTheirLetter() throws {
        // The mark above is in the rows over the x-height; the letter's body is the base's.
        let e = try #require(Font5x7.glyph("e")), eAcute = try #require(Font5x7.glyph("é"))
        #expect(eAcute & ~0xFFFF == e & ~0xFFFF)
        #expect(eAcute & 0xFFFF != 0)
        // A cedilla hangs under the baseline.
        let c = try #require(Font5x7.glyph("c")), cCedilla = try #require(Font5x7.glyph("ç"))
        #expect(cCedilla & ~(0xFF << 56) == c && Font5x7.row(cCedilla, 7) != 0)
        // A decomposed letter (base and combining mark) is drawn like the composed one.
        #expect(Font5x7.glyph("u\u{308}") == Font5x7.glyph("ü"))
        #expect(Font5x7.glyph("d\u{30C}") == Font5x7.glyph("ď"))
        // A mark on a letter with no composed form is still drawn.
        #expect(Font5x7.glyph("x\u{301}") != nil)
    }

    @Test func charactersWithoutAGlyphAreCounted() {
        #expect(Font5x7.missingGlyphs(in: "Zürich Bürkliplatz Łódź Ærøskøbing") == 0)
        #expect(Font5x7.missingGlyphs(in: "Ωmega 東京") == 3)
        // Drawn, they are a hollow box (never nothing) and recorded as missing.
        let frame = MemoryFramebuffer(width: 40, height: 10, format: .rgb565)
        frame.textRuns = []
        Canvas(target: frame, theme: .day).text("AΩ", x: 0, y: 0, scale: 1, ink: .text)
        #expect(frame.textRuns?.first?.missingGlyphs == 1)
        #expect(frame.get(x: 8, y: 0) != frame.get(x: 8, y: 3), "the box's top edge is drawn, its inside is not")
    }

    /// Large figures: the strokes' edges have in-between shades on colour panels, none on mono,
    /// and both cover the same letter as the dot matrix scaled in blocks.
    @Test func largeFiguresAreSmoothOnColourAndCrispOnMono() throws {
        let scale = 8
        let colour = MemoryFramebuffer(width: 48, height: 70, format: .xrgb8888)
        let mono = MemoryFramebuffer(width: 48, height: 70, format: .mono)
        let blocks = MemoryFramebuffer(width: 48, height: 70, format: .xrgb8888)
        let white = Theme.Colour(255, 255, 255)
        GlyphPainter.draw(Font5x7.glyph("8"), x: 2, y: 2, scale: scale, colour: white, on: colour)
        GlyphPainter.draw(Font5x7.glyph("8"), x: 2, y: 2, scale: scale, colour: white, on: mono)
        // The same glyph in blocks: two-scale blocks four times over.
        let glyph = try #require(Font5x7.glyph("8"))
        for row in 0..<Font5x7.rows {
            for column in 0..<Font5x7.width where Font5x7.row(glyph, row) & (0x10 >> UInt8(column)) != 0 {
                blocks.fill(x: 2 + column * scale, y: 2 + row * scale, width: scale, height: scale, red: 255, green: 255, blue: 255)
            }
        }
        var shades = 0, inkBoth = 0, inkEither = 0, monoLit = 0, monoAgrees = 0
        for y in 0..<70 {
            for x in 0..<48 {
                let c = colour.get(x: x, y: y).red, b = blocks.get(x: x, y: y).red, m = mono.get(x: x, y: y).red
                if c > 0 && c < 255 { shades += 1 }
                if c >= 128 && b == 255 { inkBoth += 1 }
                if c >= 128 || b == 255 { inkEither += 1 }
                if m == 255 { monoLit += 1; if c >= 128 { monoAgrees += 1 } }
            }
        }
        #expect(shades > 40, "anti-aliased edges: \(shades) in-between pixels")
        #expect(Double(inkBoth) / Double(max(1, inkEither)) > 0.75, "strokes cover the letter: \(inkBoth) of \(inkEither)")
        #expect(monoLit > 0 && monoAgrees == monoLit, "mono lights exactly the pixels more than half covered")
    }

    /// Every glyph in a reviewed picture: the font at one and two times on a mono panel and the
    /// figures at six times in colour. LODESTONE_WRITE_SCREENS=1 rewrites it.
    @Test func specimenMatchesTheReviewedPicture() throws {
        let frame = MemoryFramebuffer(width: 400, height: 300, format: .rgb565)
        let canvas = Canvas(target: frame, theme: .day)
        canvas.clear()
        let all = Self.covered.compactMap(Self.character)
        var y = 2
        for (index, start) in stride(from: 0, to: all.count, by: 32).enumerated() {
            let line = String(all[start..<min(all.count, start + 32)])
            canvas.text(line, x: 2, y: y, scale: 1, ink: index % 2 == 0 ? .text : .accent)
            y += 10
        }
        y += 4
        for line in ["Zürich Bürkliplatz", "Łódź Kaliska, Ærøskøbing", "Přístaviště Štěchovice", "Gdańsk Główny, Ísafjörður"] {
            canvas.text(line, x: 2, y: y, scale: 2, ink: .text)
            y += 18
        }
        canvas.text("273° Ø é", x: 2, y: y + 4, scale: 6, ink: .accent)
        let png = PNGEncoder.encode(frame)
        let path = FramebufferRendererTests.screens + "font-specimen.png"
        if getenv("LODESTONE_WRITE_SCREENS") != nil { try FramebufferRendererTests().write(png, to: path) }
        let reference = try FramebufferRendererTests().read(path)
        if reference != png { try FramebufferRendererTests().write(png, to: "/tmp/font-specimen.png") }
        let same = reference == png
        #expect(same, "the font differs from \(path); the new drawing is in /tmp/font-specimen.png")
    }
}
