import LodestoneCore
import LodestoneOutputs

/// Starts and stops logging sessions (socket, CLI, the `log` button) on the output thread and
/// feeds the running one. Its disk writes happen here, never in the sampling loop.
final class LogService {
    let store: LogStore
    /// The most all sessions together may take, bytes.
    let limitBytes: Int
    private(set) var session: LogSession?

    init(store: LogStore, limitBytes: Int = 500 << 20) {
        self.store = store
        self.limitBytes = limitBytes
    }

    /// `?LOG={"action":"start","interval":10,"streams":["pressure"],"duration":3600}`, `"stop"`;
    /// no action reports. `interval` is seconds (1..3600) or "every".
    func handle(_ argument: JSONValue?, time: Double) -> String {
        switch argument?["action"]?.stringValue {
        case "start"?:
            if let session { return report("already logging \(session.id)") }
            var interval = 10.0
            if let value = argument?["interval"] {
                if value.stringValue == "every" {
                    interval = 0
                } else if let seconds = value.numberValue, (1...3600).contains(seconds) {
                    interval = seconds
                } else {
                    return GPSDReports.error("?LOG interval must be 1 to 3600 seconds or \"every\"")
                }
            }
            let names = argument?["streams"]?.arrayValue?.compactMap(\.stringValue) ?? ["pressure", "seaLevelPressure", "altitude", "temperature"]
            if let unknown = names.first(where: { !LogStore.streams.contains($0) }) {
                return GPSDReports.error("?LOG stream '\(unknown)' is not one of " + LogStore.streams.joined(separator: ", "))
            }
            guard !names.isEmpty else { return GPSDReports.error("?LOG streams must name at least one stream") }
            var duration: Double?
            if let value = argument?["duration"] {
                guard let seconds = value.numberValue, seconds > 0, seconds <= 366 * 86_400 else {
                    return GPSDReports.error("?LOG duration must be seconds, more than 0")
                }
                duration = seconds
            }
            do {
                session = try LogSession(id: freshID(started: time), logsDirectory: store.directory, fields: names,
                                         interval: interval, started: time, duration: duration, limitBytes: limitBytes)
            } catch {
                return GPSDReports.error(error.description)
            }
            return report("logging")
        case "stop"?:
            guard let session else { return report("not logging") }
            return stop(session, time: time, reason: "stopped")
        case nil:
            return report(nil)
        case let other?:
            return GPSDReports.error("?LOG action must be start or stop, not '\(other)'")
        }
    }

    /// The log button: start with the defaults, or stop.
    func toggle(time: Double) -> String {
        session == nil ? handle(.object([("action", .string("start"))]), time: time) : handle(.object([("action", .string("stop"))]), time: time)
    }

    /// Writes a record when one is due; returns a LOG report when the session stopped itself.
    func tick(_ values: () -> [String: Double], time: Double, sample: Bool) -> String? {
        guard let session, session.interval > 0 || sample, session.isDue(time) else { return nil }
        guard let reason = session.write(values(), time: time) else { return nil }
        return stop(session, time: time, reason: "stopped: " + reason)
    }

    private func stop(_ running: LogSession, time: Double, reason: String) -> String {
        running.close(now: time)
        let line = report("\(reason); \(running.records) records in \(running.id)")
        session = nil
        Log.info("log \(running.id) \(reason)")
        return line
    }

    /// LOG (Lodestone): whether logging, the session, its records, bytes and the estimated use.
    func report(_ message: String?) -> String {
        var w = JSONObjectWriter(class: "LOG")
        w.bool("logging", session != nil)
        if let session {
            w.string("id", session.id)
            w.raw("streams", "[" + session.fields.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
            if session.interval > 0 { w.number("interval", session.interval, decimals: 3) } else { w.string("interval", "every") }
            w.integer("records", session.records)
            w.integer("bytes", session.bytes)
            w.number("estimatedBytesPerHour", session.estimatedBytesPerHour, decimals: 0)
            if let stopAt = session.stopAt { w.number("secondsLeft", max(0, stopAt - session.started - Double(session.records) * session.interval), decimals: 0) }
        }
        if let message { w.string("message", message) }
        return w.finished
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
