import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneStorage
import Testing

/// A recording reproduces the field: the device's reports are a function of its samples, so a
/// replay publishes exactly what the device published while it recorded, whatever the speed
/// of the run and however loaded the machine was. Each case records a trip as a user would
/// (`run --record FILE --reports FILE2`, with a client on the socket keeping the live stream),
/// replays it as fast as the machine goes, and compares report for report, per class and
/// device; `verify --recording FILE --reports FILE2` must say the same.
@Suite(.serialized) struct FieldReproducedTests {
    let program = EndToEndTests()
    static let folder = "/tmp/lodestone-field-\(getpid())"

    struct Field: Sendable, CustomTestStringConvertible {
        var name: String
        var scenario: String
        var speed: Double
        var seconds: Int
        /// Another process keeps both cores busy while the trip is recorded.
        var loaded: Bool
        var testDescription: String { "\(scenario) at speed \(speed)" + (loaded ? " on a loaded machine" : "") }
    }

    static let fields = [
        Field(name: "walk-real", scenario: "walk", speed: 1, seconds: 15, loaded: false),
        Field(name: "boat-5x", scenario: "boat", speed: 5, seconds: 8, loaded: false),
        Field(name: "station-5x", scenario: "still", speed: 5, seconds: 8, loaded: false),
        Field(name: "walk-5x-loaded", scenario: "walk", speed: 5, seconds: 8, loaded: true)
    ]

    /// The reports of a file or a stream, per class and device, in order.
    static func streams(_ lines: [String]) -> [String: [String]] {
        var streams: [String: [String]] = [:]
        for line in lines {
            guard let report = try? JSONValue.parse(line), let kind = report["class"]?.stringValue else { continue }
            streams[kind + " " + (report["device"]?.stringValue ?? ""), default: []].append(line)
        }
        return streams
    }

    static func lines(_ path: String) -> [String] {
        guard let bytes = readFileBytes(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Records the trip; returns what the socket's client read meanwhile.
    func record(_ field: Field) throws -> [String] {
        mkdir(Self.folder, 0o700)
        let base = Self.folder + "/" + field.name
        unlink(base + ".rec")
        let socket = base + ".sock"
        var spinners: [EndToEndTests.Child] = []
        if field.loaded {
            for _ in 0..<2 { spinners.append(try program.spawnProgram("/bin/sh", ["-c", "while :; do :; done"])) }
        }
        defer {
            for spinner in spinners {
                kill(spinner.pid, SIGKILL)
                _ = program.finish(spinner)
            }
        }
        let child = try program.spawn([
            "run", "--record", base + ".rec", "--reports", base + ".published", "--scenario", field.scenario,
            "--speed", String(field.speed), "--duration", String(field.seconds), "--display", "none",
            "--socket", socket, "--data-dir", base + "-data"
        ])
        var live: [String] = []
        if let client = program.connect(socket, to: child) {
            client.send(#"?WATCH={"enable":true,"json":true};"#)
            while let line = client.readLine(timeoutMilliseconds: 10_000) { live.append(line) }
        }
        let (status, output) = program.finish(child)
        #expect(status == 0, "\(output)")
        return live
    }

    @Test(arguments: fields) func theReplayPublishesWhatTheFieldDid(_ field: Field) throws {
        let base = Self.folder + "/" + field.name
        let live = try record(field)
        let replay = program.finish(try program.spawn(["replay", base + ".rec", "--speed", "max", "--reports", base + ".replayed"]))
        #expect(replay.status == 0, "\(replay.output)")
        let published = Self.streams(Self.lines(base + ".published"))
        let replayed = Self.streams(Self.lines(base + ".replayed"))
        #expect(published.keys.contains { $0.hasPrefix("ATT ") } && published.keys.contains { $0.hasPrefix("TPV ") }, "\(published.keys)")
        #expect(published.values.reduce(0) { $0 + $1.count } > 300)
        for key in Set(published.keys).union(replayed.keys).sorted() {
            let a = published[key] ?? [], b = replayed[key] ?? []
            let first = Array(zip(a, b)).firstIndex { $0.0 != $0.1 }
            #expect(
                a.count == b.count && first == nil,
                "\(key): \(a.count) published, \(b.count) replayed; first difference at \(first.map(String.init) ?? "the end"): \(first.flatMap { a.indices.contains($0) ? a[$0] : nil } ?? "") / \(first.flatMap { b.indices.contains($0) ? b[$0] : nil } ?? "")"
            )
        }
        // What the socket's client read is the published stream, from when it connected.
        let socket = Self.streams(live)
        #expect(socket.keys.contains { $0.hasPrefix("ATT ") }, "the client read \(live.count) lines")
        for (key, lines) in socket {
            guard let stream = published[key], let start = lines.first.flatMap({ stream.firstIndex(of: $0) }) else {
                // Answers to the client alone (VERSION, DEVICES, WATCH) are not published reports.
                #expect(!["ATT", "IMU", "TPV", "ENV", "SKY", "MOTION"].contains(key.split(separator: " ").first.map(String.init) ?? ""), "\(key)")
                continue
            }
            let slice = stream.dropFirst(start).prefix(lines.count)
            #expect(Array(slice) == lines, "\(key): the socket's stream is not the published one")
        }
        let verify = program.finish(try program.spawn(["verify", "--recording", base + ".rec", "--reports", base + ".published", "--json"]))
        let check = verify.output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
            .first { $0["check"]?.stringValue == "the published reports reproduced" }
        #expect(check?["passed"]?.boolValue == true, "\(verify.output)")
    }

    /// A report changed in the published file is named: its class, its place and the field.
    @Test func verifyNamesTheFirstReportThatDiffers() throws {
        let field = Field(name: "tampered", scenario: "still", speed: 10, seconds: 4, loaded: false)
        let base = Self.folder + "/" + field.name
        _ = try record(field)
        var lines = Self.lines(base + ".published")
        let attitudes = lines.indices.filter { lines[$0].contains(#""class":"ATT""#) && lines[$0].contains(#""pitch":"#) }
        let target = try #require(attitudes.dropFirst(4).first, "no fifth ATT with a pitch")
        lines[target] = lines[target].replacing(#""pitch":"#, with: #""pitch":1"#)
        // A cut last write (a power cut) is skipped with a warning, not taken for a report.
        try replaceFile(base + ".changed", with: Array((lines.joined(separator: "\n") + "\n{\"class\":\"AT").utf8))
        let verify = program.finish(try program.spawn(["verify", "--recording", base + ".rec", "--reports", base + ".changed"]))
        #expect(verify.status == 1, "\(verify.output)")
        let row = verify.output.split(separator: "\n").first { $0.contains("the published reports reproduced") } ?? ""
        #expect(row.contains("FAIL") && row.contains("the 5th ATT") && row.contains(#"differs in "pitch""#), "\(verify.output)")
        #expect(verify.output.contains("not a report"), "\(verify.output)")
    }
}
