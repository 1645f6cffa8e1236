import LodestoneCore
import LodestoneReports
import LodestoneStorage

/// Starts and stops logging sessions (socket, CLI, the `log` button) on the output thread and
/// feeds the running one. Its disk writes happen here, never in the sampling loop.
package final class LogService {
    let store: LogStore
    /// The most all sessions together may take, bytes.
    let limitBytes: Int
    private(set) var session: LogSession?

    init(store: LogStore, limitBytes: Int = 500 << 20) {
        self.store = store
        self.limitBytes = limitBytes
    }

    /// `?LOG`: starts or stops a session, or reports.
    package func handle(_ request: LogRequest, time: Double) -> Report {
        switch request {
        case .start(let interval, let names, let duration):
            if let session { return .log(report("already logging \(session.id)")) }
            do {
                session = try LogSession(
                    id: freshID(started: time), logsDirectory: store.directory, fields: names,
                    interval: interval, started: time, duration: duration, limitBytes: limitBytes)
            } catch {
                return .error(error.description)
            }
            return .log(report("logging"))
        case .stop:
            guard let session else { return .log(report("not logging")) }
            return stop(session, time: time, reason: "stopped")
        case .report:
            return .log(report(nil))
        }
    }

    /// The log button: start with the defaults, or stop.
    package func toggle(time: Double) -> Report {
        handle(session == nil ? .start(interval: 10, streams: LogRequest.defaultStreams, duration: nil) : .stop, time: time)
    }

    /// Writes a record when one is due; returns a LOG report when the session stopped itself.
    func tick(_ values: () -> [String: Double], time: Double, sample: Bool) -> Report? {
        guard let session, session.interval > 0 || sample, session.isDue(time) else { return nil }
        guard let reason = session.write(values(), time: time) else { return nil }
        return stop(session, time: time, reason: "stopped: " + reason)
    }

    private func stop(_ running: LogSession, time: Double, reason: String) -> Report {
        running.close(now: time)
        let figures = report("\(reason); \(running.records) records in \(running.id)")
        session = nil
        Log.info("log \(running.id) \(reason)")
        return .log(figures)
    }

    /// LOG: whether logging, the session, its records, bytes and the estimated use.
    func report(_ message: String?) -> LogReport {
        LogReport(
            session: session.map { s in
                LogReport.Session(
                    id: s.id, streams: s.fields, interval: s.interval, records: s.records, bytes: s.bytes,
                    estimatedBytesPerHour: s.estimatedBytesPerHour,
                    secondsLeft: s.stopAt.map { max(0, $0 - s.started - Double(s.records) * s.interval) })
            }, message: message)
    }

    /// A session id no earlier session has: the start's stamp, with "-2", "-3" for sessions
    /// started in the same second (they would otherwise append to one another's files).
    private func freshID(started time: Double) -> String {
        let stamp = TrackStore.id(started: time)
        var id = stamp
        var suffix = 1
        while fileExists(store.directory + "/" + id) && suffix < 1000 {
            suffix += 1
            id = stamp + "-\(suffix)"
        }
        return id
    }
}
