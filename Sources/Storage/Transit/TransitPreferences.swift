import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// A person's own additions to the timetable: favourite stops in their order
/// (`<dataDir>/timetable-favourites.json`, a JSON array of stop ids), and marks on trips or
/// routes (`<dataDir>/timetable-marks.csv`: `match,label,rating` per line, where match is a
/// route id or short name, a trip id, or a headsign pattern with `*`), shown with each
/// departure: "Panta Rhei, 5" for the ship that makes the best waves.
public struct TransitPreferences {
    public let favouritesPath: String
    public let marksPath: String

    public init(dataDirectory: String) {
        favouritesPath = dataDirectory + "/timetable-favourites.json"
        marksPath = dataDirectory + "/timetable-marks.csv"
    }

    public func favourites() -> [String] {
        guard let text = readStoreTextIfPresent(favouritesPath), let json = try? JSONValue.parse(text) else { return [] }
        return json.arrayValue?.compactMap(\.stringValue) ?? []
    }

    public func saveFavourites(_ ids: [String]) -> Bool {
        writeFileAtomically(favouritesPath, Array(("[" + ids.map(JSONObjectWriter.quoted).joined(separator: ",") + "]\n").utf8))
    }

    public struct Mark: Sendable, Equatable {
        public var match: String, label: String, rating: Int
        /// How many waves the ship makes, 1 to 3 (a mark without it: 1).
        public var waves: Int = 1
        public init(match: String, label: String, rating: Int, waves: Int = 1) {
            (self.match, self.label, self.rating, self.waves) = (match, label, rating, waves)
        }
    }

    /// The marks; a line that is not `match,label,rating[,waves]` (rating 0 to 5, waves 1 to 3)
    /// is skipped and said.
    public func marks() -> (marks: [Mark], problems: [String]) {
        guard fileExists(marksPath), let bytes = try? readStoreBytes(marksPath) else { return ([], []) }
        var marks: [Mark] = [], problems: [String] = []
        // Line by line, so one bad line loses only itself (a person writes this file by hand).
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            // Three fields, or four with the ship's waves.
            let csv =
                (try? CSVReader.rows(file: marksPath, bytes: Array("match,label,rating,waves\n".utf8) + Array(line)))
                ?? (try? CSVReader.rows(file: marksPath, bytes: Array("match,label,rating\n".utf8) + Array(line)))
            let wavesText = csv?.rows.first.map { $0["waves"].trimmingSpacesAround } ?? ""
            guard let row = csv?.rows.first, let rating = Int(row["rating"].trimmingSpacesAround), (0...5).contains(rating), !row["match"].isEmpty,
                let waves = wavesText.isEmpty ? 1 : Int(wavesText), (1...3).contains(waves)
            else {
                problems.append("\(marksPath) line \(number + 1): not match,label,rating[,waves] with a rating from 0 to 5 and 1 to 3 waves; skipped")
                continue
            }
            marks.append(Mark(match: row["match"], label: row["label"].trimmingSpacesAround, rating: rating, waves: waves))
        }
        return (marks, problems)
    }

    /// The first mark that matches a departure: its trip (or a trip pattern with `*`), its
    /// route (id or name), or its headsign.
    public static func mark(for departure: Timetable.Departure, in marks: [Mark]) -> Mark? {
        marks.first { mark in
            mark.match == departure.trip || mark.match == departure.routeID || mark.match == departure.route || matches(mark.match, departure.headsign)
                || (mark.match.contains("*") && matches(mark.match, departure.trip))
        }
    }

    /// A pattern with `*` for any run of characters, any case.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let parts = pattern.lowercased().split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return pattern.lowercased() == text.lowercased() }
        var rest = Substring(text.lowercased())
        for (index, part) in parts.enumerated() where !part.isEmpty {
            // The last piece of a pattern not ending in * must end the text.
            if index == parts.count - 1 { return rest.hasSuffix(part) }
            guard let range = rest.firstRange(of: part) else { return false }
            if index == 0 && range.lowerBound != rest.startIndex { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

extension String {
    fileprivate var trimmingSpacesAround: String { String(Substring(self).trimmingSpaces()) }
}
