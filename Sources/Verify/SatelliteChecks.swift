import LodestoneCore
import LodestoneDomain
import LodestoneSettings

extension TripJudge {
    /// A trip given a satellite's elements: every visible pass whose announcement falls inside
    /// the trip is announced by a satellitePass EVENT naming its rise (within 30 s of the pass
    /// the elements give over the trip's place) at least the configured minutes before it.
    func satelliteChecks() -> [RefereeCheck] {
        guard let text = trip.satelliteTLE else { return [] }
        let name = "satellite pass announced"
        guard let elements = TwoLineElements.all(in: text).sets.first, let satellite = try? SGP4(elements) else {
            return [.missing(trip: trip.name, name: name, "the trip's elements cannot be propagated")]
        }
        let start = scenario.startUTC
        let lead = Configuration().satelliteAlertMinutes * 60
        let due = SatellitePasses.passes(
            satellite, from: start, to: start + trip.duration + lead,
            latitude: scenario.startLatitude, longitude: scenario.startLongitude, minimumAltitude: 10
        )
        .filter { $0.visible && $0.rise - lead >= start + 60 && $0.rise - lead <= start + trip.duration - 30 }
        guard !due.isEmpty else { return [.missing(trip: trip.name, name: name, "the elements give no visible pass to announce during the trip")] }
        let events = reports.filter { $0.reportClass == "EVENT" && $0.json["event"]?.stringValue == "satellitePass" }
        return due.map { pass in
            let rise = CivilTime(unixSeconds: pass.rise).iso8601
            let announced = events.first { event in
                guard let text = event.json["rise"]?.stringValue, let published = CivilTime.parseISO8601(text) else { return false }
                return abs(published - pass.rise) <= 30
            }
            guard let announced, let at = time(announced) else {
                return .missing(trip: trip.name, name: name, "no satellitePass EVENT for the pass rising at \(rise)")
            }
            return RefereeCheck(
                trip: trip.name, name: name, measured: (pass.rise - start - at) / 60, atLeast: lead / 60 - 0.5, unit: "min",
                "before the pass rising at \(rise), \(fixed(pass.maximumAltitude, 0))° high")
        }
    }
}
