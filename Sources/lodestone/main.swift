import Glibc
import LodestoneCore
import LodestoneRuntime

/// One command: its help text and what runs it.
struct Command {
    let name: String
    let help: String
    let main: (ArraySlice<String>) throws(UsageError) -> Int32
}

/// Every command, in the order `lodestone help` lists them.
let commands: [Command] = [
    Command(name: "run", help: Help.run, main: RunCommand.main),
    Command(name: "watch", help: Help.watch, main: WatchCommand.main),
    Command(name: "status", help: Help.status, main: StatusCommand.main),
    Command(name: "lock", help: LockCommand.lockHelp, main: LockCommand.lock),
    Command(name: "level", help: LockCommand.levelHelp, main: LockCommand.level),
    Command(name: "track", help: TrackCommand.help, main: TrackCommand.main),
    Command(name: "waypoint", help: WaypointCommand.help, main: WaypointCommand.main),
    Command(name: "baro", help: WeatherCommands.baroHelp, main: WeatherCommands.baro),
    Command(name: "alert", help: WeatherCommands.alertHelp, main: WeatherCommands.alert),
    Command(name: "history", help: WeatherCommands.historyHelp, main: WeatherCommands.history),
    Command(name: "log", help: LogCommand.help, main: LogCommand.main),
    Command(name: "snapshot", help: SnapshotCommand.help, main: SnapshotCommand.main),
    Command(name: "photo", help: PhotoCommand.help, main: PhotoCommand.main),
    Command(name: "export-all", help: PersonalDataCommands.exportHelp, main: PersonalDataCommands.exportAll),
    Command(name: "import-all", help: PersonalDataCommands.importHelp, main: PersonalDataCommands.importAll),
    Command(name: "forget-all", help: PersonalDataCommands.forgetHelp, main: PersonalDataCommands.forgetAll),
    Command(name: "sky", help: SkyCommand.skyHelp, main: SkyCommand.sky),
    Command(name: "seasons", help: SkyCommand.seasonsHelp, main: SkyCommand.seasons),
    Command(name: "eclipses", help: EclipsesCommand.help, main: EclipsesCommand.main),
    Command(name: "passes", help: PassesCommand.help, main: PassesCommand.main),
    Command(name: "timetable", help: TimetableCommand.importHelp, main: TimetableCommand.importFeed),
    Command(name: "departures", help: TimetableCommand.departuresHelp, main: TimetableCommand.departures),
    Command(name: "waves", help: WavesCommand.help, main: WavesCommand.main),
    Command(name: "wetsuit", help: WetsuitCommand.help, main: WetsuitCommand.main),
    Command(name: "screenshot", help: ScreenshotCommand.help, main: ScreenshotCommand.main),
    Command(name: "calibrate", help: CalibrateCommand.help, main: CalibrateCommand.main),
    Command(name: "probe", help: Help.probe, main: ProbeCommand.main),
    Command(name: "declination", help: DeclinationCommand.help, main: DeclinationCommand.main),
    Command(name: "nmea", help: NMEACommand.help, main: NMEACommand.main),
    Command(name: "config", help: ConfigCommand.help, main: ConfigCommand.main),
    Command(name: "web", help: WebCommand.help, main: WebCommand.main),
    Command(name: "completion", help: CompletionCommand.help, main: CompletionCommand.main),
    Command(name: "verify", help: VerifyCommand.help, main: VerifyCommand.main),
    Command(name: "bench", help: Help.bench, main: BenchCommand.main),
]

/// Entry point: dispatch to a command; usage errors exit with status 2.
// What the device writes (tracks, logs, positions) is its owner's alone (see PrivateFolder).
umask(0o077)
let arguments = CommandLine.arguments
let name = arguments.count > 1 ? arguments[1] : "help"
let rest = arguments.dropFirst(2)

do {
    if name == "version" || name == "--version" {
        print(Version.line)
        exit(0)
    }
    if name == "help" || name == "--help" || name == "-h" {
        print(commands.first { $0.name == rest.first }?.help ?? Help.overview)
        exit(0)
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        throw UsageError(message: "unknown command '\(name)'; commands: \(commands.map(\.name).joined(separator: ", ")), help")
    }
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        exit(0)
    }
    exit(try command.main(rest))
} catch let error as UsageError {
    Log.write("lodestone: " + error.message)
    exit(2)
}
