/// One altitude from two imperfect ones: the barometer sees a metre of climb at once but
/// drifts with the weather (1 hPa is about 8 m), GPS does not drift but wanders by metres from
/// second to second. A complementary filter keeps the barometer's changes and pulls its level
/// towards GPS over `timeConstant` seconds.
public struct AltitudeFusion: Sendable, Equatable {
    public var timeConstant: Double
    /// GPS minus barometric altitude, low-passed; NaN until both have been seen.
    public private(set) var offset = Double.nan

    public init(timeConstant: Double = 300) { self.timeConstant = timeConstant }

    /// The fused altitude for a new pair of readings `interval` seconds after the last (either
    /// may be NaN when missing).
    public mutating func update(barometric: Double, gps: Double, interval: Double) -> Double {
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
