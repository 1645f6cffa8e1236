import LodestoneCore
import LodestoneRuntime

enum ReplayCommand {
    static let help = """
        Usage: lodestone replay FILE [--speed X|max] [--socket PATH] [--reports FILE] [--data-dir DIR]

        Runs the whole device again from a recording ('lodestone run --record FILE'): the
        recorded board's chips, receiver, GPIO lines and clock answer from the file, through the
        same drivers, filters, services and outputs. The same recording publishes the same
        reports, byte for byte, at any speed and on any machine (their contents and the
        device's times; not the wall clock).

        A replay refuses to guess: the first question the recording does not hold (another
        board file, another driver, a version that reads a register more) stops it, naming the
        event, what the device asked for and what the recording holds there.

        Options:
          --speed X       the device's seconds per real second (default 1); max: as fast as the
                          machine goes
          --socket PATH   serve the replayed reports there, as 'run' does (gpsd clients,
                          'lodestone watch --socket PATH'); default: a socket of its own
          --reports FILE  write every report published, one gpsd JSON line each, into FILE
                          (- for standard output): two replays' files compare with cmp
          --data-dir DIR  where the replayed device keeps its files (default: a fresh folder,
                          removed afterwards); never a running device's own

        Exit status: 0 when the recording was replayed to its end; 1 when it could not be read,
        or the replay diverged from it.

        Example:
          lodestone run --record trip.rec --duration 600
          lodestone replay trip.rec --speed max --reports a.jsonl
          lodestone replay trip.rec --speed 20 --reports b.jsonl && cmp a.jsonl b.jsonl
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["speed", "socket", "reports", "data-dir"], flags: []), command: "replay")
        guard options.positional.count == 1, let path = options.positional.first else {
            throw UsageError(message: "give one recording: lodestone replay FILE (see 'lodestone replay --help')")
        }
        var replay = Replayer.Options(path: path)
        replay.speed = options.values["speed"] == "max" ? nil : try options.number("speed", in: 0.01...100_000) ?? 1
        replay.socket = options.values["socket"]
        replay.reports = options.values["reports"]
        replay.dataDir = options.values["data-dir"]
        let outcome = Replayer.run(replay)
        let pace = outcome.wallSeconds > 0 ? ", \(DecimalText.compact(outcome.deviceSeconds / outcome.wallSeconds, 1)) times real time" : ""
        let summary =
            "replayed \(DecimalText.compact(outcome.deviceSeconds, 1)) s of the device's time in \(DecimalText.compact(outcome.wallSeconds, 1)) s\(pace): \(outcome.reason)"
        if outcome.status == 0 { Log.info(summary) } else { Log.error(summary) }
        return outcome.status
    }
}
