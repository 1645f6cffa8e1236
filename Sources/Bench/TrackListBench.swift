import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneStorage

/// How long `lodestone track list` takes with a full data directory: 1,000 stored tracks,
/// filed by the same code as a real recording, then listed and searched (best of 5 runs each,
/// wall time in milliseconds).
public enum TrackListBench {
    public struct Result: Sendable {
        public var tracks: Int
        public var listMilliseconds: Double
        public var searchMilliseconds: Double
        public var found: Int
    }

    public static func run(tracks count: Int = 1000) -> Result? {
        let directory = "/tmp/lodestone-track-bench-\(getpid())"
        defer { removeTree(directory) }
        let store = TrackStore(dataDirectory: directory)
        guard makeDirectories(store.directory) else { return nil }
        let names = ["Ridge walk", "Harbour sail", "Morning run", "Lake loop", "Forest trail"]
        for index in 0..<count {
            let started = 1_750_000_000 + Double(index) * 86_400
            guard
                let recording = TrackRecording(
                    path: store.recordingPath, name: names[index % names.count] + " \(index)",
                    started: started, tags: index % 3 == 0 ? ["hike"] : ["sail"])
            else { return nil }
            for second in 0..<20 {
                recording.append(
                    TrackPoint(
                        time: started + Double(second) * 5, latitude: 47 + Double(second) * 1e-4, longitude: 8,
                        gpsAltitude: 400, speed: 1.4), now: 0)
            }
            guard store.file(recording) != nil else { return nil }
        }
        let clock = SystemMonotonicClock()
        func best(_ body: () -> Int) -> (Double, Int) {
            var fastest = Double.infinity, found = 0
            for _ in 0..<5 {
                let start = clock.now()
                found = body()
                fastest = min(fastest, Double(clock.now() - start) / 1e6)
            }
            return (fastest, found)
        }
        let list = best { store.list().count }
        let search = best { store.list(TrackStore.Query(text: "ridge", tag: "hike", minimumDistance: 100, order: .longest)).count }
        return Result(tracks: count, listMilliseconds: list.0, searchMilliseconds: search.0, found: search.1)
    }
}
