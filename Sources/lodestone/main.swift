import Glibc
import LodestoneRuntime

/// Entry point: dispatch to a command; usage errors exit with status 2.
let arguments = CommandLine.arguments
let command = arguments.count > 1 ? arguments[1] : "help"
let rest = arguments.dropFirst(2)

func wantsHelp(_ rest: ArraySlice<String>) -> Bool { rest.contains("--help") || rest.contains("-h") }

do {
    let status: Int32
    switch command {
    case "run":
        if wantsHelp(rest) { print(Help.run); exit(0) }
        status = try RunCommand.main(rest)
    case "watch":
        if wantsHelp(rest) { print(Help.watch); exit(0) }
        status = try WatchCommand.main(rest)
    case "status":
        if wantsHelp(rest) { print(Help.status); exit(0) }
        status = try StatusCommand.main(rest)
    case "bench":
        if wantsHelp(rest) { print(Help.bench); exit(0) }
        status = try BenchCommand.main(rest)
    case "probe":
        if wantsHelp(rest) { print(Help.probe); exit(0) }
        status = try ProbeCommand.main(rest)
    case "declination":
        if wantsHelp(rest) { print(DeclinationCommand.help); exit(0) }
        status = try DeclinationCommand.main(rest)
    case "nmea":
        if wantsHelp(rest) { print(NMEACommand.help); exit(0) }
        status = try NMEACommand.main(rest)
    case "lock":
        if wantsHelp(rest) { print(LockCommand.lockHelp); exit(0) }
        status = try LockCommand.lock(rest)
    case "level":
        if wantsHelp(rest) { print(LockCommand.levelHelp); exit(0) }
        status = try LockCommand.level(rest)
    case "calibrate":
        if wantsHelp(rest) { print(CalibrateCommand.help); exit(0) }
        status = try CalibrateCommand.main(rest)
    case "help", "--help", "-h":
        switch rest.first {
        case "run": print(Help.run)
        case "watch": print(Help.watch)
        case "status": print(Help.status)
        case "bench": print(Help.bench)
        case "probe": print(Help.probe)
        case "declination": print(DeclinationCommand.help)
        case "calibrate": print(CalibrateCommand.help)
        case "lock": print(LockCommand.lockHelp)
        case "nmea": print(NMEACommand.help)
        case "level": print(LockCommand.levelHelp)
        default: print(Help.overview)
        }
        status = 0
    default:
        throw UsageError(message: "unknown command '\(command)'; commands: run, watch, status, lock, level, calibrate, probe, declination, nmea, bench, help")
    }
    exit(status)
} catch let error as UsageError {
    Log.write("lodestone: " + error.message)
    exit(2)
}
