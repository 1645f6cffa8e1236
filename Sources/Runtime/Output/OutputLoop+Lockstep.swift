import LodestoneCore

/// The output loop's side of a replay: the run's own loop waits on clients and a deadline; a
/// replay's turns both sides itself, so its reports follow from the recording alone.
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
