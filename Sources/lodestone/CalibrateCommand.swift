import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

enum CalibrateCommand {
    static let help = """
        Usage: lodestone calibrate mag --from FILE.csv [--swing] [--lat L --lon L] [--json]
               lodestone calibrate mag [--swing|--figure8] [--socket PATH] [--json]

        Fits a magnetometer calibration (hard-iron offset and soft-iron matrix) and says whether
        it is good enough for a compass, and if not, what to do. It is judged by the heading it
        gives where the compass is read: within 30 degrees of level for a handheld (a figure-8
        that never turns the device face down is enough), within 15 degrees of heel for a boat.
        The fit holds what the turning did not show to what is known: the soft iron near round,
        the field's dip near the World Magnetic Model's at --lat/--lon (or at the fix, live).

        --swing calibrates a compass fixed to a boat from a swing: one slow, steady full circle
        (heel under 15 degrees), as no figure-8 is possible. The horizontal offset and soft iron
        come from the circle, the vertical offset from the field's dip (give --lat and --lon
        offline; live, the fix gives them). Live, without --swing or --figure8, the running device
        asks for the kind its configuration's "use" calls for: "boat" swings, the others trace
        figure-8s; the words and the percentage follow the motion asked, and the percentage never
        goes back.

        With --from, fits readings recorded to a CSV file. The header names the columns, in any
        order: t (seconds, optional), mx, my, mz (microtesla, sensor axes) and optionally ax, ay, az
        (accelerometer, g), which give the real field dip for the heading-error estimate. Lines
        that cannot be read are counted and skipped. Record while tracing slow figure 8s and
        rolling the device over, face up and face down, away from steel and electronics.

        Without --from, runs the live guided calibration on a running 'lodestone run': it prints
        the coverage as it fills and which directions are still missing, then the result. A
        good calibration is saved in the data directory and used at once and at every start.
        Lodestone also refines the calibration in the background as the device moves, adopting
        a new fit only when it is clearly better.

        Options:
          --from FILE.csv    recorded readings to fit offline
          --swing            a boat's swing instead of a figure-8
          --figure8          figure-8s, whatever the device's use (live)
          --lat L, --lon L   where the readings were taken (degrees; both or neither): the
                             model's field strength and dip there hold what the turning
                             cannot show (a swing needs them)
          --socket PATH      the running instance (default as 'lodestone run')
          --json             print one JSON line: {"status":"ok"|"failed","reason":...,
                             "mode":"figure8"|"swing","offset":[x,y,z],"softIron":[[..],[..],[..]],
                             "fieldStrength":...,"residualRMS":...,"coverage":0..1,
                             "expectedHeadingError":...,"headingUncertainty":...,"turned":...}
                             (microtesla, degrees; "turned" is the degrees of the swing seen, null
                             for a figure-8); calibrated = softIron x (raw - offset)

        lodestone calibrate accel --from FILE.csv [--json] [--save] [--data-dir DIR] fits the
        accelerometer's offset and scale per axis from six still positions, each face of the
        device pointing down in turn for a couple of seconds (columns ax, ay, az in g; moving
        readings are ignored). It prints {"status","reason","offset":[x,y,z],"scale":[x,y,z]}
        (calibrated = (raw - offset) x scale, per axis); --save stores it in the data directory,
        where 'lodestone run' loads it at start.

        Exit status: 0 calibration good, 1 calibration refused or the file unusable (the reason
        is printed), 2 usage error.
        """

