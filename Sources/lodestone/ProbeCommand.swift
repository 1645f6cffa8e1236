import LodestoneCore
import LodestoneRuntime
import LodestoneReports

enum ProbeCommand {
    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["bus"], flags: ["json"]), command: "probe")
        let bus = options.values["bus"] ?? "1"
        let report: Probe.Report
        if bus == "sim" {
            report = Probe.simulated()
        } else {
            guard bus.hasPrefix("/") || Int(bus) != nil else {
                throw UsageError(message: "--bus takes a bus number (1 for /dev/i2c-1), a device path, or sim")
            }
            do { report = try Probe.linux(bus: bus) } catch {
                Log.error(error.description)
                return 1
            }
        }
        writeOut((options.flags.contains("json") ? Probe.json(report) : Probe.text(report)) + "\n")
        return 0
    }
}
