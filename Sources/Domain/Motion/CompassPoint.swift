import LodestoneCore

/// Names of the compass points for a heading: 4 (N, E, S, W), 8 (N, NE, E, ...) or 16
/// (N, NNE, NE, ENE, ...). Each name covers the sector centred on its direction, so the
/// boundaries lie half-way between neighbours (for 16 points: N up to 11.25 degrees, NNE from
/// 11.25 to 33.75, ...); a heading exactly on a boundary belongs to the clockwise sector.
///
/// The one place the runtime's outputs should take these names from. Names are static strings:
/// no allocation.
public enum CompassPoint {
    public enum Division: Int, Sendable, CaseIterable {
        case four = 4
        case eight = 8
        case sixteen = 16
    }

    static let names16 = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
        "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"
    ]
    static let fullNames16 = [
        "north", "north-northeast", "northeast", "east-northeast",
        "east", "east-southeast", "southeast", "south-southeast",
        "south", "south-southwest", "southwest", "west-southwest",
        "west", "west-northwest", "northwest", "north-northwest"
    ]

    /// The sector of `heading` among `division` points, 0 = north, counting clockwise.
    public static func index(_ heading: Double, division: Division = .sixteen) -> Int {
        let points = division.rawValue
        let sector = 360 / Double(points)
        // Shift by half a sector so each name's sector starts at a boundary, then truncate.
        let shifted = Angle.heading(heading) / sector + 0.5
        // Callers name only headings they have; a NaN that slipped through names sector 0
        // rather than stopping the device.
        return (Int(whole: shifted.rounded(.down), in: 0...points) ?? 0) % points
    }

    /// The abbreviation: "N", "NE", "NNE", ...
    public static func name(_ heading: Double, division: Division = .sixteen) -> String {
        names16[index(heading, division: division) * (16 / division.rawValue)]
    }

    /// The name in words: "north", "northeast", "north-northeast", ...
    public static func fullName(_ heading: Double, division: Division = .sixteen) -> String {
        fullNames16[index(heading, division: division) * (16 / division.rawValue)]
    }

    /// The direction a point names, degrees (the centre of its sector).
    public static func heading(ofIndex index: Int, division: Division = .sixteen) -> Double {
        let points = division.rawValue
        let wrapped = ((index % points) + points) % points
        return Double(wrapped) * 360 / Double(points)
    }
}
