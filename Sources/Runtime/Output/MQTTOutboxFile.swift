import LodestoneOutputs
import LodestoneStorage
import LodestoneReports

extension MQTTFeed {
    /// The feed with its messages waiting on disk, in `<dataDirectory>/mqtt-outbox.rec`.
    convenience init(settings: MQTTSettings, dataDirectory: String, now: Double) {
        self.init(
            settings: settings,
            outbox: MQTTOutbox(path: dataDirectory + "/mqtt-outbox.rec", limit: settings.queueLimit, now: now))
    }
}
