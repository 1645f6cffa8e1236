import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// Everything the display pages show, gathered from the reports (`DisplayFeed`) once per
/// redraw. Plain values: a page is a pure function of this model and the screen size, so the
/// terminal, the framebuffer, `lodestone screenshot` and the tests all draw the same thing.
public struct DisplayModel: Sendable {
    /// The instruments' readings, from the newest ATT, TPV, ENV and HEALTH.
    public var state = Reading()
    /// The device's name for the header ("sim", a board file's name).
    public var title = "lodestone"
    /// The local time of day for the header, "14:32".
    public var clock: String?
    public var units = Units.metric
    /// The language of the pages' words (the `language` setting), from the one table of words.
    public var language = Language.en
    /// The main heading's north (the configuration's `north`, the `m` key).
    public var north = HeadingReference.true
    public var compass = CompassPanel()
    public var position = PositionPanel()
    public var level = LevelPanel()
    public var weather: WeatherPanel?
    /// The weather station: wind and the temperature probes.
    public var station: StationPanel?
    public var sky: SkyPanel?
    /// The sky chart: what is up over the observer now.
    public var chart: SkyChart?
    public var track: TrackPanel?
    /// The next departures from the favourite or the nearest stop (with a timetable imported).
    public var departures: DeparturesPanel?
    /// The day's waves at the favourite or the nearest stop (with a timetable imported).
    public var waves: WavesPanel?
    /// The day on foot (with the step counter).
    public var day: DayPanel?
    /// The web app's pairing address, on the connect page.
    public var connect: ConnectPanel?
    public var health = HealthPanel()
    /// The way to a waypoint being navigated to.
    public var navigation: NavigationPanel?
    /// The newest alert while it is recent.
    public var alert: String?

    public init() {}

    /// The track page's figures and the departures page's list come as the services' panel
    /// reports.
    public typealias TrackPanel = LodestoneReports.TrackPanel
    public typealias DeparturesPanel = LodestoneReports.DeparturesPanel
    public typealias WavesPanel = LodestoneReports.WavesPanel
    public typealias ConnectPanel = LodestoneReports.ConnectPanel

    /// What the instruments read: the heading (smoothed for reading), the fix the last TPV
    /// carried, the barometric altitude and each sensor's health. Unknown is NaN or nil.
    public struct Reading: Sendable {
        public var attitude: TiltCompensatedHeading?
        public var trueHeading: Double?
        public var headingAccuracy = Double.nan
        public var declination: Double?
        public var magneticInterference = false
        public var fix = GPSFix()
        public var barometricAltitude = Double.nan
        public var imuHealth = SensorHealth.absent
        public var magnetometerHealth = SensorHealth.absent
        public var barometerHealth = SensorHealth.absent
        public var gpsHealth = SensorHealth.absent
        /// GPS sentences refused as impossible, and why the last one was.
        public var gpsRejected = 0
        public var gpsRejectedReason: ImpossibleGPSField?
        public init() {}
    }

    public struct CompassPanel: Sendable {
        /// The calibration's status (uncalibrated, inProgress, good, poor) and a guided
        /// calibration's progress 0...1.
        public var calibration: CalibrationStatus?
        public var calibrationProgress = 0.0
        /// A boat's compass calibrates by a slow full circle (a swing), not by figure-8s;
        /// `swingTurned` is how far a guided swing has come, in degrees.
        public var calibratesBySwing = false
        public var swingTurned: Double?
        public var lockedBearing: Double?
        /// Heading minus the locked bearing, -180...180 (positive: right of the bearing).
        public var deviation: Double?
        public var offCourse = false
        /// Today's steps (across restarts), and floors climbed and descended today.
        public var steps: Int?
        public var floors: (up: Int, down: Int)?
        public init() {}
    }

    /// The day on foot: steps, distance, floors and active time today (across restarts), and
    /// how the person moves now.
    public struct DayPanel: Sendable {
        public var steps = 0
        public var distance = 0.0
        public var floorsUp = 0, floorsDown = 0
        public var activeSeconds = 0.0
        /// Steps a minute now, and the motion's code ("walking", "running", "still"...).
        public var cadence = 0.0
        public var state = ""
        /// The day's steps by local hour, 0 to 23 (empty when the device keeps no day), and the
        /// local hour now.
        public var stepsByHour: [Int] = []
        public var hourNow: Int?
        public var twelveHour = false
        public init() {}
    }

    public struct PositionPanel: Sendable {
        /// 0...100, and what a person can act on (each warning's advice is in the table of words).
        public var confidence: Int?
        public var warnings: [FixQuality.Warning] = []
        public init() {}
    }

    public struct LevelPanel: Sendable {
        /// Roll and pitch from the level's zero, and whether it reads level.
        public var roll = Double.nan
        public var pitch = Double.nan
        public var isLevel = false
        public init() {}
    }

    public struct WeatherPanel: Sendable {
        public var stationPressure = Double.nan
        public var seaLevelPressure = Double.nan
        public var fusedAltitude = Double.nan
        public var temperature = Double.nan
        /// "↑", the rate in hPa/h and the trend's band ("fallingFast", its words and forecast
        /// from the table of words); nil before 30 minutes of data.
        public var trendArrow: String?
        public var trendRate = Double.nan
        public var trendBand: String?
        public var threeHourChange: Double?
        /// Sea-level pressure over each history range ("1h", "6h", "24h", "7d"), NaN for gaps.
        public var graphs: [(label: String, values: [Double])] = []
        public init() {}
    }

    public struct StationPanel: Sendable {
        /// The wind now (3 s mean), its 10-minute mean and gust (m/s), and the mean direction
        /// (degrees true; nil when calm or variable).
        public var windNow: Double?, windMean: Double?, windGust: Double?, windDirection: Double?
        /// Each probe by its name, °C.
        public var temperatures: [(name: String, celsius: Double)] = []
        public var problems: [String] = []
        /// What to wear in the water, when the water is measured: `Wetsuit`'s step, 0 to 5
        /// (its words from the table of words, "3/2 mm").
        public var wetsuit: Int?
        /// The Zambretti forecast for the next 12 hours, by the card's letter ("B": its sentence,
        /// "Fine weather", from the table of words; the letter is never shown).
        public var outlook: String?
        public init() {}
    }

    public struct NavigationPanel: Sendable {
        public var waypoint: String
        public var distance: Double
        public var bearing: Double
        /// The turn to make from the current heading, degrees, positive to the right.
        public var relativeBearing: Double?
        public var eta: Double?
        /// Taking the person back along the track: the distance left to the start, and off track.
        public var remaining: Double?
        public var offTrack = false
        public init(waypoint: String, distance: Double, bearing: Double, relativeBearing: Double?, eta: Double?) {
            self.waypoint = waypoint
            self.distance = distance
            self.bearing = bearing
            self.relativeBearing = relativeBearing
            self.eta = eta
        }
    }

    public struct HealthPanel: Sendable {
        public var profile: String?
        public var clients = 0
        public var loop: LoopStatistics?
        public var tasks: [TaskLine] = []
        /// The newest log lines (held while the terminal display runs).
        public var log: [String] = []
        /// Why each failing sensor fails.
        public var problems = SensorProblemTexts()
        public init() {}
    }
}
