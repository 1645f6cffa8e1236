import LodestoneCore

/// What magnetised and magnetically soft parts near a magnetometer do to the field it sees,
/// in the chip's axes: soft iron scales and skews the field (a matrix), hard iron adds a
/// constant offset. Every emulated magnetometer applies one, so calibration can be tested.
public struct FieldDistortion: Sendable, Equatable {
    /// Field added by magnetised parts near the sensor, microtesla.
    public var hardIron: Vector3
    /// Rows of the soft-iron matrix (identity: none).
    public var softIron: (Vector3, Vector3, Vector3)

    public init(
        hardIron: Vector3 = .zero,
        softIron: (Vector3, Vector3, Vector3) = (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    ) {
        self.hardIron = hardIron
        self.softIron = softIron
    }

    public static let none = FieldDistortion()

    /// A breakout near a battery and a screw: a few microtesla of hard iron, a little soft iron.
    public static let typicalBreakout = FieldDistortion(
        hardIron: Vector3(6.5, -3.2, 2.1),
        softIron: (Vector3(1.04, 0.02, 0), Vector3(0.02, 0.97, 0.01), Vector3(0, 0.01, 1.0)))

    /// A breakout on a boat, fixed to the hull near the engine: tens of microtesla of hard
    /// iron and the hull's steel stretching the horizontal by 10% either way, a little of it
    /// into the vertical.
    public static let hull = FieldDistortion(
        hardIron: Vector3(18.5, -12.2, 20.1),
        softIron: (Vector3(1.10, 0.06, 0.02), Vector3(0.06, 0.92, 0.01), Vector3(0.02, 0.01, 1.0)))

    public func apply(_ field: Vector3) -> Vector3 {
        Vector3(softIron.0.dot(field), softIron.1.dot(field), softIron.2.dot(field)) + hardIron
    }

    public static func == (a: FieldDistortion, b: FieldDistortion) -> Bool {
        a.hardIron == b.hardIron && a.softIron.0 == b.softIron.0 && a.softIron.1 == b.softIron.1
            && a.softIron.2 == b.softIron.2
    }
}
