import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneStorage

/// The rolling history of the numeric streams (pressure, sea-level pressure, altitude,
/// temperature, humidity), kept across restarts in `<dataDir>/history.bin`, written
/// atomically once a minute and at stop.
package final class HistoryService {
    static let streams = HistoryStreams.names
    let path: String
    package private(set) var histories: [String: History]
    /// The streams' names sorted, as the file keeps them (worked out once: the set of streams
    /// never changes while running).
    private let order: [String]
    private let file: ReplacedFile
    private var lastSave = -Double.infinity

    init(dataDirectory: String) {
        path = dataDirectory + "/history.bin"
        let loaded = HistoryFile.read(path)
        histories = loaded?.histories ?? [:]
        if let loaded, loaded.damaged {
            // Never replaced unawares: the damaged file is kept beside the new one.
            let kept = loaded.histories.keys.sorted()
            let aside = setAside(path, at: OutputClock.unixTime())
            Log.warning(
                "\(path) is damaged: " + (kept.isEmpty ? "nothing could be read" : "kept " + kept.joined(separator: ", "))
                    + (aside.map { "; the damaged file is kept as \($0)" } ?? "; it could not be set aside and will be replaced at the next save"))
        }
        for name in Self.streams where histories[name] == nil { histories[name] = History() }
        order = histories.keys.sorted()
        file = ReplacedFile(path: path)
    }

    func add(_ stream: String, _ value: Double, time: Double) {
        // In place: through `values`, not a copy of the stream's history written back.
        guard let index = histories.index(forKey: stream) else { return }
        histories.values[index].add(value, time: time)
    }

    func forget(after time: Double) {
        for name in histories.keys { histories[name]?.forget(after: time) }
    }

    /// Saves once a minute (`force` at stop).
    func save(time: Double, force: Bool = false) {
        guard force || time - lastSave >= 60 else { return }
        lastSave = time
        do {
            try file.replace { HistoryFile.encode(histories, order: order, into: &$0) }
        } catch {
            Log.warning("cannot write \(path): the history will not survive a restart (\(error.reason))")
        }
    }
}
