import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneSim

/// Judges what a trip published against the simulated world's truth. The truth is replayed
/// from the scenario (the world is deterministic), so every report is compared with the world
/// at the instant the report says it describes.
struct TripJudge {
    let trip: RefereeTrip
    let reports: [PublishedReport]
    /// World seconds per real second the trip ran at.
    let speed: Double
    /// The track the client recorded, read back from the device's store.
    let track: RecordedTrack?
    let scenario: Scenario
    let faults: FaultPlan
    /// The world's declination, degrees east (the field the scenario uses).
    let declination: Double

    init(trip: RefereeTrip, reports: [PublishedReport], speed: Double, track: RecordedTrack? = nil) {
        self.trip = trip
        self.reports = reports
        self.speed = speed
        self.track = track
        scenario = trip.world
        faults = FaultPlan(trip.faults)
        declination = Angle.degrees(atan2(scenario.earthField.east, scenario.earthField.north))
    }

    /// World seconds a report says it describes.
    func time(_ report: PublishedReport) -> Double? {
        guard let text = report.json["time"]?.stringValue, let utc = CivilTime.parseISO8601(text) else { return nil }
        return utc - scenario.startUTC
    }

    // MARK: The truth

    /// The world at each of the given times (any order); replayed once, in time order.
    func truth(at times: [Double]) -> [Double: WorldState] {
        let world = SimulatedWorld(scenario: scenario, clock: ManualClock(), faults: faults)
        var states: [Double: WorldState] = [:]
        for t in Set(times).sorted() where t >= 0 { states[t] = world.state(at: t) }
        return states
    }

    struct Attitude {
        var t: Double
        var heading: Double?
        var magneticHeading: Double?
        var roll: Double
        var pitch: Double
        var accuracy: Double
        var interference: Bool
        var calibration: String?
    }

    var attitudes: [Attitude] {
        reports.compactMap { report in
            guard report.reportClass == "ATT", let t = time(report),
                let roll = report.json["roll"]?.numberValue, let pitch = report.json["pitch"]?.numberValue
            else { return nil }
            return Attitude(
                t: t, heading: report.json["heading"]?.numberValue, magneticHeading: report.json["mheading"]?.numberValue,
                roll: roll, pitch: pitch, accuracy: report.json["headingAccuracy"]?.numberValue ?? .nan,
                interference: report.json["interference"]?.boolValue ?? false,
                calibration: report.json["calibration"]?.stringValue)
        }
    }

