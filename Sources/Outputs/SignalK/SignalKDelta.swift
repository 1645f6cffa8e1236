import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// One Signal K delta being written: `{"updates":[{"$source":..,"timestamp":..,"values":[..]}]}`,
/// an update opened for each sensor only when it has a value, so no update and no delta is
/// ever empty. No context: a delta without one is about the receiving server's own vessel.
struct SignalKDelta: ~Copyable {
    private(set) var json = JSONBuffer(capacity: 1536)
    private var source: SignalKSource?
    private var started = false
    /// Values in the delta so far.
    private(set) var count = 0

    mutating func reset() {
        json.reset()
        source = nil
        started = false
        count = 0
    }

    /// Opens `source`'s update (closing the previous one) unless it is the open one.
    private mutating func open(_ wanted: SignalKSource, time: Double) {
        guard source != wanted else { return }
        if source != nil { closeUpdate() }
        if !started {
            json.beginObject()
            json.beginArray("updates")
            started = true
        }
        json.beginObject()
        json.string("$source", wanted.label)
        json.time("timestamp", time)
        json.beginArray("values")
        source = wanted
    }

    private mutating func closeUpdate() {
        json.endArray()
        json.endObject()
    }

    /// `{"path":..,"value":..}` in its source's update, the value written by `body`.
    private mutating func entry(_ path: SignalKPath, time: Double, _ body: (inout JSONBuffer) -> Void) {
        open(path.source, time: time)
        json.beginObject()
        json.string("path", path.name)
        body(&json)
        json.endObject()
        count += 1
    }

    /// A number; one that is not finite is left out.
    mutating func number(_ path: SignalKPath, _ value: Double, decimals: Int, time: Double) {
        guard value.isFinite else { return }
        entry(path, time: time) { $0.number("value", value, decimals: decimals) }
    }

    mutating func integer(_ path: SignalKPath, _ value: Int, time: Double) {
        entry(path, time: time) { $0.integer("value", value) }
    }

    mutating func string(_ path: SignalKPath, _ value: String, time: Double) {
        entry(path, time: time) { $0.string("value", value) }
    }

    /// `{"path":..,"value":{..}}` with the members `body` writes (all finite by the caller).
    mutating func object(_ path: SignalKPath, time: Double, _ body: (inout JSONBuffer) -> Void) {
        entry(path, time: time) { json in
            json.beginObject("value")
            body(&json)
            json.endObject()
        }
    }

    /// Closes what is open; false when the delta has no value (nothing to send).
    mutating func finish() -> Bool {
        guard started else { return false }
        closeUpdate()
        json.endArray()
        json.endObject()
        return count > 0
    }

    /// The meta delta: units and descriptions of the `lodestone.` paths, which the
    /// specification does not define (a server shows them with their units from it).
    mutating func meta(time: Double) {
        reset()
        json.beginObject()
        json.beginArray("updates")
        json.beginObject()
        json.string("$source", SignalKSource.imu.label)
        json.time("timestamp", time)
        json.beginArray("meta")
        for path in SignalKPath.allCases {
            guard let meaning = path.meaning else { continue }
            json.beginObject()
            json.string("path", path.name)
            json.beginObject("value")
            json.string("description", meaning)
            if let units = path.units { json.string("units", units) }
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        count = 1
    }
}
