import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The barometer on the output thread: altitude against a reference pressure (QNH) that a
/// person sets, or that a known altitude gives, fused with GPS when the fix is good; sea-level
/// pressure from the station pressure and that altitude; and the weather trend from it.
package final class WeatherService {
    /// QNH in hPa: the sea-level pressure the barometric altitude is counted from.
    package private(set) var qnh: Double
    private(set) var fusion = AltitudeFusion()
    private(set) var trend = PressureTrend()
    /// The newest values: station and sea-level pressure (hPa), barometric and fused altitude (m).
    package private(set) var station = Double.nan, seaLevel = Double.nan, barometric = Double.nan, fused = Double.nan
    package private(set) var temperature = Double.nan, humidity = Double.nan
    package private(set) var reading: PressureTrend.Reading?
    /// The altitude's rate, m/s (TPV's `climb`).
    package private(set) var climb = ClimbRate()
    /// How the reference was last set: "configured", "altitude", "gps".
    private(set) var reference = "configured"
    /// Whether the altitude has a reference: a GPS fix levelled it, or a person gave a known
    /// altitude or a QNH (the configured one counts when it is not the standard atmosphere's).
    var isReferenced: Bool { reference != "configured" || fusion.isLevelled || qnhGiven }
    private var qnhGiven: Bool
    private var lastTime = Double.nan

    /// A fix is good enough to level the barometer with when it is 3D and the position's
    /// confidence is at least this.
    static let calibrationConfidence = 60

    init(qnh: Double) {
        self.qnh = qnh
        qnhGiven = qnh != Self.standardQNH
    }

    /// The standard atmosphere's sea-level pressure, hPa: the QNH when none is given.
    static let standardQNH = 1013.25

    /// One barometer sample at UTC `time`, with the newest fix and its confidence; `resting`
    /// when the device is still (its altitude cannot change, so the pressure's change is the weather's).
    func add(_ sample: PressureSample, time: Double, fix: GPSFix, confidence: Int, resting: Bool = false) {
        let pascal = sample.pressure
        guard pascal > 0, pascal.isFinite else { return }
        station = pascal / 100
        temperature = sample.temperature
        humidity = sample.humidity ?? .nan
        barometric = BarometricAltitude.altitude(pressure: pascal, reference: qnh * 100)
        climb.add(altitude: barometric, time: time)
        let goodFix = fix.mode == .threeD && fix.altitudeMSL.isFinite && confidence >= Self.calibrationConfidence
        // A known altitude set by hand outranks GPS until the next one.
        let gps = goodFix && reference != "altitude" ? fix.altitudeMSL : .nan
        if gps.isFinite { reference = "gps" }
        let levelled = fusion.isLevelled
        fused = fusion.update(barometric: barometric, gps: gps, interval: lastTime.isFinite ? time - lastTime : 0, resting: resting)
        lastTime = time
        // The first GPS levelling moves the altitude by metres: the minutes before it were
        // reduced to sea level from a guess, and would read as a front passing.
        if !levelled && fusion.isLevelled { restartTrend() }
        seaLevel = BarometricAltitude.seaLevelPressure(pressure: pascal, altitude: fused) / 100
        if trend.add(seaLevelPressure: seaLevel, stationPressure: station, resting: resting, time: time) { reading = trend.reading }
    }

    func restartTrend() {
        trend = PressureTrend()
        reading = nil
    }

    /// `?BARO`: sets the reference from a pressure or a known altitude, then reports the state
    /// after the change. A known altitude is turned into a QNH with the newest station
    /// pressure, and refused when that QNH is one no weather gives (the altitude is wrong, or
    /// the pressure is not the air's): it would raise pressure alerts and bend every altitude.
    package func handle(_ request: BaroRequest) -> Report {
        switch request {
        case .qnh(let hPa):
            qnh = hPa
            qnhGiven = true
            fusion = AltitudeFusion()
            reference = "configured"
            settle()
        case .altitude(let metres):
            guard station.isFinite else { return .error("?BARO altitude needs a barometer reading: try again in a second") }
            let implied = BarometricAltitude.seaLevelPressure(pressure: station * 100, altitude: metres) / 100
            guard Self.qnhRange.contains(implied) else {
                return .error(
                    "?BARO altitude \(DecimalText.compact(metres, 1)) m at \(DecimalText.compact(station, 1)) hPa implies a QNH of "
                        + "\(DecimalText.compact(implied, 0)) hPa, outside \(Int(Self.qnhRange.lowerBound)) to \(Int(Self.qnhRange.upperBound)) hPa")
            }
            qnh = implied
            fusion = AltitudeFusion()
            reference = "altitude"
            settle()
        case .report:
            break
        }
        return .barometer(report())
    }

    /// The QNH a person or a known altitude may set, hPa: beyond the lowest and highest
    /// sea-level pressures ever measured.
    static let qnhRange = 850.0...1100.0

    /// The altitudes and the sea-level pressure as the new reference gives them for the newest
    /// station pressure, so the answer to a change already shows its effect.
    private func settle() {
        guard station.isFinite else { return }
        barometric = BarometricAltitude.altitude(pressure: station * 100, reference: qnh * 100)
        fused = barometric
        seaLevel = BarometricAltitude.seaLevelPressure(pressure: station * 100, altitude: fused) / 100
    }

    /// BARO: the reference, altitudes, sea-level pressure and the trend.
    func report() -> BarometerReport {
        BarometerReport(qnh: qnh, reference: reference, pressure: station, barometricAltitude: barometric, figures: figures)
    }

    /// The reduced figures ENV and BARO carry.
    package var figures: WeatherFigures {
        let known = isReferenced
        return WeatherFigures(
            seaLevelPressure: known && seaLevel.isFinite ? seaLevel : nil,
            altitudeFused: known && fused.isFinite ? fused : nil, trend: reading)
    }
}
