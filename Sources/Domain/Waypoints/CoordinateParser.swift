import LodestoneCore

/// A place typed or pasted by a person, in any of the three ways charts, receivers and phone
/// apps write one: decimal degrees ("47.376887, 8.541694", "-33.8568 151.2153",
/// "47.376887° N 8.541694° E"), degrees and decimal minutes ("N 47°22.6132' E 8°32.5016'"), or
/// degrees, minutes and seconds ("47°22'36.8\"N 8°32'30.1\"E"). Hemisphere letters may stand
/// before or after a figure (N, S, E, W, and O for the German Ost); minutes and seconds accept
/// the typographic primes (′ ″) and the apostrophes a phone's keyboard makes (’ ”).
///
/// Latitude first unless the letters say otherwise. Anything it cannot read whole, or a value
/// out of range (latitude beyond 90°, longitude beyond 180°, minutes or seconds of 60 or more),
/// is refused: a place is never guessed.
public enum CoordinateParser {
    public struct Place: Equatable, Sendable {
        public var latitude: Double, longitude: Double
    }

    /// One axis as it was written: its figures (degrees, then minutes, then seconds), its sign,
    /// and the hemisphere letter given with it.
    struct Axis {
        var figures: [Double] = []
        var negative = false
        var letter: Character?
    }

    public static func parse(_ text: String) -> Place? {
        guard text.utf8.count <= 200, let axes = axes(text), axes.count == 2 else { return nil }
        var first = axes[0], second = axes[1]
        // Letters decide which is which: "E 8°32' N 47°22'" is longitude first.
        if let letter = first.letter, "EWO".contains(letter) { swap(&first, &second) }
        if let letter = first.letter, !"NS".contains(letter) { return nil }
        if let letter = second.letter, !"EWO".contains(letter) { return nil }
        guard let latitude = value(first, limit: 90), let longitude = value(second, limit: 180) else { return nil }
        return Place(latitude: latitude, longitude: longitude)
    }

    /// The signed degrees of `axis`, nil when a figure is out of its range.
    static func value(_ axis: Axis, limit: Double) -> Double? {
        guard (1...3).contains(axis.figures.count) else { return nil }
        var degrees = 0.0
        for (index, figure) in axis.figures.enumerated() {
            guard figure.isFinite, figure >= 0 else { return nil }
            // Degrees are whole when minutes follow; minutes whole when seconds follow.
            if index + 1 < axis.figures.count, figure != figure.rounded(.down) { return nil }
            if index > 0, figure >= 60 { return nil }
            degrees += figure / [1, 60, 3600][index]
        }
        guard degrees <= limit else { return nil }
        let western = axis.letter.map { "SW".contains($0) } ?? false
        // "-47° S" says south twice, or means north: refused either way.
        if western && axis.negative { return nil }
        return axis.negative || western ? -degrees : degrees
    }

    /// What the text is made of.
    enum Token: Equatable {
        /// A figure with the mark after it: 0 degrees (or none), 1 minutes, 2 seconds.
        case figure(Double, mark: Int?)
        case letter(Character)
        case minus, separator
    }

    static func tokens(_ text: String) -> [Token]? {
        var out: [Token] = [], number = ""
        func finish() -> Bool {
            guard !number.isEmpty else { return true }
            guard number.count <= 20, let figure = Double(number) else { return false }
            out.append(.figure(figure, mark: nil))
            number = ""
            return true
        }
        for character in text.uppercased() {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard finish() else { return nil }
            let mark: Int? =
                switch character {
                case "°", "º": 0
                case "'", "′", "’": 1
                case "\"", "″", "”": 2
                default: nil
                }
            if let mark {
                guard case .figure(let figure, nil)? = out.last else { return nil }
                out[out.count - 1] = .figure(figure, mark: mark)
                continue
            }
            switch character {
            case "N", "S", "E", "W", "O": out.append(.letter(character))
            case "-", "−": out.append(.minus)
            case ",", ";": out.append(.separator)
            case "+", " ", "\t", "\n": break
            default: return nil
            }
        }
        guard finish() else { return nil }
        return out
    }

    /// The text cut into its axes. A comma or semicolon ends one, a hemisphere letter after its
    /// figures ends one and a letter before them begins one; without either, a figure marked in
    /// degrees or a bare figure after a complete axis begins the next.
    static func axes(_ text: String) -> [Axis]? {
        guard let tokens = tokens(text) else { return nil }
        // With separators or letters, bare figures belong to the axis they stand in
        // ("N 47 22.6132, E 8 32.5016"); without, each bare figure is an axis ("47.37 8.54").
        let delimited = tokens.contains { if case .figure = $0 { return false } else { return $0 != .minus } }
        var axes: [Axis] = [], current = Axis()
        // A letter after its figures ended the axis: a comma may follow it ("33.85°S, 151.2°E").
        var endedByLetter = false
        func finish() {
            if !current.figures.isEmpty || current.letter != nil || current.negative { axes.append(current) }
            current = Axis()
        }
        for token in tokens {
            let afterLetter = endedByLetter
            endedByLetter = false
            switch token {
            case .figure(let figure, let mark):
                let startsAxis = mark == 0 || (mark == nil && !delimited)
                if startsAxis, !current.figures.isEmpty { finish() }
                // A mark says where the figure stands: minutes after degrees, seconds after minutes.
                if let mark, mark != current.figures.count { return nil }
                current.figures.append(figure)
            case .letter(let letter):
                if current.figures.isEmpty {
                    guard current.letter == nil else { return nil }
                    current.letter = letter
                } else {
                    guard current.letter == nil else {
                        // The letter before these figures was this axis's; this one begins the next.
                        finish()
                        current.letter = letter
                        continue
                    }
                    current.letter = letter
                    finish()
                    endedByLetter = true
                }
            case .minus:
                if !current.figures.isEmpty { finish() }
                guard !current.negative else { return nil }
                current.negative = true
            case .separator:
                if current.figures.isEmpty, current.letter == nil, !current.negative, afterLetter { continue }
                guard !current.figures.isEmpty else { return nil }
                finish()
            }
        }
        finish()
        return axes
    }
}
