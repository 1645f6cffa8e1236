import LodestoneHAL

/// How much of a panel a page uses: the panel cut into a grid of 20 x 12 equal tiles, the share
/// of tiles that a drawn element's box touches (a text's box, a drawing's bounding box: a
/// dial's ring, a graph's fill). A page that says all it has in its top third scores about a
/// third; one whose words and drawings reach across and down the panel scores near one. Tiles,
/// not pixels: the gaps between letters, words and lines are part of a text, not unused panel.
/// The same boxes give the same figure on every run.
public enum PanelCoverage {
    public static let tileColumns = 20, tileRows = 12

    /// The used fraction (0...1) of a `width` x `height` panel, from the frame's recorded text
    /// runs and drawings.
    public static func usedFraction(texts: [TextRun], drawings: [PixelBox], width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return 0 }
        var used = [Bool](repeating: false, count: tileColumns * tileRows)
        let boxes = texts.map { PixelBox(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } + drawings
        for box in boxes where box.width > 0 && box.height > 0 {
            let left = max(0, box.x), top = max(0, box.y)
            let right = min(width, box.x + box.width), bottom = min(height, box.y + box.height)
            guard left < right, top < bottom else { continue }
            // The tiles the box's pixels fall in: tile i spans [i * width / 20, (i + 1) * width / 20).
            for row in (top * tileRows / height)...((bottom - 1) * tileRows / height) {
                for column in (left * tileColumns / width)...((right - 1) * tileColumns / width) {
                    used[row * tileColumns + column] = true
                }
            }
        }
        return Double(used.filter { $0 }.count) / Double(used.count)
    }
}
