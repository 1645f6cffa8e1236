import Glibc
import LodestoneCore

/// A recorded path fitted into a box for drawing: a local projection (metres east and north
/// of the path's centre, the east scaled by the cosine of the latitude), turned so the heading
/// is up when asked, and scaled to the box with a margin; and a scale bar of a round length
/// (1, 2 or 5 times a power of ten) about a quarter of the box's width.
public struct TrackPlot: Sendable {
    public let width: Double, height: Double
    /// Metres per unit of the box (pixels or cells).
    public let metresPerUnit: Double
    /// Degrees the map is turned: 0 north up, the heading for heading up.
    public let rotation: Double
    public let scaleBarMetres: Double
    private let centre: (latitude: Double, longitude: Double)
    private let metresPerDegreeLongitude: Double
    static let metresPerDegreeLatitude = 111_320.0

    /// Fits `points` (latitude, longitude) and the places to mark into a `width` x `height` box;
    /// `aspect` is a unit's height over its width (2 for a terminal cell, 1 for a pixel).
    public init(
        points: [(latitude: Double, longitude: Double)], marks: [(latitude: Double, longitude: Double)] = [],
        width: Double, height: Double, aspect: Double = 1, headingUp: Double? = nil
    ) {
        (self.width, self.height) = (width, height)
        let all = (points + marks).filter { $0.latitude.isFinite && $0.longitude.isFinite }
        let latitudes = all.map(\.latitude), longitudes = all.map(\.longitude)
        let middle = (
            latitude: ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2,
            longitude: ((longitudes.min() ?? 0) + (longitudes.max() ?? 0)) / 2
        )
        centre = middle
        metresPerDegreeLongitude = Self.metresPerDegreeLatitude * cos(middle.latitude * .pi / 180)
        rotation = headingUp ?? 0
        // The extent once turned, in metres; at least 100 m so a short track is not a smear.
        let turn = rotation * .pi / 180
        var halfX = 50.0, halfY = 50.0
        for p in all {
            let east = (p.longitude - middle.longitude) * metresPerDegreeLongitude
            let north = (p.latitude - middle.latitude) * Self.metresPerDegreeLatitude
            halfX = max(halfX, abs(east * cos(turn) - north * sin(turn)))
            halfY = max(halfY, abs(east * sin(turn) + north * cos(turn)))
        }
        // A unit `aspect` times as tall as wide holds that many times the metres upright.
        let margin = 0.9
        let fitted = max(halfX / (max(1, width) / 2 * margin), halfY / (aspect * max(1, height) / 2 * margin))
        metresPerUnit = fitted.isFinite && fitted > 0 ? fitted : 1
        self.aspect = aspect
        scaleBarMetres = Self.roundLength(metresPerUnit * width / 4)
    }

    private let aspect: Double

    /// Where a place is in the box: x right, y down, in units; a place far outside it (or not
    /// a place at all) is held a few boxes away, so drawing toward it stays cheap and safe.
    public func position(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let east = (longitude - centre.longitude) * metresPerDegreeLongitude
        let north = (latitude - centre.latitude) * Self.metresPerDegreeLatitude
        let turn = rotation * .pi / 180
        let x = east * cos(turn) - north * sin(turn), y = east * sin(turn) + north * cos(turn)
        let px = width / 2 + x / metresPerUnit, py = height / 2 - y / metresPerUnit / aspect
        func held(_ value: Double, _ size: Double) -> Double { value.isFinite ? max(-4 * size, min(5 * size, value)) : -4 * size }
        return (held(px, width), held(py, height))
    }

    /// Whether a position is inside the box.
    public func contains(_ p: (x: Double, y: Double)) -> Bool { p.x >= 0 && p.y >= 0 && p.x < width && p.y < height }

    /// The scale bar's length in units.
    public var scaleBarUnits: Double { scaleBarMetres / metresPerUnit }

    /// 1, 2 or 5 times a power of ten, at most `metres`.
    static func roundLength(_ metres: Double) -> Double {
        guard metres.isFinite, metres > 0 else { return 1 }
        let power = pow(10, floor(log10(metres)))
        for step in [5.0, 2, 1] where step * power <= metres { return step * power }
        return power
    }
}
