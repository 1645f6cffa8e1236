import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneStorage

/// `lodestone calibrate accel --from FILE.csv`: the six-position fit, apart from printing so it
/// can be tested.
enum AccelerometerCommand {
    static func offline(path: String, json: Bool, store: CalibrationStore?) -> (output: String, status: Int32) {
        let text: String
        do { text = try readTextFile(path, limit: 32 << 20) } catch { return failed(error.description, json: json) }
        var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        guard let header = lines.first else { return failed("\(path) is empty", json: json) }
        lines.removeFirst()
        let names = header.split(separator: ",").map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard let x = names.firstIndex(of: "ax"), let y = names.firstIndex(of: "ay"), let z = names.firstIndex(of: "az") else {
            return failed("the header must name columns ax, ay, az (in g)", json: json)
        }
        var readings: [Vector3] = []
        for line in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > max(x, y, z),
                let ax = Double(fields[x].trimmingCharacters(in: " \t")), let ay = Double(fields[y].trimmingCharacters(in: " \t")),
                let az = Double(fields[z].trimmingCharacters(in: " \t"))
            else { continue }
            readings.append(Vector3(ax, ay, az))
        }
        switch AccelerometerCalibration.fit(readings: readings) {
        case .failure(let failure):
            return failed(failure.description, json: json)
        case .success(let calibration):
            var saved = ""
            if let store {
                do { try store.save(calibration) } catch { return failed(error.message, json: json) }
                saved = "saved in \(store.directory)/accelerometer.json\n"
            }
            if json {
                var w = JSONObjectWriter()
                w.string("status", "ok")
                w.null("reason")
                w.raw("offset", CalibrationJSON.array(calibration.offset, decimals: 5))
                w.raw("scale", CalibrationJSON.array(calibration.scale, decimals: 5))
                return (w.finished + "\n", 0)
            }
            let o = calibration.offset, s = calibration.scale
            return (
                "accelerometer calibrated\noffset  \(fixed(o.x, 4)) \(fixed(o.y, 4)) \(fixed(o.z, 4)) g\n"
                    + "scale   \(fixed(s.x, 4)) \(fixed(s.y, 4)) \(fixed(s.z, 4))\n" + saved, 0
            )
        }
    }

    static func failed(_ reason: String, json: Bool) -> (output: String, status: Int32) {
        guard json else { return ("calibration failed: \(reason)\n", 1) }
        var w = JSONObjectWriter()
        w.string("status", "failed")
        w.string("reason", reason)
        w.null("offset")
        w.null("scale")
        return (w.finished + "\n", 1)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
