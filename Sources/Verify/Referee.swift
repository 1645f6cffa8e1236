import Glibc
import LodestoneCore
import LodestoneSim
import LodestoneRuntime
import LodestoneSettings
import LodestoneStorage

/// `lodestone verify`: runs trips through the real runtime on the simulated board (the same
/// drivers, rings, services and socket a client reads) and judges what was published against
/// the world's truth.
public enum Referee {
    public struct Outcome: Sendable {
        public var checks: [RefereeCheck]
        /// The device's own log lines of the trip.
        public var log: [String]
        /// The published attitude beside the truth, as CSV (see `TripJudge.trace`); empty unless asked for.
        public var trace: String = ""
        public var passed: Bool { checks.allSatisfy(\.passed) }
    }

    /// Runs one trip at `speed` (world seconds per real second) with the given noise seed;
    /// `trace` also writes the published attitude beside the truth (a second replay of the world).
    public static func run(_ trip: RefereeTrip, speed: Double, seed: UInt64 = 1, trace: Bool = false) -> Outcome {
        let folder = temporaryFolder()
        defer { removeTree(folder) }
        var c = Configuration()
        c.board = "sim"
        c.scenario = trip.scenario.rawValue
        c.speed = speed
        c.seed = seed
        c.socket = folder + "/lodestone.sock"
        c.dataDir = folder + "/data"
        c.display = "none"
        c.faults = trip.faults
        c.figure8First = true
        c.simulatedStart = trip.startUTC
        if let elements = trip.satelliteTLE {
            let file = folder + "/satellite.tle"
            do { try replaceFile(file, with: Array(elements.utf8)) } catch {
                return Outcome(checks: [.missing(trip: trip.name, name: "the device ran", "cannot write \(file): \(error)")], log: [])
            }
            c.satelliteTLE = file
        }
        c.realTimePriority = nil
        c.lockMemory = false
        // A safety net: the recorder ends the trip on time; this ends it if the recorder cannot.
        c.tripDuration = trip.duration + 10
        let recorder = TripRecorder(socketPath: c.socket ?? "", duration: trip.duration)
        Log.hold()
        let status = Runner.run(c, board: trip.board, observer: recorder)
        recorder.finish()
        var log = Log.takeHeld()
        if let failure = recorder.failure { log.append("referee: " + failure) }
        guard status == 0 else {
            return Outcome(checks: [.missing(trip: trip.name, name: "the device ran", "lodestone run exited with \(status)")], log: log)
        }
        let judge = TripJudge(
            trip: trip, reports: recorder.reports, speed: speed,
            track: RecordedTrack.newest(dataDirectory: c.dataDir ?? folder + "/data"))
        return Outcome(checks: judge.checks(), log: log, trace: trace ? judge.trace() : "")
    }

    static func temporaryFolder() -> String {
        var template = Array("/tmp/lodestone-verify-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { return "/tmp/lodestone-verify-\(getpid())" }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a folder the referee made, and everything in it.
    static func removeTree(_ path: String) {
        guard path.hasPrefix("/tmp/lodestone-verify-"), let directory = opendir(path) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                removeTree(child)
            } else {
                unlink(child)
            }
        }
        closedir(directory)
        rmdir(path)
    }
}
