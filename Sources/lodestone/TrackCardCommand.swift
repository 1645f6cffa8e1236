import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneSettings
import LodestoneStorage

/// `lodestone track card ID --output FILE.png`: the card the web app shares for a finished
/// track, drawn the same way.
enum TrackCardCommand {
    static func run(id: String, store: TrackStore, dataDirectory: String, options: Options) throws(UsageError) -> Int32 {
        guard let output = options.values["output"] ?? options.values["out"] else {
            throw UsageError(message: "card needs --output FILE.png: where to write the card")
        }
        let units = try Units.option(options)
        let zone = try SkyCommand.zoneOption(options)
        let language: Language
        if let name = options.values["language"] {
            guard let chosen = Language(rawValue: name) else { throw UsageError(message: "--language is en or de, not '\(name)'") }
            language = chosen
        } else {
            language = (try? Configuration.commandConfiguration(options.values["config"]))?.language ?? .en
        }
        guard let loaded = StoredTrackPanel.load(id: id, store: store, dataDirectory: dataDirectory) else {
            Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
            return 1
        }
        if let warning = loaded.warning { Log.warning(warning) }
        let png = TrackCard.png(loaded.panel, started: loaded.started, zone: zone, units: units, language: language)
        do { try replaceFile(output, with: png) } catch {
            Log.error(error.description)
            return 1
        }
        writeOut("wrote \(output): the card of track \(id) (\(TrackCard.side)x\(TrackCard.side) PNG)\n")
        return 0
    }
}
