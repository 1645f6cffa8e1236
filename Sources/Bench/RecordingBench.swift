import Glibc
import LodestoneCore
import LodestoneRuntime
import LodestoneStorage

/// What recording costs on the card and what replaying takes: the simulated walk recorded at
/// the default rates for five minutes of the device's time, then replayed as fast as the
/// machine goes.
public enum RecordingBench {
    public struct Figures: Sendable {
        /// Bytes on the card per hour of the device's time, and before deflating.
        public var bytesPerHour: Double
        public var rawBytesPerHour: Double
        /// The replay's device seconds per real second.
        public var replayTimesRealTime: Double
        public var deviceSeconds: Double
    }

    public static func run() -> (Figures?, String?) {
        guard let executable = Callgrind.currentExecutable() else { return (nil, "cannot find this program's path") }
        let directory = "/tmp/lodestone-bench-record-\(getpid())"
        let path = directory + ".rec"
        defer {
            removeTree(directory)
            unlink(path)
        }
        unlink(path)
        guard
            runProgram([
                executable, "run", "--record", path, "--scenario", "walk", "--speed", "20", "--duration", "15", "--display", "none",
                "--socket", directory + ".sock", "--data-dir", directory
            ])?.status == 0
        else { return (nil, "the recorded run did not finish") }
        guard let contents = try? RecordingFile.read(path: path) else { return (nil, "the recording could not be read") }
        let summary = RecordingSummary(events: contents.events)
        guard summary.seconds > 60 else { return (nil, "the recording holds \(fixed(summary.seconds, 1)) s") }
        let stored = Double(contents.pieces.reduce(0) { $0 + $1.stored })
        let clock = SystemMonotonicClock()
        let started = clock.now()
        let replay = runProgram([executable, "replay", path, "--speed", "max"])
        let wall = Double(clock.now() &- started) / 1e9
        guard replay?.status == 0 else { return (nil, "the replay did not reach the recording's end: \(replay?.output ?? "")") }
        return (
            Figures(
                bytesPerHour: stored * 3600 / summary.seconds, rawBytesPerHour: Double(contents.events.count) * 3600 / summary.seconds,
                replayTimesRealTime: summary.seconds / wall, deviceSeconds: summary.seconds), nil
        )
    }
}
