import Glibc
import LodestoneCore
import LodestoneDomain

/// The referee's checks of the wind as a sailor reads it. Aboard (the vane turns with the
/// hull) ENV's true wind now must be the world's wind (within 1 m/s and 10°) and its apparent
/// wind the one the moving hull meets (within 1 m/s), judged while the boat sails after its
/// swing (the true wind needs a calibrated heading). Ashore there is no bow: no ENV may carry
/// an apparent wind.
extension TripJudge {
    static let trueWindSpeedLimit = 1.0, trueWindDirectionLimit = 10.0, apparentWindSpeedLimit = 1.0
    /// The vane reads in 22.5° steps, so one 3 s reading may be up to 11.25° off by its step
    /// alone, more in the true wind where the boat's speed adds to it: the typical report
    /// (the median) is held to 10°, the 95th percentile to the step's reach.
    static let trueWindDirectionOutlierLimit = 15.0

    func windTriangleChecks() -> [RefereeCheck] {
        let wiring = trip.board.station
        guard wiring.anemometer != nil, let vane = wiring.vane else { return [] }
        let envs = reports.filter { $0.reportClass == "ENV" }
        guard vane.aboard else {
            let apparent = envs.filter { $0.json["windSpeedApparent"] != nil || $0.json["windAngleApparent"] != nil }.count
            return [
                RefereeCheck(
                    trip: trip.name, name: "apparent wind ashore", measured: Double(apparent), atMost: 0, unit: "reports",
                    "ENVs carrying an apparent wind from a vane on a fixed mast, of \(envs.count)")
            ]
        }
        var speedErrors: [Double] = [], directionErrors: [Double] = [], apparentErrors: [Double] = []
        for report in envs {
            guard let t = time(report), t > trip.calibrationEnd + 30, scenario.motion(at: t).speed > 1 else { continue }
            // ENV's wind now is the newest 3 s mean.
            if let speed = report.json["windSpeedTrue"]?.numberValue, let direction = report.json["windDirectionTrue"]?.numberValue {
                let truth = windTruth(from: t - 3, to: t)
                speedErrors.append(abs(speed - truth.mean))
                if let from = truth.direction { directionErrors.append(abs(Angle.signed(direction - from))) }
            }
            if let apparent = report.json["windSpeedApparent"]?.numberValue {
                apparentErrors.append(abs(apparent - windTruth(from: t - 3, to: t, overTheDeck: true).mean))
            }
        }
        func row(_ name: String, _ errors: [Double], at share: Double, limit: Double, unit: String, _ what: String) -> RefereeCheck {
            guard !errors.isEmpty else { return .missing(trip: trip.name, name: name, "no ENV under way carried \(what)") }
            return RefereeCheck(
                trip: trip.name, name: name, measured: quantile(errors, share), atMost: limit, unit: unit,
                "\(share == 0.5 ? "median" : "95th percentile") of ENV's \(what) against the world's over its 3 s, \(errors.count) reports under way")
        }
        return [
            row("true wind speed error p95", speedErrors, at: 0.95, limit: Self.trueWindSpeedLimit, unit: "m/s", "windSpeedTrue"),
            row("true wind direction error median", directionErrors, at: 0.5, limit: Self.trueWindDirectionLimit, unit: "°", "windDirectionTrue"),
            row("true wind direction error p95", directionErrors, at: 0.95, limit: Self.trueWindDirectionOutlierLimit, unit: "°", "windDirectionTrue"),
            row("apparent wind speed error p95", apparentErrors, at: 0.95, limit: Self.apparentWindSpeedLimit, unit: "m/s", "windSpeedApparent (the hull's)")
        ]
    }
}
