import LodestoneCore
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage

enum RecordingCommand {
    static let help = """
        Usage: lodestone recording info FILE
               lodestone recording cut FILE [--from S] [--to S] [--without-positions] --out FILE

        A recording ('lodestone run --record FILE') holds every answer the sampling side got
        from outside, for 'lodestone replay' and 'lodestone verify --recording'.

          info   what it holds: the version and board that made it, when and how long, its
                 size (and per hour), each chip's transfers and failures, the receiver's
                 bytes and its longest silence, and any gaps (bytes the card could not take)
          cut    a piece to attach to a problem report: the recording up to --to seconds
                 (of the device's time since its start: a replay has to start where the
                 device started), to be judged from --from seconds on. With
                 --without-positions every latitude and longitude the receiver sent is
                 written as zeros, so the piece tells nothing of where its owner was (the
                 magnetic field's declination it carries still places it within a few
                 hundred kilometres)

        Examples:
          lodestone recording info trip.rec
          lodestone recording cut trip.rec --from 1200 --to 1500 --without-positions --out swing.rec
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["from", "to", "out"], flags: ["without-positions"]), command: "recording")
        guard let action = options.positional.first, ["info", "cut"].contains(action) else {
            throw UsageError(message: "give info or cut, and a recording: lodestone recording info FILE (see 'lodestone recording --help')")
        }
        guard options.positional.count == 2 else {
            throw UsageError(message: "give one recording: lodestone recording \(action) FILE (see 'lodestone recording --help')")
        }
        let path = options.positional[1]
        let contents: RecordingFile.Contents
        do { contents = try RecordingFile.read(path: path) } catch {
            Log.error(error.description)
            return 1
        }
        for problem in contents.problems { Log.warning("\(path): \(problem)") }
        if action == "info" {
            writeOut(info(contents, path: path))
            return 0
        }
        guard let out = options.values["out"] else { throw UsageError(message: "cut needs --out FILE, where the piece goes") }
        let from = try options.number("from", in: 0...1e9)
        let to = try options.number("to", in: 0...1e9)
        if let from, let to, to <= from { throw UsageError(message: "--to (\(fixed(to, 1)) s) must come after --from (\(fixed(from, 1)) s)") }
        let piece = RecordingCut.cut(contents, from: from, to: to, withoutPositions: options.flags.contains("without-positions"))
        do {
            let stored = try RecordingFile.write(
                path: out, header: piece.header, events: piece.events, outputSide: piece.outputSide, now: OutputClock.unixTime())
            Log.info("wrote \(out): \(piece.events.count) bytes of events, \(stored) on the card")
        } catch {
            Log.error(error.description)
            return 1
        }
        return 0
    }

    static func info(_ contents: RecordingFile.Contents, path: String) -> String {
        let header = contents.header
        let summary = RecordingSummary(events: contents.events)
        let stored = contents.pieces.reduce(0) { $0 + $1.stored }
        let perHour = summary.seconds > 0 ? Double(stored) * 3600 / summary.seconds : 0
        var lines: [String] = []
        lines.append("recording     \(path)")
        lines.append("made by       \(header["lodestone"]?.stringValue ?? "?")")
        let board = header["board"]?["name"]?.stringValue ?? "?"
        lines.append("board         \(board)" + (header["board"]?["simulated"]?.boolValue == true ? " (simulated)" : ""))
        if let start = header["startUTC"]?.numberValue {
            lines.append("started       \(TimeZoneRules.utc.iso8601(start))")
        }
        lines.append("span          \(fixed(summary.seconds, 1)) s of the device's time")
        if let from = header["from"]?.numberValue { lines.append("judged from   \(fixed(from, 1)) s (a cut piece)") }
        if header["withoutPositions"]?.boolValue == true { lines.append("positions     left out (zeros)") }
        lines.append(
            "size          \(stored) bytes on the card, \(summary.events == 0 ? 0 : contents.events.count) of events; "
                + "\(fixed(perHour / 1e6, 1)) MB per hour")
        lines.append("events        \(summary.events) (\(summary.handovers) handovers from the output side, \(summary.edges) GPIO edges)")
        for chip in summary.chips.keys.sorted() {
            let figures = summary.chips[chip] ?? (0, 0)
            lines.append("chip          \(chip): \(figures.transfers) transfers, \(figures.failed) failed")
        }
        lines.append(
            "receiver      \(summary.serialBytes) bytes in \(summary.serialReads) reads, \(summary.serialFailures) failures; "
                + "longest silence \(fixed(summary.longestSerialSilence, 1)) s")
        lines.append("restart points \(summary.restarts) (where a rotated file or a cut piece goes on from)")
        let station = contents.outputSide.filter { $0["station"] != nil }.count
        let power = contents.outputSide.compactMap { $0["power"] }
        lines.append(
            "output side   \(station) takes of the weather station, \(power.count) readings of the power supply"
                + (power.last?["battery"]?.numberValue.map { " (battery \(fixed($0, 0)) % at the end)" } ?? ""))
        lines.append("gaps          \(summary.gaps == 0 ? "none" : "\(summary.gaps), \(summary.lostBytes) bytes lost (a replay stops at the first)")")
        if let damage = summary.damage { lines.append("damage        \(damage)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
