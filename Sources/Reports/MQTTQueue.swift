/// A message at QoS 1 waiting for the broker's acknowledgement.
package struct MQTTQueuedMessage: Equatable, Sendable {
    package var sequence: UInt64
    package var topic: String
    package var payload: [UInt8]
    package var retain: Bool
    /// Sent on some connection already: a resend carries the DUP flag.
    package var sent = false

    package init(sequence: UInt64, topic: String, payload: [UInt8], retain: Bool, sent: Bool = false) {
        self.sequence = sequence
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.sent = sent
    }
}

/// Where the session keeps what waits for the broker: oldest first, each message leaving only
/// when acknowledged. The device's queue is on disk (`MQTTOutbox` in Storage), so neither a
/// broker away for an hour nor a power cut loses a message; the session sees only this.
package protocol MQTTQueue: AnyObject {
    var count: Int { get }
    /// Messages dropped as the oldest (the queue was full) and acknowledged, since the start.
    var dropped: Int { get }
    var delivered: Int { get }
    var isEmpty: Bool { get }
    /// The sequence number the next message will have.
    var upcoming: UInt64 { get }
    /// The waiting message at `offset` from the oldest.
    func message(at offset: Int) -> MQTTQueuedMessage?
    func markSent(at offset: Int)
    /// The sequence number the next message on `topic` follows (0 for none yet).
    func previous(on topic: String) -> UInt64
    func add(topic: String, payload: [UInt8], retain: Bool, now: Double)
    func acknowledge(_ sequence: UInt64, now: Double)
    /// Makes what was added durable.
    func flush(now: Double)
    /// Tries a disk that refused writes again.
    func retryDisk(now: Double)
}
