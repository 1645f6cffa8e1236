import LodestoneCore
import LodestoneOutputs
import LodestoneDomain
import LodestoneRuntime
import LodestoneSim
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

enum RunCommand {
    /// Every setting with a flag, from the settings table, and `--config`.
    static let spec = OptionSpec(
        valued: Set(Setting.all.compactMap { $0.flagSets == nil ? $0.flag : nil } + ["config"]),
        flags: Set(Setting.all.compactMap { $0.flagSets != nil ? $0.flag : nil }))

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: spec, command: "run")
        guard options.positional.isEmpty else {
            throw UsageError(message: "'run' takes no arguments, found '\(options.positional[0])' (see 'lodestone run --help')")
        }
        var configuration = Configuration()
        let configFile =
            options.values["config"]
            ?? (fileExists(Configuration.defaultConfigurationFile) ? Configuration.defaultConfigurationFile : nil)
        if let configFile {
            // A file that contradicts itself is the file's error (exit 1, named); one that the
            // command line makes contradictory is a usage error (exit 2).
            do { configuration = try Configuration.read(file: configFile) } catch {
                Log.error(error.description)
                return 1
            }
        }
        try apply(options, to: &configuration)
        do { try configuration.validate() } catch { throw UsageError(message: error.description) }
        // SIGHUP reads the same file again, with the same command line over it.
        let reload: ConfigurationReload? = configFile.map { file in
            {
                var fresh: Configuration
                do { fresh = try Configuration.read(file: file) } catch {
                    return .failure(ConfigurationReloadError(String(describing: error)))
                }
                do { try apply(options, to: &fresh) } catch let error as UsageError {
                    return .failure(ConfigurationReloadError(error.message))
                } catch {
                    return .failure(ConfigurationReloadError(String(describing: error)))
                }
                do { try fresh.validate() } catch { return .failure(ConfigurationReloadError(String(describing: error))) }
                return .success(fresh)
            }
        }
        return Runner.run(configuration, reload: reload)
    }

    /// Command-line options override the configuration file; each is checked as the file's
    /// key is, by the settings table.
    static func apply(_ o: Options, to c: inout Configuration) throws(UsageError) {
        for setting in Setting.all {
            guard let flag = setting.flag else { continue }
            let value: JSONValue, given: String
            if let sets = setting.flagSets {
                guard o.flags.contains(flag) else { continue }
                (value, given) = (sets, "")
            } else {
                guard let text = o.values[flag] else { continue }
                (value, given) = (setting.value(fromCommandLine: text), text)
            }
            guard let problem = setting.apply(value, to: &c) else { continue }
            if problem.key == setting.key, problem.text.hasPrefix("must be \(setting.expected),") {
                throw UsageError(message: "--\(flag) must be \(RunHelp.commandLine(setting.expected)), not '\(given)'")
            }
            throw UsageError(message: "--\(flag): \(problem.text)")
        }
        // The display settings the command line gave win over the choice a key saved.
        if o.values["units"] != nil { c.commandLineDisplay.insert("units") }
        if o.values["theme"] != nil { c.commandLineDisplay.insert("theme") }
    }
}
