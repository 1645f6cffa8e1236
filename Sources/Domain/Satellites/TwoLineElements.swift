import LodestoneCore

/// A satellite's two-line element set (the format of NORAD's catalogue): the mean elements
/// SGP4 starts from.
public struct TwoLineElements: Sendable, Equatable {
    public var name: String
    public var catalogNumber: Int
    /// Julian date of the elements' epoch (UTC).
    public var epochJulianDay: Double
    /// B* drag term (1/earth radii), inclination, right ascension of the ascending node,
    /// argument of perigee and mean anomaly (radians), eccentricity, mean motion (rad/min).
    public var bstar: Double
    public var inclination: Double, node: Double, eccentricity: Double, perigee: Double, meanAnomaly: Double
    public var meanMotion: Double

    public struct Failure: Error, CustomStringConvertible, Sendable { public var description: String }

    /// Lines 1 and 2 (and an optional name line before them).
    public init(name: String = "", line1: String, line2: String) throws(Failure) {
        let a = Array(line1.utf8), b = Array(line2.utf8)
        guard a.count >= 63, b.count >= 63, a[0] == UInt8(ascii: "1"), b[0] == UInt8(ascii: "2") else {
            throw Failure(description: "not a two-line element set: line 1 must start with '1 ', line 2 with '2 ', 69 columns each")
        }
        func field(_ line: [UInt8], _ from: Int, _ to: Int) -> String {
            String(decoding: line[(from - 1)..<min(to, line.count)], as: UTF8.self).filter { $0 != " " }
        }
        func number(_ line: [UInt8], _ from: Int, _ to: Int, _ what: String) throws(Failure) -> Double {
            guard let v = Double(field(line, from, to)) else {
                throw Failure(description: "line \(line == a ? 1 : 2), columns \(from)-\(to): \(what) is not a number")
            }
            return v
        }
        /// "-11606-4" is -0.11606e-4 (an implied decimal point and exponent).
        func exponent(_ line: [UInt8], _ from: Int, _ to: Int, _ what: String) throws(Failure) -> Double {
            var text = field(line, from, to)
            var sign = 1.0
            if text.hasPrefix("-") { sign = -1; text.removeFirst() } else if text.hasPrefix("+") { text.removeFirst() }
            guard let split = text.lastIndex(where: { $0 == "-" || $0 == "+" }), let mantissa = Double("0." + text[..<split]),
                let power = Double(text[split...])
            else {
                if let plain = Double(text), plain == 0 { return 0 }
                throw Failure(description: "line 1, columns \(from)-\(to): \(what) is not in the element set's exponent form")
            }
            return sign * mantissa * pow10(power)
        }
        func pow10(_ p: Double) -> Double { var r = 1.0; for _ in 0..<Int(abs(p)) { r *= 10 }; return p < 0 ? 1 / r : r }
        self.name = name.trimmingSpaces
        guard let catalog = Int(field(a, 3, 7)) else { throw Failure(description: "line 1, columns 3-7: no catalogue number") }
        catalogNumber = catalog
        let year2 = Int(try number(a, 19, 20, "the epoch year"))
        let days = try number(a, 21, 32, "the epoch day")
        let year = year2 < 57 ? 2000 + year2 : 1900 + year2
        epochJulianDay = Double(CivilTime.days(year: year, month: 1, day: 1)) + 2_440_587.5 + days - 1
        bstar = try exponent(a, 54, 61, "B*")
        let degrees = Double.pi / 180
        inclination = try number(b, 9, 16, "the inclination") * degrees
        node = try number(b, 18, 25, "the ascending node") * degrees
        eccentricity = try number(b, 27, 33, "the eccentricity") / 10_000_000
        perigee = try number(b, 35, 42, "the argument of perigee") * degrees
        meanAnomaly = try number(b, 44, 51, "the mean anomaly") * degrees
        meanMotion = try number(b, 53, 63, "the mean motion") * 2 * .pi / 1440
    }

    /// Every element set in a file: pairs of lines 1 and 2, each with the name line before it
    /// when there is one; comments (#) and blank lines are skipped.
    public static func all(in text: String) -> (sets: [TwoLineElements], problems: [String]) {
        var sets: [TwoLineElements] = [], problems: [String] = []
        var name = "", previous: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = String(raw)
            if line.hasPrefix("#") || line.trimmingSpaces.isEmpty { continue }
            if line.hasPrefix("1 ") {
                previous = line
            } else if line.hasPrefix("2 "), let first = previous {
                do { sets.append(try TwoLineElements(name: name, line1: first, line2: line)) } catch { problems.append(error.description) }
                previous = nil
                name = ""
            } else {
                name = line
            }
        }
        return (sets, problems)
    }
}

extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
