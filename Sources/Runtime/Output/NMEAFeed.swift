import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// What the NMEA 0183 output sends, from the device's state: heading, rate of turn and
/// attitude ten times a second, pressure and temperature once a second, and the receiver's
/// RMC and GGA sentences as they came (a chart plotter takes its position from those).
struct NMEAFeed {
    private var lastHeading: Double?
    private var lastTime: MonotonicNanoseconds = 0
    /// Rate of turn, degrees per minute, smoothed over about a second (a raw difference of
    /// two headings 0.1 s apart is mostly noise).
    private var rateOfTurn = 0.0

    /// HDM, HDG, HDT (when the declination is known), ROT and XDR pitch and roll.
    /// The heading sentences only while the heading is valid (`trustedMagneticHeading`: the
    /// magnetometer answering, a calibration in use): HDM has no status field, so a heading on
    /// the gyro alone or from an uncalibrated chip is withheld rather than sent as if it were
    /// true; pitch and roll (XDR) need no magnetometer and always go.
    mutating func heading(_ state: NavigationState, now: MonotonicNanoseconds) -> [String] {
        guard let attitude = state.attitude else { return [] }
        guard let heading = state.trustedMagneticHeading else {
            lastHeading = nil
            return [NMEAOutputSentences.xdrAttitude(pitch: attitude.pitch, roll: attitude.roll)]
        }
        if let last = lastHeading, now > lastTime {
            let interval = Double(now &- lastTime) / 1e9
            var change = (heading - last).truncatingRemainder(dividingBy: 360)
            if change > 180 { change -= 360 }
            if change < -180 { change += 360 }
            let weight = min(1, interval / 1.0)
            rateOfTurn += weight * (change / interval * 60 - rateOfTurn)
        }
        lastHeading = heading
        lastTime = now
        var out = [NMEAOutputSentences.hdm(heading), NMEAOutputSentences.hdg(heading, variation: state.declination)]
        if let trueHeading = state.trueHeading { out.append(NMEAOutputSentences.hdt(trueHeading)) }
        out.append(NMEAOutputSentences.rot(degreesPerMinute: rateOfTurn))
        out.append(NMEAOutputSentences.xdrAttitude(pitch: attitude.pitch, roll: attitude.roll))
        return out
    }

    /// XDR pressure and temperature and MDA, from the barometer's station pressure (the
    /// sea-level pressure when the device has levelled it).
    func weather(_ state: NavigationState, seaLevel: Double?) -> [String] {
        guard let pressure = state.pressure else { return [] }
        let pascal = seaLevel.map { $0 * 100 } ?? pressure.pressure
        return [NMEAOutputSentences.xdrBarometer(pascal: pascal, celsius: pressure.temperature),
                NMEAOutputSentences.mda(pascal: pascal, celsius: pressure.temperature, humidity: pressure.humidity)]
    }

    /// Whether a received sentence is passed through: RMC and GGA from any talker.
    static func passesThrough(_ sentence: UnsafeBufferPointer<UInt8>) -> Bool {
        let type = sentence.dropFirst(3).prefix(3)
        return type.elementsEqual("RMC".utf8) || type.elementsEqual("GGA".utf8)
    }

    static func passesThrough(_ sentence: String) -> Bool {
        var sentence = sentence
        return sentence.withUTF8 { passesThrough($0) }
    }
}