    static let sensors = ["mag", "accel"]

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["from", "socket", "data-dir", "lat", "lon"], flags: ["json", "save", "swing", "figure8"]), command: "calibrate"
        )
        guard let sensor = options.positional.first else {
            throw UsageError(message: "calibrate which sensor? 'lodestone calibrate mag --from FILE.csv' (see 'lodestone calibrate --help')")
        }
        guard sensors.contains(sensor) else {
            throw UsageError(message: "cannot calibrate '\(sensor)'; sensors: \(sensors.joined(separator: ", "))")
        }
        guard options.positional.count == 1 else {
            throw UsageError(message: "unexpected '\(options.positional[1])' (see 'lodestone calibrate --help')")
        }
        let json = options.flags.contains("json")
        if sensor == "accel" {
            guard let path = options.values["from"] else {
                throw UsageError(message: "calibrate accel needs --from FILE.csv: six still positions, one per face (see 'lodestone calibrate --help')")
            }
            let store =
                options.flags.contains("save")
                ? CalibrationStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory()) : nil
            let result = AccelerometerCommand.offline(path: path, json: json, store: store)
            writeOut(result.output)
            return result.status
        }
        if options.flags.contains("swing") && options.flags.contains("figure8") { throw UsageError(message: "--swing or --figure8, not both") }
        // Live, without either: the kind the device's "use" asks for (a boat swings).
        let asked: CalibrationMode? = options.flags.contains("swing") ? .swing : options.flags.contains("figure8") ? .figure8 : nil
        let mode = asked ?? .figure8
        let latitude = try options.number("lat", in: DeclinationCommand.latitudeRange)
        let longitude = try options.number("lon", in: DeclinationCommand.longitudeRange)
        guard (latitude == nil) == (longitude == nil) else {
            throw UsageError(message: "give both --lat and --lon (degrees), or neither")
        }
        guard let path = options.values["from"] else {
            guard latitude == nil else {
                throw UsageError(message: "--lat and --lon are for --from: live, the running instance takes the field from its fix")
            }
            return live(socket: options.values["socket"] ?? Configuration.clientSocketPath(), json: json, mode: asked)
        }
        var field: (strength: Double, dip: Double)?
        if let latitude, let longitude {
            let model = WorldMagneticModel.wmm2025.field(
                latitude: latitude, longitude: longitude,
                decimalYear: DeclinationCommand.currentDecimalYear())
            field = (model.totalIntensity / 1000, model.inclination)
        }
        let result = offline(path: path, json: json, mode: mode, field: field)
        writeOut(result.output)
        return result.status
    }

    /// The live guided calibration against a running instance: asks it to start, then prints
    /// its calibration EVENTs until one says the session ended.
    static func live(socket: String, json: Bool, mode: CalibrationMode?) -> Int32 {
        let client: ReportClient
        do { client = try ReportClient(path: socket) } catch {
            Log.error(error.description)
            return 1
        }
        var watch = WatchOptions()
        (watch.enabled, watch.json) = (true, true)
        client.send(watch.text + CalibrateRequest.start(mode).text)
        // The device's first EVENT says the motion it asks for (a figure-8, or a boat's swing);
        // the percentage never goes back (the device holds it).
        var lastShown = ""
        while let line = client.readLine(timeoutMilliseconds: 10_000) {
            guard line.contains(#""event":"calibration""#), let report = try? JSONValue.parse(line) else { continue }
            let status = report["status"]?.stringValue ?? ""
            let message = report["message"]?.stringValue ?? ""
            if json {
                writeOut(line + "\n")
            } else {
                let percent = Int(rounding: (report["progress"]?.numberValue ?? 0) * 100, in: 0...100) ?? 0
                let shown = status == "inProgress" ? "\(percent)%  \(message)" : message
                if shown != lastShown { writeOut(shown + "\n") }
                lastShown = shown
            }
            if status != "inProgress" {
                return message.hasPrefix("calibrated") ? 0 : 1
            }
        }
        Log.error("\(socket) stopped answering during calibration")
        return 1
    }

    /// What the offline fit prints and its exit status, apart from printing so it can be tested.
    static func offline(
        path: String, json: Bool, mode: CalibrationMode = .figure8,
        field: (strength: Double, dip: Double)? = nil
    ) -> (output: String, status: Int32) {
        let text: String
        do { text = try readTextFile(path, limit: 32 << 20) } catch {
            return unusable(error.description, json: json)
        }
        let recording: MagnetometerRecording
        do { recording = try MagnetometerCSV.parse(text) } catch {
            return unusable("\(path): \(error.message)", json: json)
        }
        if recording.badLines > 0 {
            Log.warning(
                "\(path): \(recording.badLines) line\(recording.badLines == 1 ? "" : "s") skipped (first: "
                    + recording.firstBadLines.map(String.init).joined(separator: ", ") + ")")
        }
        guard !recording.fields.isEmpty else {
            return unusable("\(path): no usable readings (\(recording.badLines) bad lines)", json: json)
        }
        if mode == .swing && field == nil {
            Log.warning(
                "a swing places the vertical offset by the field's dip: without --lat and --lon it is taken "
                    + "from the readings alone, and the fit is likely refused")
        }
        let outcome = MagnetometerCalibration.fit(
            readings: recording.fields, specificForces: recording.specificForces,
            field: field, mode: mode)
        let status: Int32 = outcome.isAccepted ? 0 : 1
        return (json ? jsonLine(outcome, mode: mode) + "\n" : summary(outcome, path: path, recording: recording), status)
    }

    static func unusable(_ reason: String, json: Bool) -> (output: String, status: Int32) {
        if json { return (jsonLine(status: "failed", reason: reason, calibration: nil) + "\n", 1) }
        Log.error(reason)
        return ("", 1)
    }

    static func jsonLine(_ outcome: CalibrationOutcome, mode: CalibrationMode) -> String {
        jsonLine(
            status: outcome.isAccepted ? "ok" : "failed", reason: outcome.reason, calibration: outcome.calibration,
            mode: mode, turned: outcome.turned)
    }

    static func jsonLine(
        status: String, reason: String?, calibration: MagnetometerCalibration?, mode: CalibrationMode = .figure8,
        turned: Double? = nil
    ) -> String {
        var w = JSONObjectWriter()
        w.string("status", status)
        if let reason { w.string("reason", reason) } else { w.null("reason") }
        w.string("mode", mode.rawValue)
        CalibrationJSON.write(calibration, into: &w)
        if let turned { w.number("turned", turned, decimals: 0) } else { w.null("turned") }
        return w.finished
    }

    /// The result for a person: the figures, then every problem with what to do about it.
    static func summary(_ outcome: CalibrationOutcome, path: String, recording: MagnetometerRecording) -> String {
        var out = "magnetometer calibration from \(path): \(outcome.samples) readings"
        if recording.badLines > 0 {
            out += " (\(recording.badLines) unreadable line\(recording.badLines == 1 ? "" : "s") skipped)"
        }
        out += recording.specificForces == nil ? "\n" : ", with accelerometer\n"
        if let c = outcome.calibration {
            let o = c.hardIronOffset
            out +=
                "  hard-iron offset   \(DecimalText.format(o.x, 2, unknown: "?"))  \(DecimalText.format(o.y, 2, unknown: "?"))  \(DecimalText.format(o.z, 2, unknown: "?")) uT\n"
            for (i, row) in [c.softIron.row0, c.softIron.row1, c.softIron.row2].enumerated() {
                out += (i == 0 ? "  soft iron          " : "                     ")
                out +=
                    "[ \(DecimalText.format(row.x, 4, unknown: "?"))  \(DecimalText.format(row.y, 4, unknown: "?"))  \(DecimalText.format(row.z, 4, unknown: "?")) ]\n"
            }
            if c.model == .sphere { out += "                     (offset only: the readings do not support a soft-iron matrix)\n" }
            if c.model == .swing { out += "                     (a swing: the vertical terms held round, the vertical offset from the dip)\n" }
            out += "  field strength     \(DecimalText.format(c.fieldStrength, 1, unknown: "?")) uT\n"
            out += "  residual           \(DecimalText.format(c.residualRMS, 2, unknown: "?")) uT rms\n"
            out += "  coverage           \(DecimalText.format(c.coverage * 100, 0, unknown: "?"))% of field directions\n"
            if let turned = outcome.turned { out += "  swing              \(DecimalText.format(turned, 0, unknown: "?")) degrees of the circle seen\n" }
            if let uncertainty = c.headingUncertainty {
                out +=
                    "  calibration        leaves about \(DecimalText.format(uncertainty, 2, unknown: "?")) degrees of heading uncertainty "
                    + "(one sigma, worst 5% of the attitudes of use)\n"
            }
            out += "  heading error      about \(DecimalText.format(c.expectedHeadingError, 1, unknown: "?")) degrees per reading\n"
        }
        if outcome.isAccepted {
            out += "calibration good: calibrated field = softIron x (raw - offset)\n"
        } else {
            out += "calibration refused:\n"
            for failure in outcome.failures { out += "  - " + failure.reason + "\n" }
        }
        return out
    }
}
