import LodestoneCore
import LodestoneDomain

/// Readings gathered for a magnetometer fit on the output thread: raw fields (sensor axes)
/// with the accelerometer's reading turned into the same axes. Only readings whose direction
/// has moved by a few degrees since the last one kept are added, so a device lying still does
/// not flood the fit with one direction; the store is bounded, dropping its older half when full.
struct CalibrationSession {
    static let capacity = 3000
    /// About 3 degrees between kept readings; a swing turns only about the vertical, and
    /// keeps one every degree of it (a circle then gives 360).
    static let figure8TurnCosine = 0.9986
    static let swingTurnCosine = 0.99985
    private(set) var readings: [Vector3] = []
    private(set) var forces: [Vector3] = []
    private var lastDirection: Vector3?
    let started: MonotonicNanoseconds
    /// A figure-8 or a boat's swing: how readings are kept and how they are fitted.
    let mode: CalibrationMode
    private let turnCosine: Double

    init(started: MonotonicNanoseconds, mode: CalibrationMode = .figure8) {
        self.started = started
        self.mode = mode
        turnCosine = mode == .swing ? Self.swingTurnCosine : Self.figure8TurnCosine
        readings.reserveCapacity(Self.capacity)
        forces.reserveCapacity(Self.capacity)
    }

    mutating func add(raw: Vector3, force: Vector3) {
        let length = raw.length
        guard length > 0, length.isFinite else { return }
        let direction = raw / length
        if let last = lastDirection, last.dot(direction) > turnCosine { return }
        lastDirection = direction
        if readings.count >= Self.capacity {
            // Thin out rather than forget the oldest: the figure-8 at the start of a trip is
            // what covers the sphere, and the straight walk after it adds little.
            // In place: every other reading kept, the storage kept too.
            let kept = (readings.count + 1) / 2
            for index in 0..<kept {
                readings[index] = readings[2 * index]
                forces[index] = forces[2 * index]
            }
            readings.removeLast(readings.count - kept)
            forces.removeLast(forces.count - kept)
        }
        readings.append(raw)
        forces.append(force)
        added += 1
    }

    /// Readings kept since the session began (thinning does not lower it).
    private(set) var added = 0

    var count: Int { readings.count }

    /// - Parameters:
    ///   - up: the device's up axis in the magnetometer's axes.
    ///   - field: Earth's field where the device is, when there is a fix.
    func evaluate(up: Vector3? = nil, field: ExpectedField? = nil) -> CalibrationOutcome {
        MagnetometerCalibration.fit(
            readings: readings, specificForces: forces, up: up,
            field: field.map { ($0.strength, $0.inclination) }, mode: mode)
    }
}
