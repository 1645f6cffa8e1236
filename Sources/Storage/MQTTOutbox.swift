import LodestoneCore
import LodestoneReports

/// The MQTT messages at QoS 1 not yet acknowledged by the broker, on disk in
/// `<dataDir>/mqtt-outbox.rec`, so an hour without a broker, or a restart, or a power cut
/// loses none of them (at most the last second before a cut, the log's fsync pace).
///
/// Records: a message (kind 1: sequence number, retain, topic, payload); a sequence number
/// done with (kind 2: acknowledged, or dropped as the oldest when the outbox is full); and,
/// after a compaction, where each topic's chain of sequence numbers had got to (kind 3).
/// Messages keep their order; the outbox holds at most `limit`, dropping the oldest (counted).
/// A write that fails (a full card) leaves the messages in memory, still bounded by `limit`,
/// and the disk is tried again every `diskRetryInterval`: once it takes writes, the file is
/// rewritten with what waits, as a compaction writes it, and records go to it again.
package final class MQTTOutbox: MQTTQueue {
    package typealias Message = MQTTQueuedMessage

    let path: String
    let limit: Int
    private var log: RecordLog?
    /// The waiting messages, oldest first, from `head` on (the front is trimmed in batches).
    private var queue: [Message] = []
    private var head = 0
    private var nextSequence: UInt64 = 1
    /// The last sequence number given to a message on each topic (a chain a receiver can
    /// check for gaps), kept across restarts.
    private var lastByTopic: [String: UInt64] = [:]
    /// Messages dropped as the oldest since the start.
    package private(set) var dropped = 0
    /// Messages acknowledged since the start.
    package private(set) var delivered = 0
    /// The file is rewritten with only what waits once it grows past this.
    static let compactionBytes = 4 << 20
    /// After a failed write, when to try the disk again (nil while the log takes writes, or
    /// when it could not be opened at the start: then what the file holds was never read, and
    /// rewriting it would lose it).
    private var diskRetry: Double?
    /// Seconds between tries of a disk that refused a write.
    static let diskRetryInterval = 5.0

    package init(path: String, limit: Int, now: Double) {
        self.path = path
        self.limit = max(1, limit)
        do {
            let opened = try RecordLog(path: path, now: now)
            log = opened
            if opened.recovery.cutBytes > 0 || opened.recovery.skippedBytes > 0 {
                Log.warning(
                    "\(path): \(opened.recovery.cutBytes + opened.recovery.skippedBytes) damaged bytes left out; \(opened.recovery.records) records kept")
            }
            load(try RecordLog.records(path: path).records)
        } catch {
            Log.warning(error.description + ": MQTT messages wait in memory only and are lost at a restart")
        }
    }

    package var count: Int { queue.count - head }
    package var isEmpty: Bool { count == 0 }

    /// The waiting message at `offset` from the oldest.
    package func message(at offset: Int) -> Message? {
        head + offset < queue.count ? queue[head + offset] : nil
    }

    package func markSent(at offset: Int) {
        if head + offset < queue.count { queue[head + offset].sent = true }
    }

    /// The sequence number the next message on `topic` follows (0 for none yet).
    package func previous(on topic: String) -> UInt64 { lastByTopic[topic] ?? 0 }

    /// The sequence number the next message will have.
    package var upcoming: UInt64 { nextSequence }

    /// Adds a message at the end; the oldest goes when the outbox is full.
    package func add(topic: String, payload: [UInt8], retain: Bool, now: Double) {
        retryDisk(now: now)
        let message = Message(sequence: nextSequence, topic: topic, payload: payload, retain: retain)
        nextSequence += 1
        lastByTopic[topic] = message.sequence
        write(Self.record(message), now: now)
        queue.append(message)
        while count > limit {
            let oldest = queue[head]
            write(Self.done(oldest.sequence), now: now)
            head += 1
            dropped += 1
            if dropped == 1 || dropped % 1000 == 0 {
                Log.warning("MQTT outbox full (\(limit) messages): the oldest are dropped, \(dropped) so far")
            }
        }
        trimFront()
        compactWhenDue(now: now)
    }

    /// The broker acknowledged message `sequence`: it is done, and leaves the outbox once
    /// every older one has.
    package func acknowledge(_ sequence: UInt64, now: Double) {
        guard let index = queue[head...].firstIndex(where: { $0.sequence == sequence }) else { return }
        write(Self.done(sequence), now: now)
        delivered += 1
        if index == head {
            head += 1
        } else {
            queue.remove(at: index)
        }
        trimFront()
        compactWhenDue(now: now)
    }

    /// The file is rewritten once it has grown past the compaction size and is mostly records
    /// of messages done with: at once when nothing waits, else when it is four times what waits.
    private func compactWhenDue(now: Double) {
        guard let log, log.size > Self.compactionBytes else { return }
        if isEmpty || log.size > 4 * waitingBytes() { compact(now: now) }
    }

    private func waitingBytes() -> Int {
        queue[head...].reduce(0) { $0 + $1.payload.count + $1.topic.utf8.count + 24 }
    }

    package func flush(now: Double) {
        retryDisk(now: now)
        log?.flush(now: now)
    }

    private func write(_ record: [UInt8], now: Double) {
        guard let log else { return }
        do { try log.append(record, now: now) } catch {
            Log.warning(error.description + ": MQTT messages wait in memory (at most \(limit)) until the disk takes writes again")
            self.log = nil
            diskRetry = now + Self.diskRetryInterval
        }
    }

    /// Tries the disk again when a write failed and the retry is due: the file is rewritten with
    /// what waits (the records written before the failure, and those that never were, are all
    /// in memory) and reopened for appending.
    package func retryDisk(now: Double) {
        guard let due = diskRetry, now >= due else { return }
        if rewrite(now: now) {
            diskRetry = nil
            Log.info("\(path): the disk takes writes again; \(count) waiting MQTT messages written out")
        } else {
            diskRetry = now + Self.diskRetryInterval
        }
    }

    private func trimFront() {
        if head > 1024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }

    /// Rewrites the file with only the waiting messages and the topics' chains.
    private func compact(now: Double) {
        guard !rewrite(now: now) else { return }
        Log.warning("cannot compact \(path): it keeps growing until the next start")
        log = try? RecordLog(path: path, now: now)
    }

    /// The file replaced by the waiting messages and the topics' chains, then opened for
    /// appending; false (and no log) when the disk refused either.
    private func rewrite(now: Double) -> Bool {
        var bytes: [UInt8] = []
        for (topic, sequence) in lastByTopic.sorted(by: { $0.value < $1.value }) { bytes += RecordLog.framed(Self.chain(topic, sequence)) }
        for message in queue[head...] { bytes += RecordLog.framed(Self.record(message)) }
        log = nil
        guard writeFileAtomically(path, bytes) else { return false }
        log = try? RecordLog(path: path, now: now)
        return log != nil
    }

    private func load(_ records: [[UInt8]]) {
        var waiting: [UInt64: Message] = [:]
        var done = Set<UInt64>()
        for record in records {
            guard let kind = record.first else { continue }
            switch kind {
            case 1:
                guard let message = Self.message(record) else { continue }
                waiting[message.sequence] = message
                lastByTopic[message.topic] = max(lastByTopic[message.topic] ?? 0, message.sequence)
                nextSequence = max(nextSequence, message.sequence + 1)
            case 2:
                guard record.count == 9 else { continue }
                done.insert(Self.word(record, at: 1))
            case 3:
                guard record.count > 9 else { continue }
                let sequence = Self.word(record, at: 1)
                let topic = String(decoding: record[9...], as: UTF8.self)
                lastByTopic[topic] = max(lastByTopic[topic] ?? 0, sequence)
                nextSequence = max(nextSequence, sequence + 1)
            default:
                continue
            }
        }
        queue = waiting.values.filter { !done.contains($0.sequence) }.sorted { $0.sequence < $1.sequence }
        // What was sent before the restart may have reached the broker: resend it marked DUP.
        for index in queue.indices { queue[index].sent = true }
        if queue.count > limit {
            dropped += queue.count - limit
            queue.removeFirst(queue.count - limit)
        }
        if !queue.isEmpty { Log.info("MQTT outbox: \(queue.count) messages waiting from before the start") }
    }

    static func record(_ message: Message) -> [UInt8] {
        var bytes: [UInt8] = [1]
        appendWord(message.sequence, to: &bytes)
        bytes.append(message.retain ? 1 : 0)
        let topic = Array(message.topic.utf8.prefix(65_535))
        bytes += [UInt8(topic.count >> 8), UInt8(topic.count & 0xFF)]
        bytes += topic
        bytes += message.payload
        return bytes
    }

    static func message(_ record: [UInt8]) -> Message? {
        guard record.count >= 12 else { return nil }
        let topicLength = Int(record[10]) << 8 | Int(record[11])
        guard 12 + topicLength <= record.count else { return nil }
        return Message(
            sequence: word(record, at: 1), topic: String(decoding: record[12..<(12 + topicLength)], as: UTF8.self),
            payload: Array(record[(12 + topicLength)...]), retain: record[9] == 1)
    }

    static func done(_ sequence: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [2]
        appendWord(sequence, to: &bytes)
        return bytes
    }

    static func chain(_ topic: String, _ sequence: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [3]
        appendWord(sequence, to: &bytes)
        return bytes + Array(topic.utf8)
    }

    static func appendWord(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        return value
    }
}
