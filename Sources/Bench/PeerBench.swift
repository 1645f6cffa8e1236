import Glibc
import LodestoneCore
import LodestoneEncoding

/// What Lodestone's parser and attitude filter cost beside established peers, counted by
/// callgrind over the same inputs as ours: the peer NMEA parser (minmea) over the bench's mix
/// and the receiver logs, the peer AHRS (Fusion) over the attitude bench's readings, and
/// gpsd's `gpsdecode` against `lodestone nmea` as whole processes over one file. The peers are
/// compiled at run time from the folder `lodestone bench --peers DIR` names, with the system
/// C compiler at -O2 and small harnesses of our own (`PeerHarnesses`), in a temporary folder:
/// they are for comparison only and never linked into Lodestone.
public enum PeerBench {
    /// One comparison: the peer's figure and ours, over the same inputs.
    public struct Comparison: Sendable {
        public var peer: Double?
        public var ours: Double?
        /// Why the peer's figure is missing, and what to do about it.
        public var note: String?

        /// Ours over the peer's: above 1, Lodestone spends more instructions.
        public var ratio: Double? {
            guard let peer, let ours, peer > 0, ours.isFinite else { return nil }
            return ours / peer
        }
    }

    public struct Figures: Sendable {
        /// Instructions per sentence, the bench's mix (`nmea.instructionsPerSentence`).
        public var minmea: Comparison
        /// Instructions per sentence, the receiver logs (`nmea.logsInstructionsPerSentence`).
        public var minmeaLogs: Comparison
        /// Instructions per attitude update (`attitudeFilter.instructionsPerUpdate`).
        public var fusion: Comparison
        /// Whole-process instructions per sentence, `gpsdecode -j` and `lodestone nmea`.
        public var gpsdecode: Comparison
        /// What the whole processes read: "logs" or "mix".
        public var gpsdecodeInput: String?
        public var gpsdecodeSentences: Int?
    }

    /// Our figures, as the bench measured them before.
    public struct Ours: Sendable {
        public var nmea: Double?
        public var nmeaLogs: Double?
        public var attitude: Double?

        public init(nmea: Double?, nmeaLogs: Double?, attitude: Double?) {
            self.nmea = nmea
            self.nmeaLogs = nmeaLogs
            self.attitude = attitude
        }
    }

    /// Where Debian's gpsd-clients installs gpsdecode.
    public static let gpsdecodePath = "/usr/bin/gpsdecode"

    /// Every comparison. The counts are those the bench measures ours with: 7,000 sentences of
    /// the mix, 50,000 of the logs (both cycled), 10,000 attitude updates. `wholeProcesses`
    /// compares gpsdecode with this program's `nmea` command (when gpsdecode is installed).
    public static func run(
        peers: String, logs: String, ours: Ours, wholeProcesses compareProcesses: Bool = true,
        mixSentences: Int = 7000, logSentences: Int = 50_000, updates: Int = 10_000
    ) -> Figures {
        let mix = NMEACostBench.prepared()
        let (mixFigure, mixNote) = minmeaInstructions(peers: peers, sentences: mix, count: mixSentences)
        let fromLogs = NMEACostBench.logSentences(logs)
        var minmeaLogs = Comparison(peer: nil, ours: ours.nmeaLogs, note: nil)
        if fromLogs.isEmpty {
            minmeaLogs.note = "no receiver logs (.log files) in \(logs): give --logs the folder that holds them"
        } else {
            (minmeaLogs.peer, minmeaLogs.note) = minmeaInstructions(peers: peers, sentences: fromLogs, count: logSentences)
        }
        let (fusionFigure, fusionNote) = fusionInstructions(peers: peers, updates: updates)
        var figures = Figures(
            minmea: Comparison(peer: mixFigure, ours: ours.nmea, note: mixNote), minmeaLogs: minmeaLogs,
            fusion: Comparison(peer: fusionFigure, ours: ours.attitude, note: fusionNote),
            gpsdecode: Comparison(peer: nil, ours: nil, note: nil))
        if !compareProcesses {
            figures.gpsdecode.note = "not compared"
        } else if access(gpsdecodePath, X_OK) != 0 {
            figures.gpsdecode.note = "no \(gpsdecodePath): install gpsd-clients (apt-get install gpsd-clients) to compare with gpsd's decoder"
        } else if let lodestone = Callgrind.currentExecutable() {
            let input = fromLogs.isEmpty ? mix : fromLogs
            figures.gpsdecodeInput = fromLogs.isEmpty ? "mix" : "logs"
            figures.gpsdecodeSentences = input.count
            figures.gpsdecode = wholeProcesses(sentences: input, lodestone: lodestone)
        } else {
            figures.gpsdecode.note = "cannot find this program's path to run lodestone nmea"
        }
        return figures
    }

