import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// What the NMEA 0183 output sends, from the reports every output gets: heading, rate of turn
/// and attitude with each ATT (ten times a second), pressure and temperature with each ENV
/// (once a second), and the receiver's RMC and GGA sentences as they came (a chart plotter
/// takes its position from those).
public enum NMEAFeed {
    /// The sentences a report makes; none for the kinds NMEA has no sentence for.
    public static func sentences(for report: Report) -> [String] {
        switch report {
        case .attitude(let attitude): return heading(attitude)
        case .environment(let environment): return weather(environment)
        default: return []
        }
    }

    /// HDM, HDG, HDT (when the declination is known), ROT and XDR pitch and roll. The heading
    /// sentences only while the heading is valid (`trustedMagneticHeading`: the magnetometer
    /// answering, a calibration in use, the filter settled): HDM has no status field, so a
    /// heading on the gyro alone or from an uncalibrated chip is withheld rather than sent as
    /// if it were true. The rate of turn (the gyro's, `TurnRate`) and pitch and roll (XDR)
    /// need no magnetometer and always go.
    public static func heading(_ report: AttitudeReport) -> [String] {
        guard let roll = report.roll, let pitch = report.pitch else { return [] }
        var out: [String] = []
        if let heading = report.trustedMagneticHeading {
            out += [NMEAOutputSentences.hdm(heading), NMEAOutputSentences.hdg(heading, variation: report.declination)]
            if let trueHeading = report.trueHeading { out.append(NMEAOutputSentences.hdt(trueHeading)) }
        }
        if let rate = report.rateOfTurn { out.append(NMEAOutputSentences.rot(degreesPerMinute: rate * 60)) }
        out.append(NMEAOutputSentences.xdrAttitude(pitch: pitch, roll: roll))
        return out
    }

    /// XDR pressure and temperature and MDA, from the barometer's station pressure (the
    /// sea-level pressure once the device has levelled it).
    public static func weather(_ report: EnvironmentReport) -> [String] {
        guard let pressure = report.pressure else { return [] }
        let pascal = report.weather?.seaLevelPressure.map { $0 * 100 } ?? pressure.pressure
        return [
            NMEAOutputSentences.xdrBarometer(pascal: pascal, celsius: pressure.temperature),
            NMEAOutputSentences.mda(pascal: pascal, celsius: pressure.temperature, humidity: pressure.humidity)
        ]
    }

    /// Whether a received sentence is passed through: RMC and GGA from any talker.
    public static func passesThrough(_ sentence: UnsafeBufferPointer<UInt8>) -> Bool {
        let type = sentence.dropFirst(3).prefix(3)
        return type.elementsEqual("RMC".utf8) || type.elementsEqual("GGA".utf8)
    }

    public static func passesThrough(_ sentence: String) -> Bool {
        var sentence = sentence
        return sentence.withUTF8 { passesThrough($0) }
    }
}
