import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// A stored track as the track page draws it: its figures, its path, its profile and splits,
/// its photos' places and the saved waypoints within 2 km of its end. What `track show --plot`,
/// `track card` and the web app's card draw.
public enum StoredTrackPanel {
    public struct Loaded {
        public var panel: DisplayModel.TrackPanel
        /// When it started (Unix seconds; NaN for a track brought in without times).
        public var started: Double
        /// What the store said of a damaged file, kept in part.
        public var warning: String?
    }

    /// nil when there is no such track; a track without a place in it has an empty path.
    public static func load(id: String, store: TrackStore, dataDirectory: String) -> Loaded? {
        guard let track = store.loadWithPhotos(id: id) else { return nil }
        let statistics = TrackStatistics.of(track.points)
        var panel = DisplayModel.TrackPanel()
        panel.state = "stored"
        let summary = try? store.summary(id: id)
        panel.name = summary?.name ?? track.name
        (panel.points, panel.distance, panel.elapsed, panel.movingTime) = (statistics.points, statistics.distance, statistics.totalTime, statistics.movingTime)
        (panel.elevationGain, panel.elevationLoss) = (statistics.elevationGain, statistics.elevationLoss)
        panel.averageSpeed = statistics.movingTime > 0 ? statistics.distance / statistics.movingTime : .nan
        panel.profile = statistics.profile.map(\.altitude)
        panel.splits = statistics.splits
        panel.path = track.points.filter { $0.latitude.isFinite && $0.longitude.isFinite }.map { ($0.latitude, $0.longitude) }
        panel.photos = track.photos.filter(\.hasPlace).map { ($0.latitude, $0.longitude) }
        if let end = panel.path.last {
            panel.waypoints = Navigation.sorted(WaypointStore(dataDirectory: dataDirectory).load(), latitude: end.latitude, longitude: end.longitude)
                .filter { $0.distance < 2_000 }.prefix(5).map { ($0.waypoint.name, $0.waypoint.latitude, $0.waypoint.longitude) }
        }
        let started = summary?.started ?? track.points.first?.time ?? .nan
        return Loaded(panel: panel, started: started, warning: track.warning)
    }
}
