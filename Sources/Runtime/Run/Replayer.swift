import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import LodestoneSampling
import LodestoneSim
import LodestoneSettings
import LodestoneStorage
import LodestoneBoard

/// `lodestone replay FILE`: the whole device run again on a replay board whose buses, receiver,
/// GPIO lines and clock answer from a recording, through the same drivers, filters, services
/// and outputs. Both sides run in turn on one thread (`Lockstep`), so the reports depend on the
/// recording alone.
public enum Replayer {
    public struct Options: Sendable {
        public var path: String
        /// The device's seconds per real second; nil: as fast as the machine goes.
        public var speed: Double?
        /// Serve the replayed reports on this socket (gpsd JSON, as `run` does).
        public var socket: String?
        /// Every report published, one gpsd JSON line each, into this file ("-": standard output).
        public var reports: String?
        /// Where the replayed device keeps its files; nil: a fresh folder, removed afterwards.
        public var dataDir: String?

        public init(path: String) { self.path = path }
    }

    /// What a replay did: why it stopped, whether it ran to the recording's end, how much of
    /// the device's time it covered, and how long that took.
    public struct Outcome: Sendable {
        public var reason: String
        public var divergence: String?
        public var completed: Bool
        public var deviceSeconds: Double
        public var wallSeconds: Double
        public var status: Int32
    }

    /// A recording read and checked: what the replay builds from it.
    public struct Loaded {
        public var contents: RecordingFile.Contents
        public var board: BoardDescription
        public var configuration: Configuration
        public var buses: [String]
        public var lines: [UInt8]
        public var gpsPath: String?
        public var startUTC: Double
        public var startMonotonic: MonotonicNanoseconds
    }