    /// Instructions per sentence of the peer NMEA parser from `peers`/minmea: `count`
    /// sentences, cycling through `sentences`, each identified and read into its record.
    /// Nil, and a note saying what to do, when it cannot be counted.
    public static func minmeaInstructions(peers: String, sentences: [[UInt8]], count: Int) -> (Double?, String?) {
        guard !sentences.isEmpty, count > 0 else { return (nil, "no sentences to parse") }
        let source = peers + "/minmea"
        if let missing = missingTools(peers: peers, source: source, files: ["minmea.c", "minmea.h"]) { return (nil, missing) }
        return inWorkspace(failed: { (nil, $0) }) { folder in
            let (binary, failure) = compile(
                PeerHarnesses.nmea, named: "nmea-harness", in: folder, peer: "minmea", include: source, sources: [source + "/minmea.c"])
            guard let binary else { return (nil, failure) }
            let input = folder + "/sentences.txt"
            guard writeFileAtomically(input, Array(sentences.joined(separator: [0x0A])) + [0x0A]) else {
                return (nil, "cannot write the sentences to \(folder): check that /tmp is writable and has room")
            }
            return countInstructions(
                [binary, input, String(count)], toggle: "harness_parse_sentence", per: count, peer: "minmea", folder: folder)
        }
    }

    /// Instructions per update of the peer AHRS from `peers`/fusion: `updates` updates at
    /// 100 Hz over the attitude bench's readings, in its units (degrees/s, g), counted inside
    /// its update alone. Nil, and a note saying what to do, when it cannot be counted.
    public static func fusionInstructions(peers: String, updates: Int) -> (Double?, String?) {
        guard updates > 0 else { return (nil, "no updates to run") }
        let source = peers + "/fusion"
        if let missing = missingTools(peers: peers, source: source, files: ["FusionAhrs.c", "FusionAhrs.h"]) { return (nil, missing) }
        return inWorkspace(failed: { (nil, $0) }) { folder in
            let (binary, failure) = compile(
                PeerHarnesses.ahrs, named: "ahrs-harness", in: folder, peer: "Fusion", include: source,
                sources: [source + "/FusionAhrs.c"], libraries: ["-lm"])
            guard let binary else { return (nil, failure) }
            let degrees = 180 / Double.pi, gravity = 9.80665
            let lines = AttitudeCostBench.readings().map { reading in
                let values = [
                    reading.rate.x * degrees, reading.rate.y * degrees, reading.rate.z * degrees,
                    reading.force.x / gravity, reading.force.y / gravity, reading.force.z / gravity,
                    reading.field.x, reading.field.y, reading.field.z
                ]
                return values.map { String($0) }.joined(separator: " ") + "\n"
            }
            let input = folder + "/readings.txt"
            guard writeFileAtomically(input, Array(lines.joined().utf8)) else {
                return (nil, "cannot write the readings to \(folder): check that /tmp is writable and has room")
            }
            return countInstructions([binary, input, String(updates)], toggle: "FusionAhrsUpdate", per: updates, peer: "Fusion", folder: folder)
        }
    }

    /// `gpsdecode -j < FILE` and `lodestone nmea FILE`, each a whole process under callgrind
    /// (every instruction from its start to its exit), per sentence of FILE: the sentences
    /// with CRLF line ends, as a receiver sends them.
    static func wholeProcesses(sentences: [[UInt8]], lodestone: String) -> Comparison {
        inWorkspace(failed: { Comparison(peer: nil, ours: nil, note: $0) }) { folder in
            var comparison = Comparison(peer: nil, ours: nil, note: nil)
            guard findProgram("valgrind") != nil else {
                comparison.note = "valgrind not found: install valgrind (apt-get install valgrind) to count instructions"
                return comparison
            }
            let input = folder + "/sentences.nmea"
            guard writeFileAtomically(input, Array(sentences.joined(separator: [0x0D, 0x0A])) + [0x0D, 0x0A]) else {
                comparison.note = "cannot write the sentences to \(folder): check that /tmp is writable and has room"
                return comparison
            }
            let count = Double(sentences.count)
            let (peer, peerNote) = wholeProcess([gpsdecodePath, "-j"], input: input, name: "gpsdecode", folder: folder)
            // valgrind 3.19 cannot read the DWARF 5 debug information Swift writes.
            let stripped = folder + "/lodestone"
            let ours = spawn(["strip", "--strip-debug", "-o", stripped, lodestone]) == 0 ? stripped : lodestone
            let (own, ownNote) = wholeProcess([ours, "nmea", input], input: nil, name: "lodestone nmea", folder: folder)
            comparison.peer = peer.map { $0 / count }
            comparison.ours = own.map { $0 / count }
            comparison.note = peerNote ?? ownNote
            return comparison
        }
    }

