/// The text an imported track brings (its name, its notes), made fit to keep: control
/// characters (NUL, escape sequences that would redraw a terminal listing the tracks) taken
/// out, and a name longer than the store keeps cut, each change said as a warning.
enum TrackImportText {
    /// The most a track's name holds, in bytes, as `track edit` takes it.
    static let longestName = 200
    /// The most a track's notes hold, in bytes.
    static let longestNotes = 4000

    /// `text` without control characters (but those in `keeping`; line breaks and tabs in a
    /// name become spaces) and cut to `longest` bytes of whole characters.
    static func kept(
        _ text: String, as what: String, of place: String, longest: Int, keeping: Set<Unicode.Scalar>, warnings: inout [String]
    ) -> String {
        var cleaned = String.UnicodeScalarView()
        var removed = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory != .control || keeping.contains(scalar) {
                cleaned.append(scalar)
            } else if keeping.isEmpty, ["\n", "\r", "\t"].contains(scalar) {
                if cleaned.last != " " { cleaned.append(" ") }
            } else {
                removed += 1
            }
        }
        var result = String(cleaned)
        if removed > 0 { warnings.append("\(place): \(removed) control characters removed from the track's \(what)") }
        if result.utf8.count > longest {
            let length = result.utf8.count
            var cut = ""
            for character in result {
                guard cut.utf8.count + character.utf8.count <= longest else { break }
                cut.append(character)
            }
            result = cut
            warnings.append("\(place): the track's \(what) is \(length) bytes long: cut to its first \(longest)")
        }
        return result
    }
}
