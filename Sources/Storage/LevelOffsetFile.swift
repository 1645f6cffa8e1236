import LodestoneCore
import LodestoneEncoding

/// The bubble level's surface offset, `<dataDir>/calibration/level.json`: the roll and pitch
/// (degrees) a reference surface read as, so the level reads zero on it after a restart.
package struct LevelOffsetFile {
    let directory: String
    var path: String { directory + "/level.json" }

    package init(dataDirectory: String) { directory = CalibrationStore(dataDirectory: dataDirectory).directory }

    /// The saved offset; nil when there is none, or it is damaged or not nearly level.
    package func load() -> (roll: Double, pitch: Double)? {
        guard let text = readStoreTextIfPresent(path, limit: 4096), let json = try? JSONValue.parse(text),
            let roll = json["roll"]?.numberValue, let pitch = json["pitch"]?.numberValue, abs(roll) < 45, abs(pitch) < 45
        else { return nil }
        return (roll, pitch)
    }

    package func save(roll: Double, pitch: Double) {
        guard makeDirectories(directory) else { return }
        var w = JSONObjectWriter()
        w.number("roll", roll, decimals: 3)
        w.number("pitch", pitch, decimals: 3)
        writeFileAtomically(path, Array((w.finished + "\n").utf8))
    }
}
