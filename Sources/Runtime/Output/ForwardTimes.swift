import LodestoneReports

/// Each sampled kind's newest time per device: a report no later than the last of its kind
/// from its device is a sample already published (a task that ran before a new one came) or
/// one stamped backwards by a correction of the clock, and a client that differentiates
/// would get a zero or negative step. A few entries, searched in place: nothing allocates.
struct ForwardTimes {
    private var last: [(kind: ReportKind, device: String, time: Double)] = []

    /// Whether `report` may go out; notes its time when it does.
    mutating func admits(_ report: Report) -> Bool {
        guard let (kind, device, time) = report.sample else { return true }
        return admits(kind, device: device, time: time)
    }

    /// `admits` for a report whose kind, device and time the caller knows (IMU, a hundred a
    /// second: asking the report is a switch that copies it).
    mutating func admits(_ kind: ReportKind, device: String, time: Double) -> Bool {
        if let index = last.firstIndex(where: { $0.kind == kind && $0.device == device }) {
            guard time > last[index].time else { return false }
            last[index].time = time
        } else {
            last.append((kind, device, time))
        }
        return true
    }
}
