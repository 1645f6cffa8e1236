import Glibc
import LodestoneCore
import LodestoneReports

/// An MQTT 3.1.1 session with one broker, driven from the output thread without ever blocking
/// it for long: a non-blocking socket, a connect that completes in the background, reconnects
/// with exponential back-off and jitter (so a fleet does not reconnect in step), a keep-alive
/// ping, and QoS 1 messages from the on-disk outbox with up to `window` in flight. A message
/// leaves the outbox only when the broker has acknowledged it; after a reconnect the
/// unacknowledged ones are sent again, in order, marked DUP: delivery is at least once.
/// (A host name is looked up when a connection is tried; a numeric address never waits.)
package final class MQTTClient {
    struct Settings: Equatable, Sendable {
        var broker: String
        var clientID: String
        var username: String?
        var password: String?
        var keepAlive: UInt16 = 30
        /// False: a persistent session, so the broker keeps what it queued for this client.
        var cleanSession = false
        var will: MQTTPacket.Will?
    }

    let settings: Settings
    package let outbox: any MQTTQueue
    /// Called on the output thread once the broker has accepted the connection.
    var onConnected: (() -> Void)?
    static let window = 16
    static let maximumOutgoing = 256 * 1024

    private enum Phase: Equatable {
        case waiting(until: Double)
        case connecting(since: Double)
        case handshaking(since: Double)
        case connected
    }
    private var phase = Phase.waiting(until: 0)
    private(set) var fd: Int32 = -1
    private var incoming: [UInt8] = []
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    private var outgoing: [UInt8] = []
    private var outgoingSent = 0
    private var inFlight: [(packetID: UInt16, sequence: UInt64)] = []
    /// The newest outbox message sent on this connection.
    private var lastSentSequence: UInt64 = 0
    private var nextPacketID: UInt16 = 1
    private var failures = 0
    private var lastWrite = 0.0
    private var pingSince: Double?
    private var lastProblem = ""
    private(set) var connections = 0
    private let clock = SystemMonotonicClock()

    init(settings: Settings, outbox: any MQTTQueue) {
        self.settings = settings
        self.outbox = outbox
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    package var isConnected: Bool { phase == .connected }

    /// Seconds on the real monotonic clock (network timers follow real time, not a sped-up trip).
    var now: Double { Double(clock.now()) / 1e9 }

    /// Connects, reads, writes, pings and sends from the outbox as far as the socket allows.
    func service() {
        let now = self.now
        // A disk that refused the outbox's writes is tried again even while nothing new comes.
        outbox.retryDisk(now: now)
        switch phase {
        case .waiting(let until):
            if now >= until { start(now) }
        case .connecting(let since):
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 0) > 0 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { return fail(String(cString: strerror(error)), now) }
                phase = .handshaking(since: now)
                queue(
                    MQTTPacket.connect(
                        clientID: settings.clientID, cleanSession: settings.cleanSession, keepAlive: settings.keepAlive,
                        will: settings.will, username: settings.username, password: settings.password), now)
            } else if now - since > 10 {
                fail("no answer within 10 s", now)
            }
        case .handshaking(let since):
            read(now)
            if case .handshaking = phase, now - since > 10 { fail("no CONNACK within 10 s", now) }
        case .connected:
            read(now)
            guard phase == .connected else { return }
            keepAlive(now)
            sendFromOutbox(now)
        }
        if fd >= 0 { write(now) }
    }

    /// Sends a message at QoS 0 now, if connected (retained configuration and availability,
    /// which are sent again on every connection anyway).
    func publishNow(topic: String, payload: [UInt8], retain: Bool) {
        guard phase == .connected else { return }
        queue(MQTTPacket.publish(topic: topic, payload: payload, qos: 0, retain: retain, packetID: 0, duplicate: false), now)
    }

    /// Ends the session cleanly: `last` (the offline availability) first, then DISCONNECT,
    /// with up to a second for the socket to take them.
    func close(last: (topic: String, payload: [UInt8])?) {
        outbox.flush(now: now)
        guard fd >= 0 else { return }
        if phase == .connected {
            if let last { publishNow(topic: last.topic, payload: last.payload, retain: true) }
            queue(MQTTPacket.disconnect, now)
            let end = now + 1
            while outgoingSent < outgoing.count && now < end {
                write(now)
                if outgoingSent < outgoing.count { usleep(10_000) }
            }
        }
        Glibc.close(fd)
        fd = -1
        phase = .waiting(until: .infinity)
    }

    private func start(_ now: Double) {
        guard let (host, port) = MQTTSettings.broker(settings.broker) else { return fail("'\(settings.broker)' is not a broker address", now) }
        let resolved: ResolvedAddress
        switch ResolvedAddress.resolve(host: host, port: port, stream: true) {
        case .success(let address): resolved = address
        case .failure(let failure): return fail(failure.description, now)
        }
        fd = resolved.openSocket()
        guard fd >= 0 else { return fail(String(cString: strerror(errno)), now) }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        if resolved.withAddress({ connect(fd, $0, $1) }) == 0 || errno == EINPROGRESS {
            phase = .connecting(since: now)
        } else {
            fail(String(cString: strerror(errno)), now)
        }
    }

    /// Drops the connection and schedules the next try: 1, 2, 4 ... 60 s, each within ±25%.
    private func fail(_ reason: String, _ now: Double) {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        let wasConnected = phase == .connected
        (incoming, outgoing, outgoingSent, inFlight, lastSentSequence, pingSince) = ([], [], 0, [], 0, nil)
        let delay = min(60, Double(1 << min(failures, 6))) * Double.random(in: 0.75...1.25)
        failures += 1
        phase = .waiting(until: now + delay)
        let problem = "MQTT: \(wasConnected ? "lost" : "cannot reach") the broker at \(settings.broker): \(reason)"
        if problem != lastProblem || wasConnected {
            Log.warning(problem + "; trying again in \(Int(delay.rounded())) s, \(outbox.count) messages wait")
            lastProblem = problem
        }
    }

    private func queue(_ packet: [UInt8], _ now: Double) {
        if outgoingSent > 0 && outgoingSent == outgoing.count { outgoing.removeAll(keepingCapacity: true); outgoingSent = 0 }
        outgoing += packet
        lastWrite = now
    }

    private func write(_ now: Double) {
        while outgoingSent < outgoing.count {
            let count = outgoing.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return send(fd, base + outgoingSent, outgoing.count - outgoingSent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count > 0 { outgoingSent += count; continue }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            return fail(count == 0 ? "the connection closed" : String(cString: strerror(errno)), now)
        }
        outgoing.removeAll(keepingCapacity: true)
        outgoingSent = 0
    }

    private func read(_ now: Double) {
        while true {
            let count = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { incoming += readBuffer.prefix(count); continue }
            if count == 0 { return fail("the broker closed the connection", now) }
            if errno == EAGAIN || errno == EINTR { break }
            return fail(String(cString: strerror(errno)), now)
        }
        var consumed = 0
        while consumed < incoming.count {
            let packet: (MQTTPacket.Incoming, Int)?
            do { packet = try MQTTPacket.decode(incoming[consumed...]) } catch {
                if case .malformed(let what) = error { return fail("the broker sent \(what)", now) }
                return
            }
            guard let (message, length) = packet else { break }
            consumed += length
            handle(message, now)
            guard fd >= 0 else { return }
        }
        if consumed > 0 { incoming.removeFirst(consumed) }
        if incoming.count > 1 << 20 { fail("the broker sent more than 1 MiB in one packet", now) }
    }

    private func handle(_ message: MQTTPacket.Incoming, _ now: Double) {
        switch message {
        case .connectAcknowledged(let sessionPresent, let code):
            guard code == 0 else {
                failures = max(failures, 5)  // wrong credentials do not heal in a second
                return fail(MQTTPacket.refusal(code), now)
            }
            phase = .connected
            failures = 0
            connections += 1
            lastProblem = ""
            Log.info(
                "MQTT: connected to \(settings.broker) as \(settings.clientID)"
                    + (settings.cleanSession ? "" : (sessionPresent ? " (the broker kept the session)" : " (a new session)"))
                    + (outbox.isEmpty ? "" : "; sending \(outbox.count) waiting messages"))
            onConnected?()
        case .publishAcknowledged(let id):
            guard let index = inFlight.firstIndex(where: { $0.packetID == id }) else { return }
            outbox.acknowledge(inFlight[index].sequence, now: now)
            inFlight.remove(at: index)
        case .pingResponse:
            pingSince = nil
        case .subscribeAcknowledged:
            break
        case .publish(_, _, let packetID):
            if let packetID { queue(MQTTPacket.puback(packetID), now) }
        }
    }

    private func keepAlive(_ now: Double) {
        let interval = Double(settings.keepAlive)
        if let since = pingSince {
            if now - since > interval { fail("no answer to a ping within \(settings.keepAlive) s", now) }
        } else if now - lastWrite >= interval / 2 {
            queue(MQTTPacket.pingRequest, now)
            pingSince = now
        }
    }

    private func sendFromOutbox(_ now: Double) {
        var offset = 0
        while inFlight.count < Self.window, outgoing.count - outgoingSent < Self.maximumOutgoing {
            // The next message after the newest sent (the outbox may have dropped its oldest).
            while let message = outbox.message(at: offset), message.sequence <= lastSentSequence { offset += 1 }
            guard let message = outbox.message(at: offset) else { return }
            let id = nextPacketID
            nextPacketID = nextPacketID == UInt16.max ? 1 : nextPacketID + 1
            queue(
                MQTTPacket.publish(
                    topic: message.topic, payload: message.payload, qos: 1, retain: message.retain,
                    packetID: id, duplicate: message.sent), now)
            outbox.markSent(at: offset)
            inFlight.append((id, message.sequence))
            lastSentSequence = message.sequence
        }
    }
}
