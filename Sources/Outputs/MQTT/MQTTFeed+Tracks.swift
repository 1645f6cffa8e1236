import LodestoneReports
extension MQTTFeed {
    /// A finished track sent home: its GPX on `<prefix>/<device>/track/<id>` and its summary
    /// (JSON) on `.../track/<id>/summary`, both at QoS 1 through the outbox on disk whatever
    /// `qos` the live values use, so a broker away when the track ends still gets it.
    package func publishTrack(id: String, gpx: [UInt8], summary: [UInt8]) {
        let topic = base + "/track/" + MQTTSettings.topicName(id)
        client.outbox.add(topic: topic, payload: gpx, retain: false, now: client.now)
        client.outbox.add(topic: topic + "/summary", payload: summary, retain: false, now: client.now)
        client.outbox.flush(now: client.now)
    }
}
