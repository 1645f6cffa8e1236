import Glibc
import LodestoneCore
import LodestoneRuntime

/// One command: its help text and what runs it.
struct Command {
    let name: String
    /// One line for `lodestone help` and the manual pages.
    let summary: String
    let help: String
    let main: (ArraySlice<String>) throws(UsageError) -> Int32
}

/// Every command, in the order `lodestone help` lists them.
let commands: [Command] = [
    Command(
        name: "run", summary: "sample the sensors and publish heading, position, pressure (default: simulated board)", help: Help.run, main: RunCommand.main),
    Command(name: "watch", summary: "print the live report stream of a running instance, like gpspipe -w", help: Help.watch, main: WatchCommand.main),
    Command(name: "status", summary: "show a running instance's sensor health and scheduler table", help: Help.status, main: StatusCommand.main),
    Command(name: "lock", summary: "lock a bearing to follow (deviation and off-course alerts), or --off", help: LockCommand.lockHelp, main: LockCommand.lock),
    Command(name: "level", summary: "the bubble level, or --zero it on a reference surface", help: LockCommand.levelHelp, main: LockCommand.level),
    Command(
        name: "track", summary: "record tracks (start, pause, resume, stop) and list, show, export (GPX), edit, delete them", help: TrackCommand.help,
        main: TrackCommand.main),
    Command(
        name: "waypoint", summary: "save places, list them by distance, navigate to one, export GPX", help: WaypointCommand.help, main: WaypointCommand.main),
    Command(
        name: "baro", summary: "the barometer's reference (QNH or a known altitude), altitude and weather trend", help: WeatherCommands.baroHelp,
        main: WeatherCommands.baro),
    Command(
        name: "alert", summary: "weather and altitude alerts: list, set (on/off, threshold), history", help: WeatherCommands.alertHelp,
        main: WeatherCommands.alert),
    Command(
        name: "history", summary: "min, max, mean and a graph of pressure, altitude, temperature over 1h to 7d", help: WeatherCommands.historyHelp,
        main: WeatherCommands.history),
    Command(
        name: "log", summary: "logging sessions (start, stop, status) and the stored ones (list, export CSV/JSON)", help: LogCommand.help, main: LogCommand.main
    ),
    Command(
        name: "snapshot", summary: "capture every current value at once; list, show, compare, export (JSON/CSV)", help: SnapshotCommand.help,
        main: SnapshotCommand.main),
    Command(
        name: "photo", summary: "take a photo with the board's camera (with its place in EXIF), list the photos kept", help: PhotoCommand.help,
        main: PhotoCommand.main),
    Command(
        name: "export-all", summary: "everything the device keeps in one archive with a checked manifest (a backup)", help: PersonalDataCommands.exportHelp,
        main: PersonalDataCommands.exportAll),
    Command(
        name: "import-all", summary: "restore an export-all archive, checked first: --merge (default) or --replace", help: PersonalDataCommands.importHelp,
        main: PersonalDataCommands.importAll),
    Command(
        name: "forget-all", summary: "delete every stored record (privacy): forget-all --yes", help: PersonalDataCommands.forgetHelp,
        main: PersonalDataCommands.forgetAll),
    Command(
        name: "sky", summary: "sunrise, sunset, twilights, golden and blue hours and the next season for a place and date", help: SkyCommand.skyHelp,
        main: SkyCommand.sky),
    Command(
        name: "seasons", summary: "the next equinoxes and solstices and the current season's progress", help: SkyCommand.seasonsHelp, main: SkyCommand.seasons),
    Command(
        name: "eclipses", summary: "the next solar and lunar eclipses, and when and how much of each is seen from a place", help: EclipsesCommand.help,
        main: EclipsesCommand.main),
    Command(
        name: "passes", summary: "satellite passes (the ISS by default) from a local TLE file, SGP4/SDP4", help: PassesCommand.help, main: PassesCommand.main),
    Command(
        name: "timetable", summary: "import a GTFS feed (zip or folder) to keep on the device, near a place if asked", help: TimetableCommand.importHelp,
        main: TimetableCommand.importFeed),
    Command(
        name: "departures", summary: "the next departures from a stop of the imported timetable, offline", help: TimetableCommand.departuresHelp,
        main: TimetableCommand.departures),
    Command(
        name: "waves", summary: "the day's ferry waves at a stop or a spot on the shore, the best sessions, how often", help: WavesCommand.help,
        main: WavesCommand.main),
    Command(
        name: "wetsuit", summary: "what to wear in the water, from its temperature, the air's and the wind", help: WetsuitCommand.help,
        main: WetsuitCommand.main),
    Command(
        name: "screenshot", summary: "draw a display page of the simulated device to a PNG file", help: ScreenshotCommand.help, main: ScreenshotCommand.main),
    Command(
        name: "calibrate", summary: "fit the magnetometer's hard- and soft-iron correction (figure-8 calibration)", help: CalibrateCommand.help,
        main: CalibrateCommand.main),
    Command(
        name: "probe", summary: "find the supported sensor chips on an I2C bus and print board-file lines for them", help: Help.probe, main: ProbeCommand.main),
    Command(
        name: "declination", summary: "magnetic declination, inclination and field at a place and date (WMM2025)", help: DeclinationCommand.help,
        main: DeclinationCommand.main),
    Command(name: "nmea", summary: "NMEA 0183 in, gpsd JSON (TPV and SKY) out", help: NMEACommand.help, main: NMEACommand.main),
    Command(
        name: "config", summary: "the settings: every key and flag (keys), a file checked (check), a commented file (example)", help: ConfigCommand.help,
        main: ConfigCommand.main),
    Command(name: "web", summary: "the web app's browsers: pair one (a one-time address), list them, forget one", help: WebCommand.help, main: WebCommand.main),
    Command(name: "docs", summary: "write the manual pages or the docs' reference pages (commands, settings)", help: DocsCommand.help, main: DocsCommand.main),
    Command(
        name: "completion", summary: "shell completion (bash, zsh, fish) of the commands, options and their choices", help: CompletionCommand.help,
        main: CompletionCommand.main),
    Command(
        name: "verify", summary: "run simulated trips and judge what the device publishes against the world's truth", help: VerifyCommand.help,
        main: VerifyCommand.main),
    Command(
        name: "recording", summary: "what a recording holds (info), and a piece of it to attach to a report (cut)", help: RecordingCommand.help,
        main: RecordingCommand.main),
    Command(
        name: "replay", summary: "run the whole device again from a recording (run --record), report for report", help: ReplayCommand.help,
        main: ReplayCommand.main),
    Command(name: "bench", summary: "measure the scheduler, the rings and allocations, and print the figures", help: Help.bench, main: BenchCommand.main)
]

