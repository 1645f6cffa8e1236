import LodestoneCore
import LodestoneOutputs
import LodestoneStorage
import LodestoneReports

/// `lodestone track list`: the stored tracks found, sorted, 50 to a page.
enum TrackListCommand {
    static let pageSize = 50

    static func run(_ options: Options, store: TrackStore) throws(UsageError) -> Int32 {
        let order =
            try options.values["sort"].map { (text: String) throws(UsageError) -> TrackStore.Order in
                guard let order = TrackStore.Order(rawValue: text) else {
                    throw UsageError(message: "--sort takes date, distance, duration, pace or name, not '\(text)'")
                }
                return order
            } ?? .date
        let query = TrackStore.Query(
            text: options.values["search"], tag: options.values["tag"], from: try TrackCommand.day(options, "since"),
            to: try TrackCommand.day(options, "until").map { $0 + 86_400 },
            minimumDistance: try options.number("min-km", in: 0...100_000).map { $0 * 1000 },
            maximumDistance: try options.number("max-km", in: 0...100_000).map { $0 * 1000 }, order: order)
        let (found, warnings) = store.listReporting(query)
        for warning in warnings { Log.warning(warning) }
        let pages = max(1, (found.count + pageSize - 1) / pageSize)
        let page = try options.integer("page", in: 1...1_000_000) ?? 1
        guard page <= pages else {
            throw UsageError(message: "--page \(page): there \(pages == 1 ? "is 1 page" : "are \(pages) pages") of \(found.count) tracks")
        }
        let tracks = Array(found.dropFirst((page - 1) * pageSize).prefix(pageSize))
        if options.flags.contains("json") {
            writeOut("[" + tracks.map(\.json).joined(separator: ",") + "]\n")
            return 0
        }
        guard !tracks.isEmpty else {
            writeOut("no tracks in \(store.directory) match\n")
            return 0
        }
        let units = try Units.option(options)
        let (length, unit) = TrackSummaryText.split(units)
        for t in tracks {
            let pace = t.distance > 0 && !t.timeless ? "  " + TrackSummaryText.clock(t.movingTime / (t.distance / length)) + " /\(unit)" : ""
            let time = t.timeless ? "  no times" : "  \(fixed(t.movingTime / 60, 0)) min moving"
            writeOut(
                "\(t.id)  \(units.distance(t.distance))\(time)\(pace)  +\(units.altitude(t.elevationGain))  \(t.name)"
                    + (t.tags.isEmpty ? "" : "  #" + t.tags.joined(separator: " #")) + (t.isPrivate ? "  (private)" : "") + "\n")
        }
        if pages > 1 {
            writeOut("page \(page) of \(pages) (\(found.count) tracks)" + (page < pages ? "; --page \(page + 1) for more" : "") + "\n")
        }
        return 0
    }
}
