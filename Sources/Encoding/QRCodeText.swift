/// A QR Code as lines of text for a terminal, two modules a character (the upper and the lower
/// half block), so the modules come out square in a cell twice as high as it is wide.
extension QRCode {
    /// Each line of the symbol with `quietZone` light modules round it. `blocksAreDark`: a block
    /// is a dark module (the caller paints the cells dark on light itself) or a light one (a
    /// terminal's own cells are light on dark, so the background stands for the dark modules).
    public func halfBlockLines(quietZone: Int, blocksAreDark: Bool) -> [String] {
        var lines: [String] = []
        for row in stride(from: -quietZone, to: size + quietZone, by: 2) {
            var text = ""
            for x in -quietZone..<(size + quietZone) {
                // Outside the symbol every module is light, so the half row past an odd count is quiet zone too.
                let upper = self[x, row] == blocksAreDark, lower = self[x, row + 1] == blocksAreDark
                text += upper && lower ? "█" : upper ? "▀" : lower ? "▄" : " "
            }
            lines.append(text)
        }
        return lines
    }
}
