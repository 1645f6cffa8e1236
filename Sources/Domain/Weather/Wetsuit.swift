import LodestoneCore

/// What to wear in the water: a wetsuit step from the water's temperature, one thicker when
/// air and water together are below 30 °C, one more in a wind of 8 m/s or more, at most the
/// thickest.
public enum Wetsuit {

    /// The step, 0 to 5, for the water and air temperatures (°C) and the wind (m/s); the air
    /// and the wind may be unknown (nil), and then add nothing.
    public static func step(water: Double, air: Double?, wind: Double?) -> Int {
        // Each band includes its lower bound: 24 °C and over, 21 to 24, 17 to 21, 14 to 17, 11 to 14, below 11.
        var step: Int
        switch water {
        case 24...: step = 0
        case 21..<24: step = 1
        case 17..<21: step = 2
        case 14..<17: step = 3
        case 11..<14: step = 4
        default: step = 5
        }
        if let air, air + water < 30 { step += 1 }
        if let wind, wind >= 8 { step += 1 }
        return min(step, 5)
    }

    /// The step in words ("3/2 mm", "5/4 mm with boots"), from the table of words.
    public static func text(step: Int, _ language: Language = .en) -> String {
        Words.text("label", "wetsuit\(max(0, min(5, step)))", language)
    }
}