    /// What was published beside the truth, one CSV row per ATT report, for a person chasing
    /// a failed check (`lodestone verify --trace FILE`).
    func trace() -> String {
        let attitudes = self.attitudes
        let states = truth(at: attitudes.map(\.t))
        var text = "t,activity,roll,trueRoll,pitch,truePitch,mheading,trueMagneticHeading,headingAccuracy,interference,calibration\n"
        func cell(_ v: Double?) -> String { v.map { $0.isFinite ? DecimalText.format($0, 2) : "" } ?? "" }
        for a in attitudes {
            guard let s = states[a.t] else { continue }
            let fields = [
                cell(a.t), scenario.activity(at: a.t).rawValue, cell(a.roll), cell(s.roll), cell(a.pitch), cell(s.pitch),
                cell(a.magneticHeading), cell(Angle.heading(s.yaw - declination)), cell(a.accuracy),
                a.interference ? "1" : "0", a.calibration ?? ""
            ]
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    // MARK: Checks

    func checks() -> [RefereeCheck] {
        var rows: [RefereeCheck] = []
        let attitudes = self.attitudes
        let states = truth(at: attitudes.map(\.t) + reports.compactMap { time($0) })
        rows += attitudeChecks(attitudes, states)
        if trip.hasMagnetometer {
            rows += headingChecks(attitudes, states)
        } else {
            let headings = attitudes.filter { $0.heading != nil || $0.magneticHeading != nil }.count
            rows.append(
                RefereeCheck(
                    trip: trip.name, name: "no heading without a magnetometer", measured: Double(headings),
                    atMost: 0, unit: "ATT", "ATT reports carrying heading or mheading"))
        }
        rows += motionChecks(states)
        rows += rateChecks()
        rows += warningChecks(attitudes)
        rows += faultChecks(attitudes, states)
        rows += trendChecks()
        rows += weatherWordChecks()
        rows += trackChecks()
        rows += stationChecks()
        rows += satelliteChecks()
        rows.append(clockCheck())
        return rows
    }

    /// Roll and pitch once the figure-8 has settled, and how fast they settle after it: the
    /// first instant from which they stay within 2 deg of the truth for `settledHold` seconds.
    func attitudeChecks(_ attitudes: [Attitude], _ states: [Double: WorldState]) -> [RefereeCheck] {
        var errors: [Double] = []
        var settled: Double?
        var candidate: Double?
        for a in attitudes where a.t >= trip.calibrationEnd {
            guard let s = states[a.t] else { continue }
            let error = max(abs(Angle.signed(a.roll - s.roll)), abs(Angle.signed(a.pitch - s.pitch)))
            if a.t >= trip.calibrationEnd + 10 { errors.append(error) }
            guard settled == nil else { continue }
            if error > 2 {
                candidate = nil
            } else if let since = candidate {
                if a.t - since >= Self.settledHold { settled = since }
            } else {
                candidate = a.t
            }
        }
        guard !errors.isEmpty else { return [.missing(trip: trip.name, name: "roll and pitch error p95", "no ATT after \(trip.manoeuvre)")] }
        let settleRow =
            settled.map {
                RefereeCheck(
                    trip: trip.name, name: "attitude settled after \(trip.manoeuvre)", measured: $0 - trip.calibrationEnd, atMost: 3,
                    unit: "s", "until roll and pitch stay within 2 deg of the truth for \(Int(Self.settledHold)) s")
            } ?? .missing(trip: trip.name, name: "attitude settled after \(trip.manoeuvre)", "roll and pitch never stayed within 2 deg")
        return [
            RefereeCheck(
                trip: trip.name, name: "roll and pitch error p95", measured: quantile(errors, 0.95), atMost: 1.0, unit: "deg",
                "\(errors.count) ATT reports from 10 s after \(trip.manoeuvre)"),
            settleRow
        ]
    }

    /// How long roll and pitch must stay within 2 deg to count as settled, seconds.
    static let settledHold = 3.0

    /// Headings true and magnetic after the calibration, and whether their accuracy is honest.
    func headingChecks(_ attitudes: [Attitude], _ states: [Double: WorldState]) -> [RefereeCheck] {
        let calibrated = attitudes.first { $0.calibration == "calibrated" || $0.calibration == "good" }?.t
        guard let calibrated else {
            let last = attitudes.last?.calibration ?? "none"
            return [
                RefereeCheck(
                    trip: trip.name, name: "calibrated by \(trip.manoeuvre)", measured: .nan, comparison: "", limit: .nan,
                    unit: "", passed: false, detail: "the calibration never completed (last status \(last))")
            ]
        }
        var trueErrors: [Double] = [], magneticErrors: [Double] = [], excess: [Double] = []
        var honest = 0, judged = 0
        let from = max(calibrated, trip.calibrationEnd + 5)
        for a in attitudes where a.t >= from && !faults.isActive(.magnet, at: a.t) && !faultTail(a.t) {
            guard let s = states[a.t], let magnetic = a.magneticHeading else { continue }
            let magneticError = abs(Angle.signed(magnetic - (s.yaw - declination)))
            magneticErrors.append(magneticError)
            if let heading = a.heading { trueErrors.append(abs(Angle.signed(heading - s.yaw))) }
            judged += 1
            if magneticError <= 2 * a.accuracy { honest += 1 }
            excess.append(magneticError - a.accuracy)
        }
        guard judged > 0 else { return [.missing(trip: trip.name, name: "heading error p95", "no heading after the calibration")] }
        var rows = [
            RefereeCheck(
                trip: trip.name, name: "calibrated by \(trip.manoeuvre)", measured: calibrated, atMost: trip.calibrationEnd + 30,
                unit: "s", "world time the background calibration completed"),
            RefereeCheck(
                trip: trip.name, name: "magnetic heading error p95", measured: quantile(magneticErrors, 0.95), atMost: trip.headingLimit,
                unit: "deg", "\(magneticErrors.count) ATT reports after the calibration"),
            RefereeCheck(
                trip: trip.name, name: "headingAccuracy covers the error", measured: Double(honest) / Double(judged),
                atLeast: 0.95, unit: "share", "true error within 2x the published one-sigma"),
            RefereeCheck(
                trip: trip.name, name: "headingAccuracy understatement p95", measured: quantile(excess, 0.95), atMost: 1.0,
                unit: "deg", "true error minus the published one-sigma")
        ]
        if trueErrors.isEmpty {
            rows.append(.missing(trip: trip.name, name: "true heading error p95", "no true heading (declination unknown)"))
        } else {
            rows.append(
                RefereeCheck(
                    trip: trip.name, name: "true heading error p95", measured: quantile(trueErrors, 0.95), atMost: trip.headingLimit,
                    unit: "deg", "\(trueErrors.count) ATT reports after the calibration"))
        }
        return rows
    }

    /// A few seconds after a fault ends belong to the fault (recovery is judged on its own).
    func faultTail(_ t: Double) -> Bool {
        trip.faults.contains { t >= $0.start && t < $0.end + 5 }
    }

    /// MOTION's state against what the person or vehicle is doing.
    func motionChecks(_ states: [Double: WorldState]) -> [RefereeCheck] {
        var right = 0, total = 0
        for report in reports where report.reportClass == "MOTION" {
            guard let t = time(report), let state = report.json["state"]?.stringValue else { continue }
            total += 1
            if state == scenario.activity(at: t).rawValue { right += 1 }
        }
        guard total > 0 else { return [.missing(trip: trip.name, name: "motion state correct", "no MOTION reports")] }
        return [
            RefereeCheck(
                trip: trip.name, name: "motion state correct", measured: Double(right) / Double(total), atLeast: 0.95,
                unit: "share", "\(total) MOTION reports against the scenario's activity")
        ]
    }

    /// The sampling rates in HEALTH against the policy table's rates for the true state (a
    /// calibration in progress, and a device never calibrated while it is turned through its
    /// figure-8, sample as when walking). Ten seconds after a change of state belong to the
    /// classifier's dwell and the sampler's settling.
    func rateChecks() -> [RefereeCheck] {
        var right = 0, total = 0
        var calibrating = false
        var attIndex = 0
        let atts = reports.filter { $0.reportClass == "ATT" }
        for report in reports where report.reportClass == "HEALTH" {
            let t = report.arrived
            while attIndex < atts.count, atts[attIndex].arrived <= t {
                let status = atts[attIndex].json["calibration"]?.stringValue
                calibrating = status == "inProgress" || (status == "uncalibrated" && t < trip.calibrationEnd + 10)
                attIndex += 1
            }
            let activity = scenario.activity(at: t)
            if scenario.activity(at: max(0, t - 10)) != activity || calibrating { continue }
            guard let motion = MotionState(rawValue: activity.rawValue),
                let rates = SamplingTable.defaults.rates[motion],
                let tasks = report.json["tasks"]?.arrayValue
            else { continue }
            var rate: [String: Double] = [:]
            for task in tasks { if let name = task["name"]?.stringValue { rate[name] = task["rateHz"]?.numberValue } }
            total += 1
            let agrees =
                rate["imu"].map { abs($0 - rates.imu) < 0.5 } ?? false
                && rate["baro"].map { abs($0 - rates.barometer) < 0.5 } ?? false
                && (!trip.hasMagnetometer || rate["mag"].map { abs($0 - rates.magnetometer) < 0.5 } ?? false)
            if agrees { right += 1 }
        }
        guard total > 0 else { return [.missing(trip: trip.name, name: "sampling rates follow the state", "no HEALTH reports")] }
        return [
            RefereeCheck(
                trip: trip.name, name: "sampling rates follow the state", measured: Double(right) / Double(total),
                atLeast: 0.95, unit: "share", "\(total) HEALTH reports against the policy table")
        ]
    }

    /// No warnings in a trip without faults.
    func warningChecks(_ attitudes: [Attitude]) -> [RefereeCheck] {
        guard trip.isClean else { return [] }
        let noFixTimes = reports.filter { r in
            r.reportClass == "EVENT" && r.json["warning"]?.stringValue == "noFix" && r.json["active"]?.boolValue == true
        }.compactMap { time($0) }
        let noFix = noFixTimes.count
        let when = noFixTimes.isEmpty ? "" : " (at " + noFixTimes.map { DecimalText.format($0, 1) + " s" }.joined(separator: ", ") + ")"
        let flagged = attitudes.filter { $0.t >= trip.calibrationEnd + 5 && $0.interference }.count
        return [
            RefereeCheck(
                trip: trip.name, name: "false noFix warnings", measured: Double(noFix), atMost: 0, unit: "EVENTs",
                "gps noFix warnings without an outage" + when),
            RefereeCheck(
                trip: trip.name, name: "false interference flags", measured: Double(flagged), atMost: 0, unit: "ATT",
                "ATT reports flagging interference without a magnet")
        ]
    }

    /// The pressure trend against the true change of sea-level pressure over the trend's own
    /// window, once 30 minutes of data exist.
    func trendChecks() -> [RefereeCheck] {
        guard trip.duration >= 1800 + 120 else { return [] }
        var errors: [Double] = []
        for report in reports where report.reportClass == "ENV" {
            guard let t = time(report), t >= 1800 + 60, let trend = report.json["trend"],
                let rate = trend["rate"]?.numberValue, let minutes = trend["minutes"]?.numberValue, minutes >= 30
            else { continue }
            let window = minutes * 60
            let trueRate = (scenario.seaLevelPressure(at: t) - scenario.seaLevelPressure(at: t - window)) / 100 / (window / 3600)
            errors.append(abs(rate - trueRate))
        }
        guard !errors.isEmpty else { return [.missing(trip: trip.name, name: "pressure trend error", "no trend after 30 minutes")] }
        return [
            RefereeCheck(
                trip: trip.name, name: "pressure trend error", measured: errors.max() ?? .nan, atMost: 0.2, unit: "hPa/h",
                "\(errors.count) ENV reports against the true sea-level change over the trend's window")
        ]
    }

    /// Every report's time on one base: the world's time when it arrived. A report stamped
    /// from another clock (the host's, or one not paced with the trip) is off by hours or
    /// drifts by the speed every second; what is left is delivery, which takes real time (a
    /// busy machine can hold a report back a fifth of a second): the limit is 2 s of world
    /// time, or 250 ms of real time where the trip runs faster than 8x.
    func clockCheck() -> RefereeCheck {
        var worst = 0.0, counted = 0, worstClass = ""
        for report in reports {
            guard let t = time(report) else { continue }
            counted += 1
            let difference = abs(report.arrived - t)
            if difference > worst { (worst, worstClass) = (difference, report.reportClass) }
        }
        guard counted > 0 else { return .missing(trip: trip.name, name: "one clock", "no report carried a time") }
        return RefereeCheck(
            trip: trip.name, name: "one clock", measured: worst, atMost: max(2, 0.25 * speed), unit: "s",
            "largest difference between a report's time and the world's when it arrived (\(counted) reports, the worst a \(worstClass))")
    }
}
