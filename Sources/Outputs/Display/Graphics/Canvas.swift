import Glibc
import LodestoneHAL
import LodestoneReports

/// Drawing on a framebuffer in the theme's inks: pixels, lines without gaps (Bresenham, with a
/// square pen for thickness), circles and discs (the midpoint method), filled rectangles, and
/// text in the 5 x 7 font scaled in whole pixels. Everything is clipped to the panel. A mono
/// panel lights every ink (red on black would be dark on a one-bit display).
struct Canvas {
    let target: any Framebuffer
    let theme: Theme
    var width: Int { target.width }
    var height: Int { target.height }
    private var mono: Bool { target.format == .mono }

    func colour(_ ink: Ink) -> Theme.Colour { mono ? Theme.Colour(255, 255, 255) : theme.colour(ink) }

    func clear() {
        let background = theme.background
        target.fill(x: 0, y: 0, width: width, height: height, red: background.red, green: background.green, blue: background.blue)
    }

    @inline(__always)
    func pixel(_ x: Int, _ y: Int, _ c: Theme.Colour) { target.set(x: x, y: y, red: c.red, green: c.green, blue: c.blue) }

    /// Notes a drawing's box on a recording frame (what the page's used fraction counts).
    func drew(x: Int, y: Int, width w: Int, height h: Int) {
        guard let recorder = target as? MemoryFramebuffer, recorder.drawnBoxes != nil else { return }
        recorder.drawnBoxes?.append(PixelBox(x: x, y: y, width: w, height: h))
    }

    /// A filled rectangle.
    func rect(x: Int, y: Int, width w: Int, height h: Int, ink: Ink) {
        drew(x: x, y: y, width: w, height: h)
        let c = colour(ink)
        target.fill(x: x, y: y, width: w, height: h, red: c.red, green: c.green, blue: c.blue)
    }

    /// A line from (x0, y0) to (x1, y1), every step one pixel (no gaps at any slope); a pen of
    /// `thickness` pixels is a square centred on each point.
    func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, ink: Ink, thickness: Int = 1) {
        let pen = max(1, thickness)
        drew(x: min(x0, x1) - (pen - 1) / 2, y: min(y0, y1) - (pen - 1) / 2, width: abs(x1 - x0) + pen, height: abs(y1 - y0) + pen)
        let c = colour(ink)
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        var (x, y) = (x0, y0)
        let low = -(thickness - 1) / 2, high = thickness / 2
        while true {
            if thickness <= 1 {
                pixel(x, y, c)
            } else {
                target.fill(x: x + low, y: y + low, width: high - low + 1, height: high - low + 1, red: c.red, green: c.green, blue: c.blue)
            }
            if x == x1 && y == y1 { break }
            let twice = 2 * error
            if twice >= dy { error += dy; x += sx }
            if twice <= dx { error += dx; y += sy }
        }
    }

    /// A line given by its centre, an angle clockwise from up (degrees) and its radii: the
    /// rose's ticks, the lubber line.
    func radial(cx: Int, cy: Int, angle: Double, from inner: Double, to outer: Double, ink: Ink, thickness: Int = 1) {
        let (s, c) = (sin(angle * .pi / 180), cos(angle * .pi / 180))
        line(
            cx + Int((inner * s).rounded()), cy - Int((inner * c).rounded()),
            cx + Int((outer * s).rounded()), cy - Int((outer * c).rounded()), ink: ink, thickness: thickness)
    }

    /// A circle's outline (midpoint circle), `thickness` rings inward from `radius`.
    func circle(cx: Int, cy: Int, radius: Int, ink: Ink, thickness: Int = 1) {
        drew(x: cx - radius, y: cy - radius, width: 2 * radius + 1, height: 2 * radius + 1)
        let c = colour(ink)
        for ring in 0..<max(1, thickness) {
            let r = radius - ring
            guard r > 0 else { break }
            var (x, y, error) = (r, 0, 1 - r)
            while x >= y {
                pixel(cx + x, cy + y, c); pixel(cx + y, cy + x, c); pixel(cx - y, cy + x, c); pixel(cx - x, cy + y, c)
                pixel(cx - x, cy - y, c); pixel(cx - y, cy - x, c); pixel(cx + y, cy - x, c); pixel(cx + x, cy - y, c)
                y += 1
                if error < 0 { error += 2 * y + 1 } else { x -= 1; error += 2 * (y - x) + 1 }
            }
        }
    }

    /// A filled disc.
    func disc(cx: Int, cy: Int, radius: Int, ink: Ink) {
        drew(x: cx - radius, y: cy - radius, width: 2 * radius + 1, height: 2 * radius + 1)
        let c = colour(ink)
        for dy in -radius...radius {
            let half = Int(Double(radius * radius - dy * dy).squareRoot())
            target.fill(x: cx - half, y: cy + dy, width: 2 * half + 1, height: 1, red: c.red, green: c.green, blue: c.blue)
        }
    }

    /// An arc of the ring between two radii, from `start` to `end` degrees clockwise from up.
    func arc(cx: Int, cy: Int, inner: Double, outer: Double, start: Double, end: Double, ink: Ink) {
        let steps = max(8, Int((end - start) * outer * .pi / 180))
        for step in 0...steps {
            radial(cx: cx, cy: cy, angle: start + (end - start) * Double(step) / Double(steps), from: inner, to: outer, ink: ink, thickness: 2)
        }
    }

    /// Text from its top-left corner, each font pixel `scale` x `scale`. `clipped`: the caller
    /// shortened it to fit (text past the panel's edge is marked so here); `key`: the page's
    /// key figure.
    func text(_ string: String, x: Int, y: Int, scale: Int, ink: Ink, clipped: Bool = false, key: Bool = false) {
        let c = colour(ink)
        if let recorder = target as? MemoryFramebuffer, recorder.textRuns != nil, !string.isEmpty {
            let w = Self.textWidth(string, scale: scale), h = Font5x7.height * scale
            let outside = x < 0 || y < 0 || x + w > width || y + h > height
            recorder.textRuns?.append(
                TextRun(
                    text: string, x: x, y: y, width: w, height: h, missingGlyphs: Font5x7.missingGlyphs(in: string),
                    clipped: clipped || outside, key: key))
        }
        var left = x
        for character in string {
            FramebufferRenderer.glyph(character, x: left, y: y, scale: scale, colour: c, on: target)
            left += FramebufferLayout.cellWidth * scale
        }
    }

    /// `text` shortened to `columns` at `scale` (by whole words) and drawn, marked clipped when
    /// it was shortened.
    func fitted(_ string: String, columns: Int, x: Int, y: Int, scale: Int, ink: Ink) {
        let shown = LabelPlacer.shortened(string, to: columns)
        text(shown, x: x, y: y, scale: scale, ink: ink, clipped: shown != string)
    }

    /// Text centred on (cx, cy).
    func text(_ string: String, centredAt cx: Int, _ cy: Int, scale: Int, ink: Ink, key: Bool = false) {
        text(string, x: cx - Self.textWidth(string, scale: scale) / 2, y: cy - Font5x7.height * scale / 2, scale: scale, ink: ink, key: key)
    }

    /// The width of `string`'s glyphs at `scale` (without the space after the last).
    static func textWidth(_ string: String, scale: Int) -> Int {
        max(0, string.count * FramebufferLayout.cellWidth * scale - scale)
    }
}
