import Glibc
import LodestoneCore
import LodestoneDomain

/// Calibration files under the data directory: `<dataDir>/calibration/<sensor>.json`, one per
/// sensor, replaced atomically so a power cut during a save leaves the old file whole.
public struct CalibrationStore: Sendable {
    public enum Loaded: Equatable, Sendable {
        /// No file: the sensor has never been calibrated here.
        case none
        case loaded(MagnetometerCalibration)
        /// A file is there but cannot be used; the message says which file and why.
        case refused(String)
    }

    public let directory: String

    public init(dataDirectory: String) {
        directory = (dataDirectory.hasSuffix("/") ? String(dataDirectory.dropLast()) : dataDirectory) + "/calibration"
    }

    /// Sensor names become file names, so only letters, digits, '-', '_' and '.' (not leading)
    /// are allowed: no way out of the directory.
    public static func isValidSensorName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "."
        }
    }

    public func path(sensor: String) -> String? {
        CalibrationStore.isValidSensorName(sensor) ? directory + "/" + sensor + ".json" : nil
    }

    public func save(_ calibration: MagnetometerCalibration, sensor: String) throws(CalibrationFileError) {
        guard let path = path(sensor: sensor) else {
            throw CalibrationFileError(message: "'\(sensor)' is not a usable sensor name (letters, digits, -, _ and . only)")
        }
        guard makeDirectories(directory) else {
            throw CalibrationFileError(message: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        guard writeFileAtomically(path, Array(CalibrationJSON.file(calibration, sensor: sensor).utf8)) else {
            throw CalibrationFileError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    public func load(sensor: String) -> Loaded {
        guard let path = path(sensor: sensor) else { return .refused("'\(sensor)' is not a usable sensor name") }
        guard fileExists(path) else { return .none }
        let text: String
        do { text = try readStoreText(path, limit: 64 * 1024) } catch { return .refused(error.description) }
        do {
            return .loaded(try CalibrationJSON.decode(text))
        } catch {
            return .refused("calibration \(path) ignored: \(error.message); calibrate the sensor again ('lodestone calibrate mag')")
        }
    }

    /// The stored calibration, or nil (logging why when a file was there but unusable), for
    /// starting the runtime: a bad file means running uncalibrated, never failing to start.
    public func loadLogging(sensor: String) -> MagnetometerCalibration? {
        switch load(sensor: sensor) {
        case .none: return nil
        case .loaded(let calibration): return calibration
        case .refused(let message):
            Log.warning(message)
            return nil
        }
    }
}
