import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneStorage

/// A long day's track from the outside: 30,000 points (eight hours at one a second, winding
/// and climbing) and 50 photos along it (640x480, encoded here), filed by the recording's own
/// code, then `lodestone track list`, `track show`,
/// `track show --plot --out` and `track export` run as a person runs them, each the best of
/// three (wall time, milliseconds, the process's start included).
public enum LargeTrackBench {
    public struct Result: Sendable {
        public var points: Int
        public var listMilliseconds: Double
        public var showMilliseconds: Double
        public var plotMilliseconds: Double
        public var exportMilliseconds: Double
        public var photos: Int
    }

    public static func run(points count: Int = 30_000, executable: String = "/proc/self/exe") -> Result? {
        let directory = "/tmp/lodestone-large-track-bench-\(getpid())"
        removeTree(directory)
        defer { removeTree(directory) }
        let store = TrackStore(dataDirectory: directory)
        guard makeDirectories(store.directory) else { return nil }
        let started = 1_782_028_800.0
        guard let recording = TrackRecording(path: store.recordingPath, name: "Long day", started: started, tags: ["hike"]) else { return nil }
        let photos = PhotoStore(dataDirectory: directory)
        guard let picture = JPEGEncoder.encode(width: 640, height: 480, rgb: (0..<(640 * 480 * 3)).map { UInt8(truncatingIfNeeded: $0 / 7) }) else {
            return nil
        }
        for second in 0..<count {
            let t = Double(second)
            if second % (count / 50) == count / 100, let file = try? photos.save(picture, time: started + t) {
                _ = recording.append(TrackPhoto(file: file, time: started + t, latitude: 46.6 + t * 1.2e-5, longitude: 7.8))
            }
            recording.append(
                TrackPoint(
                    time: started + t, latitude: 46.6 + t * 1.2e-5 + 2e-4 * sin(t / 90), longitude: 7.8 + 3e-4 * cos(t / 70),
                    gpsAltitude: 600 + 900 * sin(t / Double(count) * .pi), baroAltitude: 601 + 900 * sin(t / Double(count) * .pi),
                    pressure: 940, speed: 1.3, accuracy: 4), now: UInt64(second) * 1_000_000_000)
        }
        guard let summary = store.file(recording) else { return nil }
        let clock = SystemMonotonicClock()
        func best(_ arguments: [String]) -> Double? {
            var fastest = Double.infinity
            for _ in 0..<3 {
                let start = clock.now()
                guard let run = runProgram([executable] + arguments + ["--data-dir", directory]), run.status == 0 else { return nil }
                fastest = min(fastest, Double(clock.now() - start) / 1e6)
            }
            return fastest
        }
        guard let list = best(["track", "list"]), let show = best(["track", "show", summary.id]),
            let plot = best(["track", "show", summary.id, "--plot", "--out", directory + "/plot.png"]),
            let export = best(["track", "export", summary.id, "--with-photos", "--out", directory + "/day.tar"])
        else { return nil }
        return Result(
            points: count, listMilliseconds: list, showMilliseconds: show, plotMilliseconds: plot, exportMilliseconds: export,
            photos: store.photos(id: summary.id).count)
    }
}