/// Entry point: dispatch to a command; usage errors exit with status 2.
// What the device writes (tracks, logs, positions) is its owner's alone (see PrivateFolder).
umask(0o077)
// A write past the file-size limit (`ulimit -f`, a service's LimitFSIZE=) fails with EFBIG and
// is said like a full disk; the kernel's default for it, SIGXFSZ, would end the process mid-write.
signal(SIGXFSZ, SIG_IGN)
let arguments = CommandLine.arguments
let name = arguments.count > 1 ? arguments[1] : "help"
let rest = arguments.dropFirst(2)

do {
    if name == "version" || name == "--version" {
        print(Version.line)
        exit(0)
    }
    let names = commands.map(\.name) + ["help"]
    /// An unknown command's error: the nearest known one, then all of them.
    func unknown(_ word: String) -> UsageError {
        UsageError(message: "unknown command '\(word)'" + NearestWord.hint(word, among: names) + " (commands: \(names.joined(separator: ", ")))")
    }
    if name == "help" || name == "--help" || name == "-h" {
        guard let asked = rest.first else {
            print(Help.overview)
            exit(0)
        }
        guard let command = commands.first(where: { $0.name == asked }) else { throw unknown(asked) }
        print(command.help)
        exit(0)
    }
    guard let command = commands.first(where: { $0.name == name }) else { throw unknown(name) }
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        exit(0)
    }
    exit(try command.main(rest))
} catch let error as UsageError {
    Log.write("lodestone: " + error.message)
    exit(2)
}
