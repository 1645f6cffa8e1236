import Glibc
import LodestoneCore

/// One of the six broad directions of the field as the sensor sees it, named by sensor axis
/// (body frame: x forward, y right, z down), with what a person does to fill it in.
public enum CoverageDirection: String, Sendable, CaseIterable {
    case plusX = "+x", minusX = "-x", plusY = "+y", minusY = "-y", plusZ = "+z", minusZ = "-z"

    /// The axis in the sensor frame.
    public var axis: Vector3 {
        switch self {
        case .plusX: return Vector3(1, 0, 0)
        case .minusX: return Vector3(-1, 0, 0)
        case .plusY: return Vector3(0, 1, 0)
        case .minusY: return Vector3(0, -1, 0)
        case .plusZ: return Vector3(0, 0, 1)
        case .minusZ: return Vector3(0, 0, -1)
        }
    }

    /// What to do so the field is seen along this axis. The Earth's field points north and,
    /// away from the equator, steeply down (up in the southern hemisphere), so "along the
    /// field" is close to "pointing at the ground" for most people.
    public var advice: String {
        switch self {
        case .plusX: return "point the front (+x) down and north, along the field"
        case .minusX: return "point the back (-x) down and north, along the field"
        case .plusY: return "point the right side (+y) down and north, along the field"
        case .minusY: return "point the left side (-y) down and north, along the field"
        case .plusZ: return "hold the device face up"
        case .minusZ: return "turn the device face down"
        }
    }
}

/// How much of the sphere of field directions the calibration readings cover.
///
/// The sphere is split into fixed, roughly equal-area cells around a Fibonacci lattice of
/// directions (each reading belongs to the nearest lattice direction); a cell counts once it
/// holds a few readings, so one stray reading does not fill it. The storage is made once, and
/// adding a reading is one pass over the lattice: no allocation per reading.
///
/// The directions must be of the field with the hard-iron offset removed (the calibrated field,
/// or raw readings minus a provisional centre): raw readings all point roughly along the offset.
public struct OrientationCoverage: Sendable {
    public static let cellCount = 40

    /// Cell centres: a Fibonacci lattice, which spreads N points over the sphere with nearly
    /// equal spacing, so its nearest-point cells have nearly equal areas.
    public static let cells: [Vector3] = {
        let goldenAngle = Double.pi * (3 - 5.0.squareRoot())
        return (0..<cellCount).map { i in
            let z = 1 - (2 * Double(i) + 1) / Double(cellCount)
            let r = max(0, 1 - z * z).squareRoot()
            let phi = goldenAngle * Double(i)
            return Vector3(r * cos(phi), r * sin(phi), z)
        }
    }()

    /// The broad direction each cell belongs to: its centre's dominant axis.
    public static let cellDirection: [CoverageDirection] = cells.map { c in
        let ax = abs(c.x), ay = abs(c.y), az = abs(c.z)
        if ax >= ay && ax >= az { return c.x >= 0 ? .plusX : .minusX }
        if ay >= az { return c.y >= 0 ? .plusY : .minusY }
        return c.z >= 0 ? .plusZ : .minusZ
    }

    /// Readings a cell needs before it counts as covered.
    public var minimumPerCell: Int
    /// A broad direction is missing when less than this fraction of its cells is covered.
    public var missingBelow: Double
    public private(set) var samples = 0
    private var counts: [Int32]

    public init(minimumPerCell: Int = 2, missingBelow: Double = 0.34) {
        self.minimumPerCell = max(1, minimumPerCell)
        self.missingBelow = missingBelow
        counts = [Int32](repeating: 0, count: OrientationCoverage.cellCount)
    }

    public mutating func reset() {
        samples = 0
        for i in counts.indices { counts[i] = 0 }
    }

    /// Adds the direction of one offset-removed field reading (any length). Zero or non-finite
    /// vectors are ignored.
    public mutating func add(direction v: Vector3) {
        let length = v.length
        guard length.isFinite, length > 0 else { return }
        var best = 0
        var bestDot = -Double.infinity
        OrientationCoverage.cells.withUnsafeBufferPointer { cells in
            for i in 0..<cells.count {
                let d = cells[i].dot(v)
                if d > bestDot { bestDot = d; best = i }
            }
        }
        if counts[best] < Int32.max { counts[best] += 1 }
        samples += 1
    }

    public func isCovered(cell: Int) -> Bool {
        counts.indices.contains(cell) && Int(counts[cell]) >= minimumPerCell
    }

    public var coveredCells: Int {
        var covered = 0
        for i in counts.indices where isCovered(cell: i) { covered += 1 }
        return covered
    }

    /// Fraction of the sphere covered, 0...1.
    public var coverage: Double { Double(coveredCells) / Double(OrientationCoverage.cellCount) }

    /// Fraction of one broad direction's cells covered, 0...1.
    public func coverage(of direction: CoverageDirection) -> Double {
        var total = 0, covered = 0
        for i in counts.indices where OrientationCoverage.cellDirection[i] == direction {
            total += 1
            if isCovered(cell: i) { covered += 1 }
        }
        return total > 0 ? Double(covered) / Double(total) : 1
    }

    public func isMissing(_ direction: CoverageDirection) -> Bool { coverage(of: direction) < missingBelow }

    /// The broad directions that still need readings, in a fixed order (allocates: for a
    /// prompt or a report, not the sampling loop; use `isMissing` there).
    public var missingDirections: [CoverageDirection] { CoverageDirection.allCases.filter { isMissing($0) } }
}