    /// Reads a recording and the run it holds; the error says what is wrong and what to do.
    public static func load(_ path: String) throws(StorageError) -> Loaded {
        let contents = try RecordingFile.read(path: path)
        let header = contents.header
        guard header["codec"]?.numberValue == Double(InputEventCodec.version) else {
            throw StorageError("\(path) was recorded in another form (codec \(header["codec"]?.serialized ?? "?")): replay it with the version that made it")
        }
        // The board file's text when the run had one; the simulated board is built in.
        let board: BoardDescription
        if let text = header["board"]?["text"]?.stringValue {
            do { board = try BoardDescription.parse(text, file: "the recording's board file") } catch {
                throw StorageError(error.description)
            }
        } else if header["board"]?["simulated"]?.boolValue == true {
            // As the run carried it: a recording made before the boat's vane went aboard
            // replays ashore, as it was made.
            board = .simulatedBoard(vaneAboard: header["board"]?["vaneAboard"]?.boolValue == true)
        } else {
            throw StorageError("\(path) holds no board file")
        }
        var configuration = Configuration()
        if let object = header["configuration"] {
            do { try configuration.load(text: object.serialized, file: "the recording's configuration") } catch {
                throw StorageError(error.description)
            }
        }
        return Loaded(
            contents: contents, board: board, configuration: configuration,
            buses: header["buses"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            lines: header["lines"]?.arrayValue?.compactMap { $0.numberValue.flatMap { UInt8(exactly: $0) } } ?? [],
            gpsPath: header["gps"]?.stringValue, startUTC: header["startUTC"]?.numberValue ?? 0,
            startMonotonic: OutputSideEntries.nanoseconds(header["startMonotonic"]) ?? 0)
    }

    /// Replays; `tap` sees every report as it leaves. Exit status 0 when the recording was
    /// replayed to its end, 1 otherwise (said).
    public static func run(_ options: Options, tap: ((Report) -> Void)? = nil) -> Outcome {
        var outcome = Outcome(reason: "", divergence: nil, completed: false, deviceSeconds: 0, wallSeconds: 0, status: 1)
        let loaded: Loaded
        do { loaded = try load(options.path) } catch {
            outcome.reason = error.description
            Log.error(error.description)
            return outcome
        }
        for problem in loaded.contents.problems { Log.warning("\(options.path): \(problem)") }
        if let recorded = loaded.contents.header["lodestone"]?.stringValue, recorded != Version.line {
            Log.warning("recorded by \(recorded), replayed by \(Version.line): where the code changed, the replay may diverge")
        }
        let scratch = options.dataDir == nil ? makeScratchDirectory() : nil
        defer { if let scratch { removeTree(scratch) } }
        guard let dataDirectory = options.dataDir ?? scratch else {
            outcome.reason = "cannot make a folder for the replayed device's files in /tmp: give --data-dir"
            Log.error(outcome.reason)
            return outcome
        }
        // A folder given is taken as a run takes it: never one a running device owns.
        var lock: DataDirectoryLock?
        if let given = options.dataDir {
            guard makeDirectories(given) else {
                outcome.reason = "cannot create \(given) for the replayed device's files"
                Log.error(outcome.reason)
                return outcome
            }
            let owned = Runner.ownDataDirectory(given)
            if owned.refused {
                outcome.reason = "\(given) is in use"
                return outcome
            }
            lock = owned.lock
        }
        defer { withExtendedLifetime(lock) {} }
        let c = replayConfiguration(loaded.configuration, dataDirectory: dataDirectory, socket: options.socket ?? dataDirectory + "/replay.sock")
        var reportFile: ReportLines?
        if let path = options.reports {
            do { reportFile = try ReportLines(path: path) } catch {
                outcome.reason = error.description
                Log.error(error.description)
                return outcome
            }
        }
        // Before the first reading, the device's clock stands where the recorded one stood.
        let stream = ReplayStream(loaded.contents.events, clockStart: loaded.startMonotonic)
        let clock = ReplayClock(stream: stream)
        // Whatever the device reads of the clock while it is built was not recorded.
        clock.outputSide = true
        let gps = loaded.gpsPath.map { ReplaySerialPort(stream: stream, path: $0) }
        let lines = loaded.lines
        // A recorded data-ready line needs a line to stand in for (any provider's, without
        // edges); `line` gives it the recording's edges.
        let pipeline = BoardWiring.pipeline(
            board: loaded.board,
            bus: { path in ReplayI2CBus(stream: stream, bus: UInt8(truncatingIfNeeded: loaded.buses.firstIndex(of: path) ?? 255)) },
            gps: gps, clock: clock, qnh: c.qnh, gpio: lines.contains(RecordedLine.imuDataReady) ? SimulatedGPIO() : nil,
            imuRateHz: c.imuRateHz,
            pulse: lines.contains(RecordedLine.gpsPulse) ? ReplayDigitalInput(stream: stream, line: RecordedLine.gpsPulse) : nil,
            line: { input, role in
                role == RecordedLine.imuDataReady && lines.contains(role) ? ReplayDigitalInput(stream: stream, line: role) : input
            })
        let from = loaded.contents.header["from"]?.numberValue
        let wall = SystemMonotonicClock()
        let began = wall.now()
        var first: MonotonicNanoseconds?
        let lockstep = Lockstep(
            samplingSide: { clock.outputSide = false },
            outputSide: {
                clock.outputSide = true
                if first == nil { first = stream.lastClock }
            },
            divergence: { stream.divergence }, finished: { stream.isFinished }, speed: options.speed,
            reportTap: { report in
                // A cut piece is judged from where its maker said (`recording cut --from`).
                if let from, Double(stream.lastClock &- (first ?? stream.lastClock)) / 1e9 < from { return }
                tap?(report)
                reportFile?.write(report)
            })
        // The weather station's readings come back at the times the recorded one gave them.
        let takes = OutputSideEntries.stationTakes(loaded.contents.outputSide)
        let station = takes.isEmpty ? nil : WeatherStation.replaying(takes, clock: clock)
        let status = Runner.serve(
            pipeline: pipeline, gpsPath: loaded.gpsPath, board: loaded.board, clock: clock, configuration: c, stop: StopSignal(),
            gpio: nil, startUTC: loaded.startUTC, observer: nil, station: station, ledger: stream, lockstep: lockstep)
        reportFile?.close()
        outcome.wallSeconds = Double(wall.now() &- began) / 1e9
        outcome.deviceSeconds = Double(stream.lastClock &- (first ?? stream.lastClock)) / 1e9
        outcome.divergence = stream.divergence ?? stream.damage
        outcome.completed = status == 0 && stream.isFinished
        outcome.status = outcome.completed ? 0 : 1
        outcome.reason = outcome.divergence.map { "the replay diverged: " + $0 } ?? (outcome.completed ? "the end of the recording" : "stopped")
        return outcome
    }

    /// The recorded configuration as a replay runs it: on its own files and socket, with no
    /// display and no outputs to the network, on an ordinary thread, and with the sampling
    /// rates changed only where the recording changed them.
    static func replayConfiguration(_ recorded: Configuration, dataDirectory: String, socket: String) -> Configuration {
        var c = recorded
        // The pace is the lockstep's (`--speed`); the device's own waits are a run's.
        c.speed = 1
        c.dataDir = dataDirectory
        c.socket = socket
        c.display = "none"
        c.duration = nil
        c.tripDuration = nil
        c.recordPath = nil
        c.reportsPath = nil
        (c.listen, c.nmeaListen, c.nmeaUDP, c.signalKListen, c.signalKUDP, c.httpListen, c.mqtt, c.chronySocket) =
            (nil, nil, nil, nil, nil, nil, nil, nil)
        c.realTimePriority = nil
        c.cpu = nil
        c.lockMemory = false
        c.keepCPUAwake = false
        c.adaptiveSampling = false
        c.powerSupplyDirectory = "/nonexistent"
        c.picture = nil
        return c
    }

    static func makeScratchDirectory() -> String? {
        var template = Array("/tmp/lodestone-replay-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else { return nil }
        return String(cString: made)
    }
}
