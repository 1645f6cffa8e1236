import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// The accelerometer's six-position calibration in `<dataDir>/calibration/accelerometer.json`,
/// beside the magnetometer's, in g: `{"version":1,"sensor":"accelerometer","offset":[..],"scale":[..]}`.
extension CalibrationStore {
    public func save(_ calibration: AccelerometerCalibration) throws(CalibrationFileError) {
        guard makeDirectories(directory), let path = path(sensor: "accelerometer") else {
            throw CalibrationFileError(message: "cannot create \(directory)")
        }
        var w = JSONObjectWriter()
        w.integer("version", 1)
        w.string("sensor", "accelerometer")
        w.raw("offset", CalibrationJSON.array(calibration.offset, decimals: 6))
        w.raw("scale", CalibrationJSON.array(calibration.scale, decimals: 6))
        guard writeFileAtomically(path, Array((w.finished + "\n").utf8)) else {
            throw CalibrationFileError(message: "cannot write \(path)")
        }
    }

    /// The stored accelerometer calibration, or nil (with a warning when a file is unusable).
    public func loadAccelerometer() -> AccelerometerCalibration? {
        guard let path = path(sensor: "accelerometer"), fileExists(path) else { return nil }
        do {
            let root = try JSONValue.parse(try readStoreText(path, limit: 16 * 1024))
            let calibration = AccelerometerCalibration(
                offset: try CalibrationJSON.vector(root["offset"], "offset"),
                scale: try CalibrationJSON.vector(root["scale"], "scale"))
            guard [calibration.scale.x, calibration.scale.y, calibration.scale.z].allSatisfy({ $0 > 0.8 && $0 < 1.25 }),
                calibration.offset.length < 0.5
            else {
                throw CalibrationFileError(message: "values out of range")
            }
            return calibration
        } catch {
            Log.warning("calibration \(path) ignored: \(error); calibrate again ('lodestone calibrate accel --from FILE.csv --save')")
            return nil
        }
    }
}
