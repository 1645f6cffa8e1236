import LodestoneCore

/// The Zambretti forecaster (Negretti & Zambra's disc of 1915): the weather of the next 12
/// hours from the sea-level pressure, whether it rose, fell or held over the last 3 hours, the
/// wind's direction where a vane is fitted, and the season.
///
/// The disc spans 950 to 1050 hPa in 22 steps. The wind moves the pressure read against the
/// scale by a share of that span (a north wind, cold and dry in the northern hemisphere, as if
/// 6% higher; a south wind 12% lower; the southern hemisphere's winds mirrored), and so does
/// the season on the rising and falling scales (the card's S and W marks: in summer, April to
/// September in the north, a rising barometer reads 7% higher and a falling one 7% lower).
/// Each scale's step then shows one of the card's 26 letters.
public enum Zambretti {
    public enum Trend: String, Sendable, Equatable {
        case rising, steady, falling

        /// Rising or falling when the sea-level pressure changed by 1.6 hPa or more in 3 hours
        /// (where the Met Office's tendency words start saying "rising" and "falling" rather
        /// than "slowly"), else steady.
        public init(threeHourChange change: Double) {
            self = change >= 1.6 ? .rising : change <= -1.6 ? .falling : .steady
        }
    }

    public struct Forecast: Sendable, Equatable {
        /// The card's letter, A (settled fine) to Z (stormy, much rain).
        public var letter: String
        public var text: String
        public var trend: Trend
        /// Where the pressure fell outside the disc's 950 to 1050 hPa: an exceptional reading,
        /// given the nearest end's forecast.
        public var exceptional: Bool
    }

    /// The card's words, A to Z.
    public static let texts = [
        "Settled fine", "Fine weather", "Becoming fine", "Fine, becoming less settled", "Fine, possible showers",
        "Fairly fine, improving", "Fairly fine, possible showers early", "Fairly fine, showery later", "Showery early, improving",
        "Changeable, mending", "Fairly fine, showers likely", "Rather unsettled, clearing later", "Unsettled, probably improving",
        "Showery, bright intervals", "Showery, becoming less settled", "Changeable, some rain", "Unsettled, short fine intervals",
        "Unsettled, rain later", "Unsettled, rain at times", "Very unsettled, finer at times", "Rain at times, worse later",
        "Rain at times, becoming very unsettled", "Rain at frequent intervals", "Very unsettled, rain", "Stormy, possibly improving",
        "Stormy, much rain"
    ]

    /// The letter (0 A ... 25 Z) each of the 22 steps from 950 hPa up shows on each scale.
    static let risingScale = [25, 25, 25, 24, 24, 19, 16, 12, 11, 9, 8, 6, 5, 2, 1, 1, 0, 0, 0, 0, 0, 0]
    static let steadyScale = [25, 25, 25, 25, 25, 25, 23, 23, 22, 18, 15, 13, 10, 4, 1, 1, 0, 0, 0, 0, 0, 0]
    static let fallingScale = [25, 25, 25, 25, 25, 25, 25, 25, 23, 23, 21, 20, 17, 14, 7, 3, 1, 1, 1, 0, 0, 0]

    /// The wind's shift, in % of the span, for the 16 points from north clockwise (northern
    /// hemisphere; the southern takes the opposite point's).
    static let windShift = [6, 5, 5, 2, -0.5, -2, -5, -8.5, -12, -10, -6, -4.5, -3, -0.5, 1.5, 3]

    public static let bottom = 950.0, top = 1050.0

    /// The forecast for sea-level pressure `pressure` (hPa) after a 3-hour change of `change`
    /// (hPa), in `month` (1-12) on the `northern` or southern hemisphere, with the wind from
    /// `windFrom` degrees true when a vane says; nil for numbers that are not a pressure.
    public static func forecast(pressure: Double, threeHourChange change: Double, windFrom: Double? = nil, month: Int, northern: Bool = true) -> Forecast? {
        guard pressure.isFinite, pressure > 800, pressure < 1200, change.isFinite, abs(change) < 100, (1...12).contains(month) else { return nil }
        let trend = Trend(threeHourChange: change)
        let span = top - bottom
        var read = pressure
        if let windFrom, windFrom.isFinite {
            let from = northern ? windFrom : windFrom + 180
            let point = Int(((from.truncatingRemainder(dividingBy: 360) + 360 + 11.25) / 22.5).rounded(.down)) % 16
            read += windShift[point] / 100 * span
        }
        let summer = northern ? (4...9).contains(month) : !(4...9).contains(month)
        if summer {
            if trend == .rising { read += 0.07 * span }
            if trend == .falling { read -= 0.07 * span }
        }
        let step = Int(((read - bottom) / (span / 22)).rounded(.down))
        let clamped = min(max(step, 0), 21)
        let scale = trend == .rising ? risingScale : trend == .falling ? fallingScale : steadyScale
        let letter = scale[clamped]
        return Forecast(letter: String(UnicodeScalar(UInt8(65 + letter))), text: texts[letter], trend: trend, exceptional: step != clamped)
    }
}

/// A Zambretti forecast as it was made: when, so that it speaks only for the 12 hours after.
public struct WeatherOutlook: Sendable, Equatable {
    public var forecast: Zambretti.Forecast
    /// The time of the pressure it was made from (UTC seconds).
    public var issued: Double
    public static let hours = 12.0

    /// The forecast from the sea-level pressure and its 3-hour change at `time`, at `latitude`
    /// (the hemisphere; nil: northern), with the wind's direction where a vane is fitted.
    public init?(seaLevelPressure: Double, threeHourChange: Double, windFrom: Double?, time: Double, latitude: Double?) {
        guard time.isFinite, abs(time) < 1e11,
            let forecast = Zambretti.forecast(
                pressure: seaLevelPressure, threeHourChange: threeHourChange, windFrom: windFrom,
                month: CivilTime(unixSeconds: time).month, northern: (latitude ?? 1) >= 0)
        else { return nil }
        (self.forecast, issued) = (forecast, time)
    }

    /// The forecast for a moment within its 12 hours (from an hour before it was made, for a
    /// departure just gone), else nil.
    public func forecast(at time: Double) -> Zambretti.Forecast? {
        time >= issued - 3600 && time <= issued + Self.hours * 3600 ? forecast : nil
    }
}
