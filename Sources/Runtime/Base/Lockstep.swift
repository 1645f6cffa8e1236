import LodestoneReports

/// How a replay runs the device: the sampling side's tick and the output side's round in turn
/// on one thread, each tick's time taken from the recording. What the output side sees
/// therefore depends on the recording alone, never on the machine or the speed: the same
/// recording publishes the same reports.
struct Lockstep {
    /// Before a sampling tick: the clock answers from the recording.
    var samplingSide: () -> Void
    /// Before an output round: the clock stands at the sampling side's last reading.
    var outputSide: () -> Void
    /// Why the replay cannot go on (the device asked what the recording does not hold).
    var divergence: () -> String?
    var finished: () -> Bool
    /// The device's seconds per real second; nil: as fast as the machine goes.
    var speed: Double?
    /// Sees every report as it leaves, once the outputs are wired (the replay's report file).
    var reportTap: ((Report) -> Void)?
}
