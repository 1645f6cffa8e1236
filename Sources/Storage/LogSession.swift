import Glibc
import LodestoneCore
import LodestoneEncoding

/// A logging session: chosen streams written every `interval` seconds (or every barometer
/// sample) to `<dataDir>/logs/<id>/NNNN.rec`, framed, checksummed record logs synced each
/// second. A segment is closed at 4 MB and the next one begun; each starts with a header
/// record naming the fields. The session stops itself after `duration`, or before the disk
/// fills (less than 50 MB free, or the logs over their limit).
package final class LogSession {
    static let segmentBytes = 4 << 20
    static let minimumFreeBytes: UInt64 = 50 << 20

    package let id: String
    let directory: String
    package let fields: [String]
    /// Seconds between records; 0 means every barometer sample.
    package let interval: Double
    package let started: Double
    package let stopAt: Double?
    let limitBytes: Int
    package private(set) var records = 0
    package private(set) var bytes = 0
    private var segment = 0
    private var log: RecordLog?
    private var nextRecord = -Double.infinity

    package init(
        id: String, logsDirectory: String, fields: [String], interval: Double, started: Double, duration: Double?,
        limitBytes: Int
    ) throws(StorageError) {
        self.id = id
        directory = logsDirectory + "/" + id
        self.fields = fields
        self.interval = interval
        self.started = started
        stopAt = duration.map { started + $0 }
        self.limitBytes = limitBytes
        guard makeDirectories(directory) else { throw StorageError("cannot create \(directory)") }
        try openSegment(now: started)
    }

    private func openSegment(now: Double) throws(StorageError) {
        log?.flush(now: now)
        segment += 1
        let path = directory + "/" + zeroPadded(segment, 4) + ".rec"
        let next = try RecordLog(path: path, now: now)
        var header = JSONObjectWriter()
        header.raw("fields", "[" + fields.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
        header.number("interval", interval, decimals: 3)
        header.number("started", started, decimals: 3)
        try next.append(Array(header.finished.utf8), now: now)
        log = next
    }

    /// The clock was corrected: the next record is due at once.
    package func restartSchedule() { nextRecord = -Double.infinity }

    /// Whether a record is due at `time` (always, for every-sample sessions).
    package func isDue(_ time: Double) -> Bool { interval == 0 || time >= nextRecord }

    /// Writes one record of `values` (by field name; missing ones empty). Returns why the
    /// session must stop, or nil.
    package func write(_ values: [String: Double], time: Double) -> String? {
        if let stopAt, time >= stopAt { return "its duration is over" }
        nextRecord = interval > 0 ? (nextRecord.isFinite ? max(nextRecord + interval, time) : time + interval) : time
        let line =
            ([JSONObjectWriter.format(time, decimals: 3)]
            + fields.map { name in
                values[name].map { $0.isFinite ? JSONObjectWriter.format($0, decimals: 6) : "" } ?? ""
            }).joined(separator: ",")
        do {
            if let log, log.size > Self.segmentBytes {
                if let problem = Self.diskProblem(directory: directory, limitBytes: limitBytes, used: bytes) { return problem }
                try openSegment(now: time)
            }
            try log?.append(Array(line.utf8), now: time)
        } catch {
            return error.description
        }
        records += 1
        bytes += line.utf8.count + 10
        return nil
    }

    package func close(now: Double) { log?.flush(now: now) }

    /// Bytes an hour at the current record size and rate.
    package var estimatedBytesPerHour: Double {
        let perRecord = records > 0 ? Double(bytes) / Double(records) : Double(12 + 10 * fields.count)
        let perHour = interval > 0 ? 3600 / interval : 3600 * 25  // every sample: the barometer's 25 Hz
        return perRecord * perHour
    }

    /// Why the disk cannot take another segment, or nil.
    static func diskProblem(directory: String, limitBytes: Int, used: Int) -> String? {
        if let free = FreeSpace.bytes(at: directory), free < minimumFreeBytes { return "the disk is nearly full (\(free >> 20) MB free)" }
        if used + segmentBytes > limitBytes { return "the session reached its limit of \(limitBytes >> 20) MB" }
        return nil
    }
}
