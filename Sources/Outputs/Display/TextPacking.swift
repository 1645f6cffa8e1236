/// Short items ("5.23 km", "max 80 us") laid out as many to a line as fit, two spaces apart:
/// an item is never broken, so a figure never goes to another line than its unit or name.
enum TextPacking {
    /// The items in `columns`, two spaces apart, or one where that saves a line.
    static func packed(_ items: [String], columns: Int) -> [String] {
        let spaced = packed(items, columns: columns, separator: "  ")
        let tight = packed(items, columns: columns, separator: " ")
        return tight.count < spaced.count ? tight : spaced
    }

    static func packed(_ items: [String], columns: Int, separator: String) -> [String] {
        var lines: [String] = [], current = ""
        for item in items where !item.isEmpty {
            if current.isEmpty {
                current = item
            } else if current.count + separator.count + item.count <= columns {
                current += separator + item
            } else {
                lines.append(current)
                current = item
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
