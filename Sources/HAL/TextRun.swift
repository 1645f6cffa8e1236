/// A run of text as drawn: its characters, its box in pixels (left, top, width, height) and
/// how many of its characters the font has no glyph for (drawn as a box, never silently).
/// `clipped`: the page shortened, elided or cut the text to fit (said where it happens, not
/// guessed afterwards); `key`: the run is the page's key figure, the one drawn largest.
public struct TextRun: Sendable, Equatable {
    public var text: String
    public var x: Int, y: Int, width: Int, height: Int
    public var missingGlyphs: Int
    public var clipped: Bool
    public var key: Bool
    public init(text: String, x: Int, y: Int, width: Int, height: Int, missingGlyphs: Int, clipped: Bool = false, key: Bool = false) {
        (self.text, self.x, self.y, self.width, self.height, self.missingGlyphs) = (text, x, y, width, height, missingGlyphs)
        (self.clipped, self.key) = (clipped, key)
    }
}

/// A drawing's bounding box in pixels (a line, a circle, a filled area), clipped to nothing:
/// it may reach past the panel, and whoever measures with it clips it.
public struct PixelBox: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
}
