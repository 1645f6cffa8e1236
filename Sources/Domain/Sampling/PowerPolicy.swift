/// Whether to run the low-power profile: on battery below `lowBattery` percent (back to normal
/// at `recovered`, so a battery hovering at the threshold does not flip the profile), or
/// whenever the user asked for it. Unknown power (no power-supply information) counts as mains.
public struct PowerPolicy: Sendable {
    public var lowBattery = 20.0
    public var recovered = 25.0
    public var userLowPower = false
    public private(set) var lowPower = false

    public init(userLowPower: Bool = false) {
        self.userLowPower = userLowPower
        lowPower = userLowPower
    }

    /// - Parameters:
    ///   - externalPower: true on mains or USB power, false on battery, nil when unknown.
    ///   - batteryPercent: the battery's charge, when known.
    @discardableResult
    public mutating func update(externalPower: Bool?, batteryPercent: Double?) -> Bool {
        var low = lowPower && !userLowPower
        if externalPower == true || batteryPercent == nil {
            low = false
        } else if let percent = batteryPercent {
            if percent <= lowBattery { low = true } else if percent >= recovered { low = false }
        }
        lowPower = userLowPower || low
        return lowPower
    }
}
