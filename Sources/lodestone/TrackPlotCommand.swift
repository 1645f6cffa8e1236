import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneRuntime
import LodestoneSettings
import LodestoneStorage
import LodestoneReports

/// `lodestone track show ID --plot`: the stored track drawn as the device's track page draws
/// it, to the terminal in text cells, or to a PNG (`--out`) at a panel's size.
enum TrackPlotCommand {
    static func run(id: String, store: TrackStore, options: Options) throws(UsageError) -> Int32 {
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        guard let loaded = StoredTrackPanel.load(id: id, store: store, dataDirectory: directory) else {
            Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
            return 1
        }
        if let warning = loaded.warning { Log.warning(warning) }
        let units = try Units.option(options)
        var panel = loaded.panel
        guard !panel.path.isEmpty else {
            Log.error("track '\(id)' has no points to draw")
            return 1
        }
        // Heading up: the last leg's course (the way the person was going at the end).
        if options.flags.contains("heading-up"), let end = panel.path.last,
            let before = panel.path.dropLast().last(where: { $0.latitude != end.latitude || $0.longitude != end.longitude })
        {
            panel.headingUp =
                Geodesy.inverse(latitude1: before.latitude, longitude1: before.longitude, latitude2: end.latitude, longitude2: end.longitude).bearing
        }
        guard let out = options.values["out"] else {
            let size = terminalCells()
            var model = DisplayModel()
            (model.units, model.track) = (units, panel)
            writeOut(panel.name.map { $0 + "\n" } ?? "")
            for (line, _) in TrackMap.lines(panel, units: units, columns: size.columns, rows: max(8, size.rows - 5)) { writeOut(line + "\n") }
            for line in TrackMap.profile(panel, units: units, columns: size.columns) { writeOut(line + "\n") }
            return 0
        }
        let sizeText = options.values["size"] ?? "800x480"
        let parts = sizeText.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (240...4096).contains(parts[0]), (160...4096).contains(parts[1]) else {
            throw UsageError(message: "--size takes WIDTHxHEIGHT in pixels, 240x160 to 4096x4096 (e.g. 800x480), not '\(sizeText)'")
        }
        let frame = MemoryFramebuffer(width: parts[0], height: parts[1], format: .xrgb8888)
        var model = DisplayModel()
        (model.title, model.units, model.track) = (id, units, panel)
        GraphicPages.draw(.track, model, theme: options.values["theme"] == "night" ? .night : .day, on: frame)
        do { try replaceFile(out, with: PNGEncoder.encode(frame)) } catch {
            Log.error(error.description)
            return 1
        }
        writeOut("wrote \(out): track \(id) at \(sizeText)\n")
        return 0
    }
}