    /// All the instructions one process runs under callgrind, its output discarded.
    static func wholeProcess(_ arguments: [String], input: String?, name: String, folder: String) -> (Double?, String?) {
        let profile = folder + "/whole.out", errors = folder + "/whole.err"
        defer { unlink(profile) }
        guard let status = spawn(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile] + arguments, input: input, errors: errors)
        else {
            return (nil, "valgrind not found: install valgrind (apt-get install valgrind) to count instructions")
        }
        guard status == 0, let total = Callgrind.summary(profile), total > 0 else {
            return (nil, "\(name) under callgrind failed (exit \(status))" + (lastLine(errors).map { ": " + $0 } ?? ""))
        }
        return (total, nil)
    }

    // MARK: - Compiling and counting

    /// A temporary folder for one measurement, removed after it; `failed` when none can be made.
    static func inWorkspace<T>(failed: (String) -> T, _ body: (String) -> T) -> T {
        var template = Array("/tmp/lodestone-peers-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) } }
        guard let folder = made else {
            return failed("cannot make a temporary folder in /tmp (\(String(cString: strerror(errno)))): check that /tmp is writable and has room")
        }
        defer { removeTree(folder) }
        return body(folder)
    }

    /// What is missing to compile and count a peer, as what to do; nil when nothing is.
    static func missingTools(peers: String, source: String, files: [String]) -> String? {
        let layout = "give --peers the folder that holds minmea/ (minmea.c, minmea.h) and fusion/ (FusionAhrs.c and its headers)"
        var status = stat()
        guard stat(peers, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return "the peers' folder \(peers) does not exist: \(layout)"
        }
        let absent = files.filter { access(source + "/" + $0, R_OK) != 0 }
        guard absent.isEmpty else { return "no \(absent.joined(separator: ", ")) in \(source): \(layout)" }
        guard findProgram("cc") != nil else {
            return "no C compiler (cc) found: install one (apt-get install gcc) to compile the peers at -O2"
        }
        guard findProgram("valgrind") != nil else {
            return "valgrind not found: install valgrind (apt-get install valgrind) to count instructions"
        }
        return nil
    }

    /// The harness `text` compiled with the peer's `sources` by `cc -O2 -g0` (no debug
    /// information, which valgrind 3.19 could not read): the binary's path, or nil and why.
    static func compile(
        _ text: String, named name: String, in folder: String, peer: String, include: String, sources: [String], libraries: [String] = []
    ) -> (String?, String?) {
        let harness = folder + "/" + name + ".c", binary = folder + "/" + name, errors = folder + "/" + name + ".err"
        guard writeFileAtomically(harness, Array(text.utf8)) else {
            return (nil, "cannot write the \(peer) harness to \(folder): check that /tmp is writable and has room")
        }
        let arguments = ["cc", "-O2", "-g0", "-D_DEFAULT_SOURCE", "-I", include, "-o", binary, harness] + sources + libraries
        guard let status = spawn(arguments, errors: errors) else {
            return (nil, "no C compiler (cc) found: install one (apt-get install gcc) to compile the peers at -O2")
        }
        guard status == 0 else {
            let reason = firstError(errors).map { ": " + $0 } ?? ""
            return (nil, "the \(peer) harness did not compile with \(include) (cc -O2, exit \(status))\(reason); check that the folder holds \(peer)'s sources")
        }
        return (binary, nil)
    }

    /// Instructions inside the functions `toggle` names, over the run of `arguments` under
    /// callgrind, divided by `per`. The harness prints its count first; a different one means
    /// it did not do the work asked.
    static func countInstructions(_ arguments: [String], toggle: String, per: Int, peer: String, folder: String) -> (Double?, String?) {
        let profile = folder + "/callgrind.out", output = folder + "/harness.txt", errors = folder + "/callgrind.err"
        guard
            let status = spawn(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile, "--toggle-collect=" + toggle] + arguments,
                output: output, errors: errors)
        else {
            return (nil, "valgrind not found: install valgrind (apt-get install valgrind) to count instructions")
        }
        guard status == 0 else {
            return (nil, "the \(peer) harness failed under callgrind (exit \(status))" + (lastLine(errors).map { ": " + $0 } ?? ""))
        }
        let done = (try? readTextFile(output, limit: 4096))?.split(separator: " ").first.flatMap { Int($0) }
        guard done == per else { return (nil, "the \(peer) harness did \(done.map(String.init) ?? "nothing") of \(per)") }
        guard let total = Callgrind.summary(profile), total > 0 else {
            return (nil, "callgrind counted nothing inside \(toggle): the \(peer) harness was not measured")
        }
        return (total / Double(per), nil)
    }

    /// Runs a program to its end with its standard input, output and error from and to
    /// files (nil: /dev/null); its exit status, or nil when it could not be started.
    static func spawn(_ arguments: [String], input: String? = nil, output: String? = nil, errors: String? = nil) -> Int32? {
        guard let program = arguments.first else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, program, &actions, nil, &cArguments, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// The full path of a program found on PATH, or nil.
    static func findProgram(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The compiler's first error line in `path` (or its first line).
    static func firstError(_ path: String) -> String? {
        guard let text = try? readTextFile(path, limit: 1 << 20) else { return nil }
        let lines = text.split(separator: "\n")
        return (lines.first { $0.contains("error") } ?? lines.first).map { String($0.prefix(300)) }
    }

    /// The last line of `path` that says something, without valgrind's "==PID== " prefix.
    static func lastLine(_ path: String) -> String? {
        guard let text = try? readTextFile(path, limit: 1 << 20) else { return nil }
        let lines = text.split(separator: "\n").map { line in
            line.hasPrefix("==") ? String(line.drop { $0 != " " }.dropFirst()) : String(line)
        }
        return lines.last { !$0.isEmpty }.map { String($0.prefix(300)) }
    }

    // MARK: - Output

    /// The `"peers"` object of `lodestone bench --json`.
    public static func json(_ figures: Figures) -> String {
        var minmea = JSONObjectWriter()
        number(&minmea, "instructionsPerSentence", figures.minmea.peer)
        number(&minmea, "ratio", figures.minmea.ratio, decimals: 2)
        number(&minmea, "logsInstructionsPerSentence", figures.minmeaLogs.peer)
        number(&minmea, "logsRatio", figures.minmeaLogs.ratio, decimals: 2)
        if let note = figures.minmea.note { minmea.string("note", note) }
        if let note = figures.minmeaLogs.note, note != figures.minmea.note { minmea.string("logsNote", note) }
        var fusion = JSONObjectWriter()
        number(&fusion, "instructionsPerUpdate", figures.fusion.peer)
        number(&fusion, "ratio", figures.fusion.ratio, decimals: 2)
        if let note = figures.fusion.note { fusion.string("note", note) }
        var gpsdecode = JSONObjectWriter()
        number(&gpsdecode, "instructionsPerSentence", figures.gpsdecode.peer)
        number(&gpsdecode, "lodestoneInstructionsPerSentence", figures.gpsdecode.ours)
        number(&gpsdecode, "ratio", figures.gpsdecode.ratio, decimals: 2)
        if let input = figures.gpsdecodeInput { gpsdecode.string("input", input) } else { gpsdecode.null("input") }
        if let sentences = figures.gpsdecodeSentences { gpsdecode.integer("sentences", sentences) }
        if let note = figures.gpsdecode.note { gpsdecode.string("note", note) }
        var peers = JSONObjectWriter()
        peers.raw("minmea", minmea.finished)
        peers.raw("fusion", fusion.finished)
        peers.raw("gpsdecode", gpsdecode.finished)
        return peers.finished
    }

    static func number(_ writer: inout JSONObjectWriter, _ key: String, _ value: Double?, decimals: Int = 0) {
        if let value, value.isFinite { writer.number(key, value, decimals: decimals) } else { writer.null(key) }
    }

    /// The comparisons as lines a person reads.
    public static func lines(_ figures: Figures) -> String {
        func line(_ name: String, _ comparison: Comparison, _ unit: String, ours: String = "ours") -> String {
            guard let peer = comparison.peer else { return "\(name): not measured (\(comparison.note ?? "no figure"))\n" }
            let own = comparison.ours.map { fixed($0, 0) } ?? "not measured"
            let ratio = comparison.ratio.map { ", ratio \(fixed($0, 2))" } ?? ""
            return "\(name): \(fixed(peer, 0)) instructions per \(unit) (\(ours) \(own)\(ratio))\n"
        }
        let sentences = figures.gpsdecodeSentences.map(String.init) ?? ""
        let input =
            switch figures.gpsdecodeInput {
            case "logs"?: " (whole process, the receiver logs' \(sentences) sentences)"
            case "mix"?: " (whole process, the bench mix's \(sentences) sentences)"
            default: ""
            }
        return line("minmea", figures.minmea, "sentence") + line("minmea on the receiver logs", figures.minmeaLogs, "sentence")
            + line("Fusion", figures.fusion, "update")
            + line("gpsdecode" + input, figures.gpsdecode, "sentence", ours: "lodestone nmea")
    }
}
