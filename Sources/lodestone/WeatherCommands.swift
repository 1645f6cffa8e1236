import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone baro`, `lodestone alert` and `lodestone history`: the barometer's reference and
/// trend, the alert rules and their history, and the rolling history of the streams.
enum WeatherCommands {
    static let baroHelp = """
        Usage: lodestone baro [--qnh HPA | --altitude M] [--socket PATH] [--json]

        Shows the running instance's barometer: the reference pressure (QNH) and how it was set
        (configured, altitude, gps), station and sea-level pressure, barometric and fused altitude,
        and the weather trend (hPa per hour, band, forecast, the WMO 3-hour tendency and the
        6-hour change; null before 30 minutes of data). --qnh sets the reference from a weather
        report or an airfield; --altitude sets it from where you stand (a summit, a marked spot).
        With a good GPS fix the altitude is levelled with GPS by itself.
        """

    static let alertHelp = """
        Usage: lodestone alert list                                         [--socket PATH] [--json]
               lodestone alert set NAME [--on|--off] [--threshold X] [--hysteresis H] [--cooldown S]
               lodestone alert history [--json]                             [--data-dir DIR]

        Rules: pressureHigh, pressureLow (sea-level hPa), rapidFall (hPa per hour, negative),
        altitudeReached (m), temperatureHigh, temperatureLow (°C). Each fires once when its value
        crosses the threshold, and again only after coming back by the hysteresis and after the
        cooldown (seconds). An alert is an EVENT on the socket, the alert pattern on the buzzer and
        LED, a log line, and a line on the display; history lists the past ones.

        Examples:
          lodestone alert set altitudeReached --on --threshold 2500
          lodestone alert set temperatureLow --threshold 2 --cooldown 7200
        """

    static let historyHelp = """
        Usage: lodestone history --stream NAME [--range 1h|6h|24h|7d] [--json] [--data-dir DIR]

        The rolling history kept by 'lodestone run' (across restarts): minimum, maximum and mean
        over the range ending at the newest data, and its points (10 s for 1h, 1 min for 6h, 4 min
        for 24h, 30 min for 7d), with a small graph. Streams: \(HistoryStreams.names.joined(separator: ", ")).
        """

    static func baro(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["qnh", "altitude", "socket"], flags: ["json"]), command: "baro")
        var request = BaroRequest.report
        if let qnh = try options.number("qnh", in: 850...1100) { request = .qnh(qnh) }
        if let altitude = try options.number("altitude", in: -500...9000) {
            guard case .report = request else { throw UsageError(message: "give --qnh or --altitude, not both") }
            request = .altitude(altitude)
        }
        return LockCommand.exchange(
            request.text, socket: options.values["socket"],
            json: options.flags.contains("json"), answer: [#""class":"BARO""#]
        ) { r in
            var text =
                "QNH \(fixed(r["qnh"]?.numberValue ?? .nan, 1)) hPa (\(r["reference"]?.stringValue ?? "?")), "
                + "sea level \(fixed(r["seaLevelPressure"]?.numberValue ?? .nan, 1)) hPa, altitude \(fixed(r["altFused"]?.numberValue ?? .nan, 0)) m"
            if let rate = r["trend"]?["rate"]?.numberValue {
                text += "\ntrend \(fixed(rate, 2)) hPa/h: \(r["trend"]?["forecast"]?.stringValue ?? "")"
            } else {
                text += "\ntrend: not yet (30 minutes of data are needed)"
            }
            return text
        }
    }

    static func alert(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: ["threshold", "hysteresis", "cooldown", "socket", "data-dir"],
                flags: ["json", "on", "off"]), command: "alert")
        switch options.positional.first {
        case "list"?, "set"?:
            var request = "?\(AlertRuleChange.requestName);"
            if options.positional.first == "set" {
                guard options.positional.count > 1 else {
                    throw UsageError(message: "set which alert? one of " + AlertRules.Kind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                guard let kind = AlertRules.Kind(rawValue: options.positional[1]) else {
                    throw UsageError(message: "no alert '\(options.positional[1])'; one of " + AlertRules.Kind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                let enabled: Bool? = options.flags.contains("on") ? true : (options.flags.contains("off") ? false : nil)
                request =
                    AlertRuleChange(
                        kind: kind, enabled: enabled, threshold: try options.number("threshold", in: kind.thresholdRange),
                        hysteresis: try options.number("hysteresis", in: 0...1000),
                        cooldown: try options.number("cooldown", in: 0...604_800)
                    ).text
            }
            return LockCommand.exchange(
                request, socket: options.values["socket"], json: options.flags.contains("json"),
                answer: [#""class":"ALERT""#]
            ) { report in
                (report["rules"]?.arrayValue ?? []).map { rule in
                    let name = rule["name"]?.stringValue ?? "?", threshold = rule["threshold"]?.numberValue ?? .nan
                    // The name to type (alert set NAME), then the rule in words: "Pressure above 1040 hPa".
                    let words =
                        AlertRules.Kind(rawValue: name).map { $0.name(threshold: threshold) }
                        ?? "\(fixed(threshold, 1)) \(rule["unit"]?.stringValue ?? "")"
                    return "\(name)  \(rule["enabled"]?.boolValue == true ? "on " : "off")  \(words)  "
                        + "hysteresis \(fixed(rule["hysteresis"]?.numberValue ?? .nan, 1))  "
                        + "cooldown \(fixed((rule["cooldown"]?.numberValue ?? 0) / 60, 0)) min"
                }.joined(separator: "\n")
            }
        case "history"?:
            let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
            let lines: [String]
            do { lines = try AlertStore.lines(dataDirectory: directory) } catch {
                if fileExists(directory + "/alerts.rec") { Log.error(error.description); return 1 }
                lines = []
            }
            if options.flags.contains("json") {
                writeOut("[" + lines.joined(separator: ",\n") + "]\n")
            } else if lines.isEmpty {
                writeOut("no alerts yet\n")
            } else {
                for line in lines {
                    let json = try? JSONValue.parse(line)
                    writeOut("\(json?["time"]?.stringValue ?? "")  \(json?["message"]?.stringValue ?? line)\n")
                }
            }
            return 0
        default:
            throw UsageError(message: "alert what? list, set or history (see 'lodestone alert --help')")
        }
    }

    static func history(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["stream", "range", "data-dir"], flags: ["json"]), command: "history")
        guard let stream = options.values["stream"] else {
            throw UsageError(message: "which stream? --stream " + HistoryStreams.names.joined(separator: "|"))
        }
        guard HistoryStreams.names.contains(stream) else {
            throw UsageError.unknown("stream", stream, among: HistoryStreams.names)
        }
        let rangeText = options.values["range"] ?? "6h"
        guard let range = History.Range(rawValue: rangeText) else { throw UsageError(message: "--range takes 1h, 6h, 24h or 7d") }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        if let damage = HistoryStreams.damage(dataDirectory: directory) { Log.warning(damage) }
        guard let summary = HistoryStreams.summary(dataDirectory: directory, stream: stream, range: range) else {
            Log.error("no history in \(directory): 'lodestone run' keeps it (history.bin)")
            return 1
        }
        if options.flags.contains("json") {
            writeOut(HistoryAnswer.json(stream: stream, range: range, summary: summary) + "\n")
        } else if summary.samples == 0 {
            writeOut("\(stream), last \(range.rawValue): no data\n")
        } else {
            writeOut(
                "\(stream), last \(range.rawValue): min \(fixed(summary.minimum, 2))  max \(fixed(summary.maximum, 2))  "
                    + "mean \(fixed(summary.mean, 2))  (\(summary.samples) samples)\n")
            writeOut(Sparkline.draw(summary.points.map(\.mean), width: 60) + "\n")
        }
        return 0
    }
}
