import Glibc
import LodestoneCore
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
    /// Given the fanout once the outputs are wired (the replay's report tap goes on it).
    var started: (OutputFanout) -> Void = { _ in }
}

extension OutputLoop {
    /// Runs the recording to its end, a divergence, or a stop; returns why it stopped.
    func run(lockstep: Lockstep) -> String {
        display.begin()
        defer { display.end() }
        let wallClock = SystemMonotonicClock()
        var paced: (wall: MonotonicNanoseconds, device: MonotonicNanoseconds)?
        while !stop.isRequested {
            if lockstep.finished() { return finish("the end of the recording") }
            lockstep.samplingSide()
            scheduler.run(ticks: 1)
            lockstep.outputSide()
            if let divergence = lockstep.divergence() { return finish("the replay diverged: " + divergence) }
            tasks?.runDue()
            if let signal = serveClients(waitMilliseconds: 0) {
                stop.request()
                return signal
            }
            guard let speed = lockstep.speed else { continue }
            let device = context.clock.now()
            guard let start = paced else {
                paced = (wallClock.now(), device)
                continue
            }
            let due = start.wall &+ UInt64(Double(device &- start.device) / speed)
            if due > wallClock.now() { wallClock.sleep(until: due) }
        }
        return "stop request"
    }

    /// The last reports handed to the clients that are still there, briefly.
    private func finish(_ reason: String) -> String {
        for _ in 0..<10 {
            context.fanout.flushStreams()
            _ = serveClients(waitMilliseconds: 20)
        }
        return reason
    }
}
