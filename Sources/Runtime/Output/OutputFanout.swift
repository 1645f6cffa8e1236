import LodestoneOutputs
import LodestoneReports
import LodestoneServices

/// The one seam every report passes on its way out: the socket's gpsd JSON, NMEA 0183 (to its
/// listeners and to the socket's NMEA watchers), Signal K, MQTT and the display each take the same `Report`
/// and nothing else. A report whose time would not move forward for its kind and device is
/// dropped here, once for all of them.
final class OutputFanout {
    let server: ReportServer?
    /// The NMEA 0183 output (replaced when SIGHUP changes its addresses).
    var nmea: StreamServer?
    /// The Signal K output (replaced when SIGHUP changes its addresses or rates).
    var signalK: SignalKOutput?
    /// The MQTT output, when configured.
    var mqtt: MQTTFeed?
    /// chrony's SOCK refclock, fed each fix's time (nil: off).
    var chrony: ChronyFeed?
    /// The display, when there is one.
    var display: DisplayFeed?
    /// The web app, when served.
    var web: WebOutput?
    private var forwardTimes = ForwardTimes()
    /// The newest TPV: what the display shows of the position.
    private(set) var lastPosition: PositionReport?

    init(server: ReportServer?, nmea: StreamServer?) {
        self.server = server
        self.nmea = nmea
    }

    /// Hands a report to every output; `utc` is asked only when an output needs the time.
    func send(_ report: Report, utc: () -> Double) {
        guard forwardTimes.admits(report) else { return }
        deliver(report, utc: utc)
    }

    /// `send` for a sampled report whose kind, device and time the caller knows.
    func send(_ report: Report, kind: ReportKind, device: String, time: Double, utc: () -> Double) {
        guard forwardTimes.admits(kind, device: device, time: time) else { return }
        deliver(report, utc: utc)
    }

    /// Every report as it leaves (a replay's record of what it published).
    var tap: ((Report) -> Void)?

    private func deliver(_ report: Report, utc: () -> Double) {
        if case .position(let position) = report { lastPosition = position }
        tap?(report)
        // The NMEA sentences go to the NMEA listeners and to the socket's NMEA watchers before
        // the report they come from, as a gpsd with a compass attached passes its sentences
        // (OpenCPN and signalk-server ask so).
        if nmea != nil || server?.hasNMEAWatchers == true {
            for sentence in NMEAFeed.sentences(for: report) {
                nmea?.send(sentence)
                server?.broadcastSentence(sentence, device: report.device ?? "")
            }
        }
        server?.broadcast(report)
        if let signalK { signalK.publish(report, now: utc()) }
        if let mqtt { mqtt.take(report, utc: utc()) }
        display?.take(report)
        web?.server.publish(report)
    }

    /// A sentence as the GPS sent it: to the socket's NMEA watchers, and to the NMEA listeners
    /// when it is one they pass through.
    func passThrough(_ sentence: UnsafeBufferPointer<UInt8>, device: String) {
        server?.broadcastSentence(sentence, device: device)
        if NMEAFeed.passesThrough(sentence) { nmea?.send(sentence) }
    }

    /// Whether anyone takes the GPS's own sentences.
    var takesSentences: Bool { server != nil || nmea != nil }

    /// The streams' descriptors the output thread waits on beside the socket's.
    func appendPollDescriptors(to descriptors: inout [Int32]) {
        nmea?.appendPollDescriptors(to: &descriptors)
        signalK?.server.appendPollDescriptors(to: &descriptors)
        web?.server.appendPollDescriptors(to: &descriptors)
    }

    /// Accepts the streams' new clients and writes what waits for them.
    func flushStreams() {
        nmea?.service()
        signalK?.server.service()
        web?.server.service()
    }

    /// MQTT's session and its publication when due; the tracks that ended since, sent home
    /// (unless private, or `mqtt.tracks` is off).
    func tickMQTT(tracks: TrackService?) {
        if let tracks {
            for summary in tracks.takeFinished() where !summary.isPrivate {
                guard let mqtt, mqtt.settings.tracks, let gpx = tracks.store.export(id: summary.id, format: "gpx") else { continue }
                mqtt.publishTrack(id: summary.id, gpx: Array(gpx.utf8), summary: Array(summary.json.utf8))
            }
        }
        mqtt?.tick()
    }

    /// The MQTT session as STATUS shows it.
    var mqttStatus: MQTTStatus? {
        guard let mqtt else { return nil }
        let outbox = mqtt.client.outbox
        return MQTTStatus(
            broker: mqtt.settings.broker, connected: mqtt.client.isConnected, queued: outbox.count,
            dropped: outbox.dropped, delivered: outbox.delivered)
    }

    func close() {
        mqtt?.close()
        web?.server.shutdown()
    }
}
