import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneSim

/// The referee's checks of the injected faults: each detected within its limit, handled while
/// it lasts, cleared after it ends.
extension TripJudge {
    /// Each injected fault: detected within its limit, handled while it lasts, cleared after.
    func faultChecks(_ attitudes: [Attitude], _ states: [Double: WorldState]) -> [RefereeCheck] {
        var rows: [RefereeCheck] = []
        for fault in trip.faults {
            // A shortened trip (`--duration`) may end before its fault is over: nothing to judge.
            guard fault.end + 5 <= trip.duration else {
                rows.append(
                    .missing(
                        trip: trip.name, name: "\(fault.kind.rawValue) fault judged",
                        "the fault from \(Int(fault.start)) s to \(Int(fault.end)) s and the 5 s after it "
                            + "do not fit in the trip's \(Int(trip.duration)) s"))
                continue
            }
            switch fault.kind {
            case .magnet:
                let flagged = attitudes.first { $0.t >= fault.start && $0.interference }?.t
                rows.append(
                    delay(
                        "magnet flagged", flagged.map { $0 - fault.start }, atMost: 1,
                        "from the magnet's arrival to the first ATT flagging interference", never: "interference was never flagged"))
                let during = attitudes.filter { $0.t >= fault.start && $0.t < fault.end }.compactMap { a -> Double? in
                    guard let s = states[a.t], let m = a.magneticHeading else { return nil }
                    return abs(Angle.signed(m - (s.yaw - declination)))
                }
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "heading on the gyro during the magnet", measured: quantile(during, 0.95),
                        atMost: 3, unit: "deg", "magnetic heading error p95 over the 15 s"))
                let lastFlag = attitudes.last { $0.interference }?.t ?? fault.start
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "magnet cleared", measured: max(0, lastFlag - fault.end), atMost: 3,
                        unit: "s", "from the magnet's removal to the last ATT flagging interference"))
            case .silentMagnetometer, .silentIMU, .silentBarometer:
                let role = fault.kind == .silentMagnetometer ? "magnetometer" : fault.kind == .silentIMU ? "imu" : "barometer"
                let health = reports.filter { $0.reportClass == "HEALTH" }
                rows += healthFollows(role, through: fault, health, named: "silent \(role)", lost: "the chip's silence", back: "the chip's return")
                let others = ["imu", "magnetometer", "barometer", "gps"].filter { $0 != role }
                let hurt = health.filter { $0.arrived >= trip.calibrationEnd + 5 }.filter { h in
                    others.contains { other in
                        let value = h.json["sensors"]?[other]?.stringValue
                        return value != "ok" && value != "absent"
                    }
                }.count
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "other sensors unaffected", measured: Double(hurt), atMost: 0,
                        unit: "HEALTH", "reports with another sensor not ok"))
            case .gpsOutage, .gpsSilence:
                let events = reports.filter { $0.reportClass == "EVENT" && $0.json["warning"]?.stringValue == "noFix" }
                let raised = events.first { ($0.json["active"]?.boolValue ?? false) && (time($0) ?? 0) >= fault.start }.flatMap { time($0) }
                let cleared = events.first { !($0.json["active"]?.boolValue ?? true) && (time($0) ?? 0) >= fault.end }.flatMap { time($0) }
                rows.append(
                    delay(
                        "GPS outage warned", raised.map { $0 - fault.start }, atMost: 5,
                        "from the loss of the sky to the noFix EVENT", never: "no noFix EVENT"))
                rows.append(
                    delay(
                        "GPS outage cleared", cleared.map { $0 - fault.end }, atMost: 5,
                        "from the sky's return to the noFix EVENT clearing", never: "noFix never cleared"))
                let unflagged = reports.filter { r in
                    guard r.reportClass == "TPV", let t = time(r), t >= fault.start + 1, t < fault.end else { return false }
                    return r.json["lat"] != nil && r.json["status"]?.numberValue != 5
                }.count
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "bridged positions flagged", measured: Double(unflagged), atMost: 0,
                        unit: "TPV", "positions during the outage not marked as predicted (status 5)"))
            case .busErrors:
                // Every chip is lost at once, and every one must be seen lost and come back.
                let health = reports.filter { $0.reportClass == "HEALTH" }
                for role in ["imu", "magnetometer", "barometer"] {
                    rows += healthFollows(
                        role, through: fault, health, named: "bus errors: \(role)", lost: "the first failed transfer",
                        back: "the bus's return")
                }
            case .diskFull:
                rows += diskFullChecks(fault)
            case .busHang:
                // A stopped loop is the service manager's to see (the watchdog's pings stop);
                // the referee has nothing of its own to judge.
                break
            case .gpsGarbage:
                // Noise on the line is not a position: none is published from it, and the first
                // good sentences after it give positions again.
                let resumed = reports.first { r in
                    r.reportClass == "TPV" && r.json["lat"] != nil && r.json["status"]?.numberValue != 5 && (time(r) ?? 0) >= fault.end
                }.flatMap { time($0) }
                rows.append(
                    delay(
                        "positions after line noise", resumed.map { $0 - fault.end }, atMost: 3,
                        "from the line's return to the first measured TPV", never: "no position after the noise"))
                let during = reports.compactMap { r -> (t: Double, lat: Double, lon: Double)? in
                    guard r.reportClass == "TPV", let t = time(r), t >= fault.start, t < fault.end,
                        let lat = r.json["lat"]?.numberValue, let lon = r.json["lon"]?.numberValue
                    else { return nil }
                    return (t, lat, lon)
                }
                let truths = truth(at: during.map(\.t))
                let wild = during.filter { p in
                    guard let s = truths[p.t] else { return true }
                    return Geodesy.distance(latitude1: p.lat, longitude1: p.lon, latitude2: s.latitude, longitude2: s.longitude) > 50
                }.count
                rows.append(
                    RefereeCheck(
                        trip: trip.name, name: "no position from line noise", measured: Double(wild), atMost: 0,
                        unit: "TPV", "positions during the noise more than 50 m from the truth"))
            }
        }
        return rows
    }

    /// A full disk under a recording track: said at once (EVENT, HEALTH), said to be over
    /// when space returns, and not a point of the track lost to it.
    func diskFullChecks(_ fault: SimulatedFault) -> [RefereeCheck] {
        let events = reports.filter { $0.reportClass == "EVENT" && $0.json["event"]?.stringValue == "storage" }
        let raised = events.first { ($0.json["active"]?.boolValue ?? false) && (time($0) ?? 0) >= fault.start }.flatMap { time($0) }
        let cleared = events.first { !($0.json["active"]?.boolValue ?? true) && (time($0) ?? 0) >= fault.end }.flatMap { time($0) }
        let health = reports.filter { $0.reportClass == "HEALTH" }
        let said = health.first { $0.arrived >= fault.start && ($0.json["storage"]?.stringValue ?? "ok") != "ok" }?.arrived
        var rows = [
            delay(
                "full disk warned", raised.map { $0 - fault.start }, atMost: 2,
                "from the disk filling to the storage EVENT", never: "no storage EVENT"),
            delay(
                "full disk in HEALTH", said.map { $0 - fault.start }, atMost: 2,
                "from the disk filling to HEALTH's storage saying so", never: "HEALTH's storage never said so"),
            delay(
                "full disk cleared", cleared.map { $0 - fault.end }, atMost: 3,
                "from the space's return to the storage EVENT clearing", never: "the storage warning never cleared")
        ]
        // The points the disk refused were kept in memory and written when it took them again:
        // across the fault the track keeps the cadence it had before (a lost stretch would be
        // a gap of the fault's length).
        let times = (track?.points ?? []).map { $0.time - scenario.startUTC }
        func longestGap(_ from: Double, _ to: Double) -> Double? {
            let inside = times.filter { $0 >= from && $0 <= to }
            return zip(inside, inside.dropFirst()).map { $1 - $0 }.max()
        }
        let before = longestGap(trip.tripStart + 10, fault.start - 5) ?? 1
        if let across = longestGap(fault.start - 5, fault.end + 5) {
            rows.append(
                RefereeCheck(
                    trip: trip.name, name: "track kept through the full disk", measured: across,
                    atMost: max(before, 1) + 1, unit: "s",
                    "longest gap between the track's points from 5 s before the disk filled to 5 s after it "
                        + "emptied, against \(DecimalText.format(before, 1)) s before it"))
        } else {
            rows.append(.missing(trip: trip.name, name: "track kept through the full disk", "no track points around the fault"))
        }
        return rows
    }

    /// A sensor lost for a fault's stretch: HEALTH says so within 0.5 s and says ok again
    /// within 2 s of its end.
    func healthFollows(
        _ role: String, through fault: SimulatedFault, _ health: [PublishedReport], named name: String,
        lost: String, back: String
    ) -> [RefereeCheck] {
        // The device's own stamp of the change when HEALTH gives it: the client asks four times a
        // world second, and at 120x a reply's few milliseconds on the way are a quarter second
        // of the trip, which is the machine's, not the device's.
        // A stamp from before the fault's moment is an older change: the arrival then stands.
        func seen(_ report: PublishedReport, after moment: Double) -> Double {
            guard let text = report.json["sensorsChanged"]?[role]?.stringValue, let utc = CivilTime.parseISO8601(text),
                utc - scenario.startUTC >= moment
            else { return report.arrived }
            return utc - scenario.startUTC
        }
        let degraded = health.first { $0.arrived >= fault.start && $0.json["sensors"]?[role]?.stringValue != "ok" }
            .map { seen($0, after: fault.start) }
        let recovered = health.first { $0.arrived >= fault.end && $0.json["sensors"]?[role]?.stringValue == "ok" }
            .map { seen($0, after: fault.end) }
        return [
            delay(
                "\(name) marked degraded", degraded.map { $0 - fault.start }, atMost: 0.5,
                "from \(lost) to HEALTH saying so", never: "HEALTH never said so"),
            delay(
                "\(name) recovered", recovered.map { $0 - fault.end }, atMost: 2,
                "from \(back) to HEALTH saying ok", never: "HEALTH never said ok again")
        ]
    }

    /// How long something took to be seen, or a failing row when it never was.
    func delay(_ name: String, _ seconds: Double?, atMost limit: Double, _ detail: String, never: String) -> RefereeCheck {
        seconds.map { RefereeCheck(trip: trip.name, name: name, measured: $0, atMost: limit, unit: "s", detail) }
            ?? .missing(trip: trip.name, name: name, never)
    }
}
