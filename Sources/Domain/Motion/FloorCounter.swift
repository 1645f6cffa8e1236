/// Floors climbed and descended from the barometric altitude: a floor for every 3 m gained or
/// lost from a reference, which then moves by the floor. The whole floor is the hysteresis:
/// noise around a boundary cannot count a floor up and down again, it must go 3 m the other
/// way. While the person is not moving the reference follows the altitude, so the weather's
/// slow change of pressure (a few metres an hour) is never counted as stairs.
public struct FloorCounter: Sendable, Equatable {
    /// The height of a floor, metres (a storey with its slab).
    public static let floorHeight = 3.0
    public private(set) var up = 0
    public private(set) var down = 0
    private var reference: Double?

    public init(up: Int = 0, down: Int = 0) { (self.up, self.down) = (up, down) }

    /// One altitude (metres), with whether the person is walking or running.
    public mutating func update(altitude: Double, moving: Bool) {
        guard altitude.isFinite else { return }
        guard moving, let base = reference else {
            reference = altitude
            return
        }
        var level = base
        while altitude - level >= Self.floorHeight { up += 1; level += Self.floorHeight }
        while level - altitude >= Self.floorHeight { down += 1; level -= Self.floorHeight }
        reference = level
    }

    /// A new day: the counts start at zero, the reference stays.
    public mutating func startDay() { (up, down) = (0, 0) }
}
