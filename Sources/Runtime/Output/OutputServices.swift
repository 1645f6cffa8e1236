import LodestoneCore
import LodestoneServices
/// The services on the output thread, each there when the board and the configuration have
/// what it needs: they turn samples into reports; the output loop runs them from its task
/// table and hands their reports to the adapters.
///
/// A class: the loop's tasks take it dozens of times a tick, and a struct of fourteen
/// references was copied whole each time, a retain and a release per service.
final class OutputServices {
    /// The device's one zone and clock, for every face (`timeZone`, `clock`).
    let localClock: LocalClock
    /// The zone in force by name and where it came from, and the one while `timeZone` is null
    /// (a phone's, the simulated scenario's place's, or the system's).
    var zone = DeviceZone.Choice(name: nil, source: .system)
    var unsetZone = DeviceZone.Choice(name: nil, source: .system)
    var controls: Controls?
    var compass: CompassService?
    var motion: MotionService?
    var positions: PositionService?
    var tracks: TrackService?
    var waypoints: WaypointService?
    var chronicle: Chronicle?
    var sky: SkyService?
    /// Steps and floors per local day, across restarts (with an IMU).
    var activity: DailyActivity?
    /// A satellite's visible passes, announced before they begin (with a TLE file configured).
    var satellites: SatelliteService?
    /// The imported timetable's departures and reminders (once a timetable is imported).
    var transit: TransitService?
    /// The weather station's wind and temperature probes (when the board has them).
    var station: StationService?
    /// The camera's shutter (when the board names a camera).
    var photos: PhotoService?

    init(
        controls: Controls? = nil, compass: CompassService? = nil, motion: MotionService? = nil, positions: PositionService? = nil,
        tracks: TrackService? = nil, waypoints: WaypointService? = nil, chronicle: Chronicle? = nil, sky: SkyService? = nil,
        activity: DailyActivity? = nil, satellites: SatelliteService? = nil, transit: TransitService? = nil, station: StationService? = nil,
        photos: PhotoService? = nil, localClock: LocalClock = LocalClock(zone: .utc)
    ) {
        self.localClock = localClock
        (self.controls, self.compass, self.motion, self.positions, self.tracks, self.waypoints, self.chronicle) = (
            controls, compass, motion, positions, tracks, waypoints, chronicle
        )
        (self.sky, self.activity, self.satellites, self.transit, self.station, self.photos) = (sky, activity, satellites, transit, station, photos)
    }
}
