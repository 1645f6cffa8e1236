import LodestoneCore

/// Tells a clean magnetometer reading from one bent by nearby iron or current (a car, a
/// railing, a phone in the same pocket): the field's strength and dip must match what Earth's
/// field is at this place. While they do not, the heading must not follow the magnetometer.
///
/// Thresholds have hysteresis so the flag does not chatter at the edge: interference is
/// flagged when the strength is off by more than 15% or the dip by more than 8 degrees, and
/// cleared when both are back within 10% and 5 degrees for a second.
public struct InterferenceMonitor: Sendable {
    public var strengthLimit = 0.15
    public var dipLimit = 8.0
    public var strengthClear = 0.10
    public var dipClear = 5.0
    public var clearAfter = 1.0
    public private(set) var interfered = false
    /// Measured minus expected, last update: strength as a fraction, dip in degrees.
    public private(set) var strengthError = 0.0
    public private(set) var dipError = 0.0
    private var cleanFor = 0.0

    public init() {}

    /// - Parameters:
    ///   - fieldStrength: measured, microtesla.
    ///   - dip: measured inclination, degrees (positive down).
    ///   - expected: the model's field here.
    ///   - interval: seconds since the last update.
    @discardableResult
    public mutating func update(fieldStrength: Double, dip: Double, expected: ExpectedField, interval: Double) -> Bool {
        let expectedStrength = expected.strength
        guard expectedStrength > 0, fieldStrength.isFinite, dip.isFinite else { return interfered }
        strengthError = fieldStrength / expectedStrength - 1
        dipError = dip - expected.inclination
        if abs(strengthError) > strengthLimit || abs(dipError) > dipLimit {
            interfered = true
            cleanFor = 0
        } else if interfered && abs(strengthError) <= strengthClear && abs(dipError) <= dipClear {
            cleanFor += interval
            if cleanFor >= clearAfter { interfered = false }
        } else {
            cleanFor = 0
        }
        return interfered
    }
}
