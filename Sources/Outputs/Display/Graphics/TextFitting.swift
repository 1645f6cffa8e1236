/// Text that must fit: lines wrapped at their spaces into a column, and messages made smaller
/// until they fit the panel.
extension Canvas {
    /// A line laid out in a column `width` pixels wide: wrapped at its spaces, and drawn
    /// smaller when a word is wider than the column ("CALIBRATE:" beside a 320x240 rose)
    /// rather than broken mid-word.
    static func wrapped(_ text: String, width: Int, scale: Int) -> (pieces: [String], scale: Int) {
        let longestWord = text.split(separator: " ").map(\.count).max() ?? 0
        var lineScale = max(1, scale)
        var columns = max(1, width / (FramebufferLayout.cellWidth * lineScale))
        while longestWord > columns && lineScale > 1 {
            lineScale -= 1
            columns = max(1, width / (FramebufferLayout.cellWidth * lineScale))
        }
        var pieces: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let piece = rest.count <= columns ? rest : (rest.prefix(columns).lastIndex(of: " ").map { rest[..<$0] } ?? rest.prefix(columns))
            pieces.append(String(piece))
            rest = rest.dropFirst(piece.count).drop { $0 == " " }
        }
        return (pieces, lineScale)
    }

    /// Lines of `text` wrapped into a column `width` pixels wide from (`x`, `y`), no lower than
    /// `bottom`; the y under the last line drawn.
    @discardableResult
    func paragraph(_ text: String, x: Int, y: Int, width: Int, bottom: Int, scale: Int, ink: Ink) -> Int {
        let (pieces, lineScale) = Self.wrapped(text, width: width, scale: scale)
        // A word wider than the column even at the smallest scale is cut; lines past `bottom`
        // are left out, and the last line drawn says so.
        let wordCut = text.split(separator: " ").contains { Self.textWidth(String($0), scale: lineScale) > width }
        let pitch = FramebufferLayout.cellHeight * lineScale
        let fitting = max(0, (bottom - y - Font5x7.height * lineScale) / pitch + 1)
        var top = y
        for (index, piece) in pieces.prefix(fitting).enumerated() {
            let elided = index == fitting - 1 && pieces.count > fitting
            self.text(piece, x: x, y: top, scale: lineScale, ink: ink, clipped: wordCut || elided)
            top += pitch
        }
        return top
    }

    /// A message centred on (cx, cy) at the largest scale up to `largest` that fits the panel's
    /// width, moved inside the panel when the centre is near an edge ("NO HEADING" over a small
    /// rose).
    func message(_ text: String, centredAt cx: Int, _ cy: Int, largest: Int, ink: Ink) {
        var scale = max(1, largest)
        while scale > 1 && Self.textWidth(text, scale: scale) > width - 2 { scale -= 1 }
        let w = Self.textWidth(text, scale: scale)
        let x = max(0, min(width - w, cx - w / 2))
        self.text(text, x: x, y: cy - Font5x7.height * scale / 2, scale: scale, ink: ink)
    }
}
