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
        guard let track = store.loadWithPhotos(id: id) else {
            Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
            return 1
        }
        if let warning = track.warning { Log.warning(warning) }
        let units = try Units.option(options)
        var panel = DisplayModel.TrackPanel()
        let statistics = TrackStatistics.of(track.points)
        panel.state = "stored"
        panel.name = (try? store.summary(id: id))?.name ?? track.name
        (panel.points, panel.distance, panel.elapsed, panel.movingTime) = (statistics.points, statistics.distance, statistics.totalTime, statistics.movingTime)
        (panel.elevationGain, panel.elevationLoss) = (statistics.elevationGain, statistics.elevationLoss)
        panel.profile = statistics.profile.map(\.altitude)
        panel.splits = statistics.splits
        panel.path = track.points.filter { $0.latitude.isFinite && $0.longitude.isFinite }.map { ($0.latitude, $0.longitude) }
        panel.photos = track.photos.filter(\.hasPlace).map { ($0.latitude, $0.longitude) }
        guard !panel.path.isEmpty else {
            Log.error("track '\(id)' has no points to draw")
            return 1
        }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        if let end = panel.path.last {
            panel.waypoints = Navigation.sorted(WaypointStore(dataDirectory: directory).load(), latitude: end.latitude, longitude: end.longitude)
                .filter { $0.distance < 2_000 }.prefix(5).map { ($0.waypoint.name, $0.waypoint.latitude, $0.waypoint.longitude) }
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
