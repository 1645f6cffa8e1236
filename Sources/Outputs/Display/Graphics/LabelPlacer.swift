/// Places names beside what they name so that no name is drawn over another or off its area:
/// each tries the four places around its point (right above, right below, left above, left
/// below) and takes the first free one; with none free it gives way (names are placed in order
/// of importance, so the less important one is the one left out).
struct LabelPlacer {
    private var taken: [(x: Int, y: Int, width: Int, height: Int)] = []
    /// The area names may use: from the left edge to `right`, between `top` and `bottom`.
    let right: Int, bottom: Int, top: Int

    init(right: Int, bottom: Int, top: Int) { (self.right, self.bottom, self.top) = (right, bottom, top) }

    /// A box already drawn (a horizon letter) that names must keep clear of.
    mutating func reserve(x: Int, y: Int, width: Int, height: Int) { taken.append((x, y, width, height)) }

    /// Where a `width` x `height` name of the point (`nearX`, `nearY`) goes, `gap` pixels from
    /// it; nil when every place is taken or off the area.
    mutating func place(width: Int, height: Int, nearX: Int, nearY: Int, gap: Int) -> (x: Int, y: Int)? {
        let candidates = [
            (nearX + gap, nearY - height - 1), (nearX + gap, nearY + 2), (nearX - gap - width, nearY - height - 1), (nearX - gap - width, nearY + 2)
        ]
        for (x, y) in candidates where x >= 0 && y >= top && x + width <= right && y + height <= bottom {
            let clear = !taken.contains { x < $0.x + $0.width + 1 && $0.x < x + width + 1 && y < $0.y + $0.height + 1 && $0.y < y + height + 1 }
            if clear {
                taken.append((x, y, width, height))
                return (x, y)
            }
        }
        return nil
    }

    /// `text` in at most `columns` characters: whole words from the end dropped first
    /// ("SATURN 4° 120°" becomes "SATURN 4°", then "SATURN") with a separator left dangling
    /// ("Thun –") dropped too; a single word too long is abbreviated with a full stop
    /// ("Bluemlisalp" in 9 columns is "Bluemlis."), never cut silently.
    static func shortened(_ text: String, to columns: Int) -> String {
        guard text.count > columns, columns > 0 else { return columns > 0 ? text : "" }
        // Cut at spaces, keeping the text's own spacing (columns line up).
        func trimmed(_ text: Substring) -> Substring {
            var text = text
            while text.last == " " { text.removeLast() }
            return text
        }
        func dropLastWord(_ text: Substring) -> Substring? {
            let text = trimmed(text)
            guard let space = text.lastIndex(of: " ") else { return nil }
            return trimmed(text[..<space])
        }
        var kept = Substring(text)
        while kept.count > columns, let shorter = dropLastWord(kept) { kept = shorter }
        while let last = kept.split(separator: " ").last, last.allSatisfy({ "–—-/·:,;|+".contains($0) }), let shorter = dropLastWord(kept) {
            kept = shorter
        }
        if let last = kept.last, ",;:".contains(last) { kept = kept.dropLast() }
        guard kept.count > columns else { return String(kept) }
        return columns >= 3 ? String(kept.prefix(columns - 1)) + "." : String(kept.prefix(columns))
    }

    /// A name before figures that must stay ("Rüschlikon Schiffstation Süd" + " 2 nm 212°"):
    /// the name shortened so the whole fits `columns`.
    static func squeezed(_ name: String, before figures: String, to columns: Int) -> String {
        shortened(name, to: max(1, columns - figures.count)) + figures
    }
}
