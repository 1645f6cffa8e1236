/// One altitude from two imperfect ones: the barometer sees a metre of climb at once but
/// drifts with the weather (1 hPa is about 8 m), GPS does not drift but wanders by metres from
/// second to second. A complementary filter keeps the barometer's changes and pulls its level
/// towards GPS over `timeConstant` seconds.
///
/// A device at rest does not change altitude: while it rests the altitude is held, and every
/// change of pressure is the weather's. GPS levels it once, as the mean of its first
/// `levellingPeriod` seconds; after that a resting device ignores GPS, whose vertical error
/// wanders by metres over minutes and would read as tenths of a hectopascal of weather.
public struct AltitudeFusion: Sendable, Equatable {
    public var timeConstant: Double
    /// GPS minus barometric altitude, low-passed; NaN until both have been seen.
    public private(set) var offset = Double.nan
    /// The altitude while at rest (and the last fused one while moving).
    private var held = Double.nan
    /// Seconds of GPS seen so far (up to the levelling period), and their altitudes' sum.
    private var levellingTime = 0.0
    private var levellingSum = 0.0, levellingCount = 0.0

    /// Seconds of GPS the first levelling averages.
    public static let levellingPeriod = 120.0

    public init(timeConstant: Double = 300) { self.timeConstant = timeConstant }

    /// Whether GPS has levelled the altitude (the barometer alone counts from a guessed
    /// sea-level pressure until then).
    public var isLevelled: Bool { levellingTime >= Self.levellingPeriod }

    /// The fused altitude for a new pair of readings `interval` seconds after the last (either
    /// may be NaN when missing); `resting` when the device is known not to be moving.
    public mutating func update(barometric: Double, gps: Double, interval: Double, resting: Bool = false) -> Double {
        let step = max(0, interval.isFinite ? interval : 0)
        if gps.isFinite && !isLevelled {
            if levellingCount > 0 { levellingTime += step }
            levellingSum += gps
            levellingCount += 1
        }
        if resting, held.isFinite {
            if gps.isFinite && levellingCount > 0 && (!isLevelled || !offset.isFinite) {
                held = levellingSum / levellingCount
            }
            // Setting off again continues from the held altitude, without a jump.
            if barometric.isFinite, levellingCount > 0 { offset = held - barometric }
            return held
        }
        let fused = moving(barometric: barometric, gps: gps, interval: step)
        held = fused
        return fused
    }

    private mutating func moving(barometric: Double, gps: Double, interval: Double) -> Double {
        if barometric.isFinite && gps.isFinite {
            let difference = gps - barometric
            if offset.isFinite {
                offset += (difference - offset) * min(1, max(0, interval) / timeConstant)
            } else {
                offset = difference
            }
        }
        guard barometric.isFinite else { return gps }
        return offset.isFinite ? barometric + offset : barometric
    }
}
