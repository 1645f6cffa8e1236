import LodestoneCore
import LodestoneBoard

/// The settings a command other than `run` follows (the largest file `track import` takes):
/// the configuration file it is given with --config, else the installed one when there is one,
/// else the defaults.
extension Configuration {
    public static func commandConfiguration(_ given: String?) throws(ConfigurationError) -> Configuration {
        if let given { return try read(file: given) }
        if fileExists(defaultConfigurationFile) { return try read(file: defaultConfigurationFile) }
        return Configuration()
    }

    /// `trackImportMaxMB` in bytes.
    public var trackImportLimit: Int { Int(rounding: trackImportMaxMB * 1e6, in: 0...Int.max) ?? Int.max }
}
