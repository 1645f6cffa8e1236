import LodestoneHAL
import LodestoneReports
import Synchronization

/// Puts glyphs on a framebuffer. Up to twice the font's size each font pixel is a square block
/// (crisp, and what a small panel's pixels can show). Larger figures (the compass's heading,
/// a monitor's text) are drawn as strokes through the dots' centres: lines join neighbouring
/// dots, diagonals only where no corner already joins them, and each stroke is as wide as a
/// dot. On a colour panel the strokes' edges are anti-aliased (each pixel's coverage blended
/// with what is under it); a mono panel lights the pixels more than half covered, so its
/// figures stay crisp one-bit shapes with smooth diagonals.
enum GlyphPainter {
    /// The smallest scale drawn as strokes.
    static let smoothFrom = 3

    static func draw(_ glyph: UInt64?, x left: Int, y top: Int, scale: Int, colour: Theme.Colour, on target: any Framebuffer) {
        let shape = glyph ?? Font5x7.missing
        guard scale >= smoothFrom else {
            for row in 0..<Font5x7.rows {
                let bits = Font5x7.row(shape, row)
                guard bits != 0 else { continue }
                for column in 0..<Font5x7.width where bits & (0x10 >> UInt8(column)) != 0 {
                    target.fill(
                        x: left + column * scale, y: top + row * scale, width: scale, height: scale,
                        red: colour.red, green: colour.green, blue: colour.blue)
                }
            }
            return
        }
        let mask = coverage(of: shape, scale: scale)
        let width = Font5x7.width * scale, height = Font5x7.rows * scale
        let mono = target.format == .mono
        for py in 0..<height {
            let y = top + py
            guard y >= 0, y < target.height else { continue }
            for px in 0..<width {
                let covered = Int(mask[py * width + px])
                guard covered > 0 else { continue }
                let x = left + px
                guard x >= 0, x < target.width else { continue }
                if covered == 255 || (mono && covered >= 128) {
                    target.set(x: x, y: y, red: colour.red, green: colour.green, blue: colour.blue)
                } else if !mono {
                    let under = target.get(x: x, y: y)
                    func mix(_ ink: UInt8, _ back: UInt8) -> UInt8 { UInt8((Int(ink) * covered + Int(back) * (255 - covered) + 127) / 255) }
                    target.set(x: x, y: y, red: mix(colour.red, under.red), green: mix(colour.green, under.green), blue: mix(colour.blue, under.blue))
                }
            }
        }
    }

    private struct Key: Hashable { var glyph: UInt64; var scale: Int }

    /// Masks already drawn: a page uses a handful of figures at one or two sizes.
    private static let masks = Mutex<[Key: [UInt8]]>([:])

    /// Each pixel's coverage (0-255) of the glyph drawn as strokes at `scale`, row by row,
    /// `Font5x7.width * scale` wide and `Font5x7.rows * scale` high.
    static func coverage(of glyph: UInt64, scale: Int) -> [UInt8] {
        let key = Key(glyph: glyph, scale: scale)
        if let known = masks.withLock({ $0[key] }) { return known }
        let mask = strokes(of: glyph, scale: scale)
        masks.withLock { cache in
            if cache.count > 512 { cache.removeAll() }
            cache[key] = mask
        }
        return mask
    }

    /// The strokes between a glyph's dots, in font pixels (a dot's centre at its column and row).
    static func segments(of glyph: UInt64) -> [(Double, Double, Double, Double)] {
        func lit(_ column: Int, _ row: Int) -> Bool {
            column >= 0 && column < Font5x7.width && row >= 0 && row < Font5x7.rows
                && Font5x7.row(glyph, row) & (0x10 >> UInt8(column)) != 0
        }
        var segments: [(Double, Double, Double, Double)] = []
        for row in 0..<Font5x7.rows {
            for column in 0..<Font5x7.width where lit(column, row) {
                let (x, y) = (Double(column), Double(row))
                segments.append((x, y, x, y))
                if lit(column + 1, row) { segments.append((x, y, x + 1, y)) }
                if lit(column, row + 1) { segments.append((x, y, x, y + 1)) }
                if lit(column + 1, row + 1) && !lit(column + 1, row) && !lit(column, row + 1) { segments.append((x, y, x + 1, y + 1)) }
                if lit(column - 1, row + 1) && !lit(column - 1, row) && !lit(column, row + 1) { segments.append((x, y, x - 1, y + 1)) }
            }
        }
        return segments
    }

    static func strokes(of glyph: UInt64, scale: Int) -> [UInt8] {
        let width = Font5x7.width * scale, height = Font5x7.rows * scale
        let segments = segments(of: glyph)
        let size = Double(scale), radius = 0.5
        var mask = [UInt8](repeating: 0, count: width * height)
        for py in 0..<height {
            let fy = (Double(py) + 0.5) / size - 0.5
            for px in 0..<width {
                let fx = (Double(px) + 0.5) / size - 0.5
                var nearest = Double.infinity
                for (x0, y0, x1, y1) in segments {
                    let (dx, dy) = (x1 - x0, y1 - y0)
                    let length = dx * dx + dy * dy
                    let t = length == 0 ? 0 : min(1, max(0, ((fx - x0) * dx + (fy - y0) * dy) / length))
                    let (ex, ey) = (fx - x0 - t * dx, fy - y0 - t * dy)
                    nearest = min(nearest, ex * ex + ey * ey)
                }
                // The edge's distance in panel pixels sets the pixel's share of ink.
                let inside = (radius - nearest.squareRoot()) * size + 0.5
                mask[py * width + px] = UInt8(max(0, min(1, inside)) * 255)
            }
        }
        return mask
    }
}
