import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneStorage
import LodestoneVerify

/// `lodestone verify`: the simulated world's truth against what the device publishes.
enum VerifyCommand {
    static var help: String {
        """
        Usage: lodestone verify [--scenario NAME|all] [--speed X] [--seed N] [--duration S] [--json] [--log]
               lodestone verify --recording FILE [--reports FILE2] [--json]

        Runs trips through the real runtime on the simulated board (the same drivers, rings,
        services and socket a client reads) and judges what the device published against what
        the simulated world knows to be true: heading, its stated accuracy, roll and pitch,
        motion state, sampling rates, pressure trend, warnings, reactions to injected faults,
        and the time base of every report. One row per check: the measured figure, the limit,
        and pass or fail. Exits 1 when any check fails.

        Options:
          --scenario NAME   one trip, or all (default): \(RefereeTrip.all.map(\.name).joined(separator: ", "))
          --speed X         world seconds per real second, 1..1000 (default 60); the results do
                            not depend on it (a slow machine runs the trip more slowly)
          --seed N          seed of the simulated sensor noise (default 1)
          --duration S      end each trip after S world seconds, 40..86400 (default: the
                            trip's own length); checks the shorter trip cannot judge fail
          --json            one JSON object per check
          --log             also print the device's log lines of each trip
          --trace FILE      write the published attitude beside the truth as CSV, one row
                            per ATT report (with --scenario all, the last trip's)

        With --recording, a recording from the field ('lodestone run --record') is replayed
        and judged by what can be judged without the world's truth: the heading against the
        course over ground while moving straight at 1 m/s or more, the heading accuracy the
        device states, the barometric altitude's shape against the GPS altitude, the stride
        the steps and the distance walked give, the longest gaps in the receiver's fixes and
        in the chips' readings. What the recording cannot show (no movement, no fix) is said
        and not judged.

        With --reports FILE2 (written beside the recording by 'lodestone run --record FILE
        --reports FILE2'), the replay must also publish exactly what the device published in
        the field: every report of every class and device, equal and in the same order. The
        first one that differs is named, with its time and the field that differs.

        Trips:
        \(RefereeTrip.all.map { "  \($0.name): \($0.summary) (\(Int($0.duration)) s)" }.joined(separator: "\n"))

        Examples:
          lodestone verify --scenario boat --speed 120
          lodestone run --record walk.rec --reports walk.jsonl --duration 600
          lodestone verify --recording walk.rec --reports walk.jsonl
        """
    }

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["scenario", "speed", "seed", "duration", "trace", "recording", "reports"], flags: ["json", "log"]),
            command: "verify")
        guard options.positional.isEmpty else {
            throw UsageError(message: "'verify' takes no arguments, found '\(options.positional[0])' (see 'lodestone verify --help')")
        }
        if let path = options.values["recording"] {
            return recording(path, reports: options.values["reports"], json: options.flags.contains("json"))
        }
        if options.values["reports"] != nil {
            throw UsageError(message: "--reports goes with --recording: the reports the device published while it recorded")
        }
        let name = options.values["scenario"] ?? "all"
        let trips: [RefereeTrip]
        if name == "all" {
            trips = RefereeTrip.all
        } else if let trip = RefereeTrip.named(name) {
            trips = [trip]
        } else {
            throw UsageError(message: "--scenario must be all or one of \(RefereeTrip.all.map(\.name).joined(separator: ", ")), not '\(name)'")
        }
        let speed = try options.number("speed", in: 1...1000) ?? 60
        let seed = try options.integer("seed", in: 0...Int.max).map { UInt64($0) } ?? 1
        let duration = try options.number("duration", in: 40...86400)
        var failed = 0
        for whole in trips {
            let trip = duration.map { whole.shortened(to: $0) } ?? whole
            if !options.flags.contains("json") { writeOut("\(trip.name): \(trip.summary)\n") }
            let outcome = Referee.run(trip, speed: speed, seed: seed, trace: options.values["trace"] != nil)
            if options.flags.contains("log") { for line in outcome.log { writeOut("  log: \(line)\n") } }
            if let path = options.values["trace"] {
                do {
                    try replaceFile(path, with: Array(outcome.trace.utf8))
                } catch {
                    Log.error("the trace: " + error.description)
                    return 1
                }
            }
            for check in outcome.checks {
                if !check.passed { failed += 1 }
                writeOut(options.flags.contains("json") ? check.json + "\n" : row(check) + "\n")
            }
        }
        if !options.flags.contains("json") { writeOut(failed == 0 ? "all checks passed\n" : "\(failed) checks failed\n") }
        return failed == 0 ? 0 : 1
    }

    /// `verify --recording FILE`: the recording replayed as fast as the machine goes, judged.
    static func recording(_ path: String, reports: String?, json: Bool) -> Int32 {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let judge = RecordingJudge(name: name)
        var published: PublishedReports?
        if let reports {
            do { published = try PublishedReports(path: reports) } catch {
                Log.error(error.description)
                return 1
            }
        }
        var replay = Replayer.Options(path: path)
        replay.speed = nil
        if !json { writeOut("\(name): a recording, replayed\n") }
        let outcome = Replayer.run(replay) { report in
            judge.take(report)
            published?.take(GPSDReports.line(report))
        }
        let replayed = RefereeCheck(
            trip: name, name: "replayed to the recording's end", measured: outcome.deviceSeconds, comparison: "", limit: .nan, unit: "s",
            passed: outcome.completed, detail: outcome.reason)
        let checks = [replayed] + (published.map { [$0.check(trip: name)] } ?? []) + (outcome.deviceSeconds > 0 ? judge.checks() : [])
        let failed = checks.filter { !$0.passed }.count
        for check in checks { writeOut(json ? check.json + "\n" : row(check) + "\n") }
        if !json { writeOut(failed == 0 ? "all checks passed\n" : "\(failed) checks failed\n") }
        return failed == 0 ? 0 : 1
    }

    static func row(_ c: RefereeCheck) -> String {
        let measured = c.measured.isFinite ? fixed(c.measured, 3) : "--"
        let limit = c.limit.isFinite ? "\(c.comparison) \(fixed(c.limit, 2))" : ""
        let name = c.name.count < 40 ? c.name + String(repeating: " ", count: 40 - c.name.count) : c.name
        return "  \(c.passed ? "pass" : "FAIL")  \(name) \(measured) \(limit) \(c.unit)  (\(c.detail))"
    }
}
