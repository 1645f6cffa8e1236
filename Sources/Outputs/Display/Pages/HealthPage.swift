import LodestoneCore
/// The health page: each sensor's status, the sampling loop's timing and the scheduler's
/// per-task table, and the socket's clients.
enum HealthPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let state = model.state
        let sensors = [
            ("IMU", state.imuHealth), (model.say("magnetometer"), state.magnetometerHealth), (model.say("barometer"), state.barometerHealth),
            ("GPS", state.gpsHealth)
        ]
        let width = max(13, ["clients", "sampling", "loop", "lateness"].map { model.say($0).count + 1 }.max() ?? 0)
        let problems = [model.health.problems.imu, model.health.problems.magnetometer, model.health.problems.barometer, model.health.problems.gps]
        if page.wide {
            // Where the panel has the rows for the whole page with them twice the size, the
            // sensors' states large: what one looks for first.
            let needed = 8 + 2 + (model.health.loop == nil ? 0 : 3) + (model.health.tasks.isEmpty ? 0 : model.health.tasks.count + 1)
            // All large or none: each name and state at twice the size within the width.
            let large =
                page.remaining >= needed
                && sensors.allSatisfy { $0.1 != .degraded && ($0.0 + " " + Words.text("health", $0.1.name, model.language)).count * 2 <= page.columns }
            for ((name, health), problem) in zip(sensors, problems) {
                if large {
                    page.subheadline(name + " " + Words.text("health", health.name, model.language), ink: health == .ok ? .good : .dim)
                    continue
                }
                let words = Words.text("health", health.name, model.language)
                page.field(
                    name, health == .degraded ? model.say("retrying", words) : words, ink: health == .degraded ? .warning : (health == .ok ? .good : .dim),
                    labelWidth: width)
                // Why, in the words that say what to do.
                if health == .degraded, let problem { page.line("  " + problem, ink: .warning) }
            }
            // Sentences dropped for a field no receiver can report, as HEALTH counts them.
            if state.gpsRejected > 0 {
                page.line("  " + model.say("gpsRejected", "\(state.gpsRejected)", state.gpsRejectedReason?.description ?? "?"), ink: .warning)
            }
            page.field(model.say("clients"), "\(model.health.clients)", labelWidth: width)
            if let profile = model.health.profile { page.wrappedField(model.say("sampling"), Words.profile(profile, model.language), labelWidth: width) }
            if let loop = model.health.loop {
                // Each figure with its name, never split from it.
                page.field(model.say("loop"), model.say("loopFigures", fixed(loop.rateHz, 0), "\(loop.overruns)"), labelWidth: width)
                page.field(
                    model.say("lateness"),
                    "p50 \(fixed(loop.latenessP50Microseconds, 0)) us  p99 \(fixed(loop.latenessP99Microseconds, 0)) us", labelWidth: width)
                page.field("", "max \(fixed(loop.latenessMaxMicroseconds, 0)) us", labelWidth: width)
            }
            if !model.health.tasks.isEmpty {
                // The full table where it fits, else the columns that say whether a task keeps up.
                let table =
                    page.columns >= 90
                    ? SchedulerTable.text(model.health.tasks, model.language)
                    : (page.columns >= 56
                        ? SchedulerTable.compact(model.health.tasks, model.language) : SchedulerTable.narrow(model.health.tasks, model.language))
                for line in table.split(separator: "\n") { page.line(String(line)) }
            }
            page.essentialsDone()
            if !model.health.log.isEmpty && page.remaining > 1 {
                page.line(model.say("log"), ink: .dim)
                for line in model.health.log.suffix(page.remaining) {
                    let text = line.hasPrefix("lodestone: ") ? String(line.dropFirst(11)) : line
                    page.line(text, ink: text.hasPrefix("warning") || text.hasPrefix("error") ? .warning : .text)
                }
            }
        } else {
            let short = [("IMU", state.imuHealth), ("MAG", state.magnetometerHealth), ("BARO", state.barometerHealth), ("GPS", state.gpsHealth)]
            for ((name, health), problem) in zip(short, problems) {
                page.line(SchedulerTable.column(name, 6) + Words.text("health", health.name, model.language), ink: health == .degraded ? .warning : .text)
                if health == .degraded, let problem { page.line(" " + problem, ink: .warning) }
            }
            if let loop = model.health.loop { page.line(model.say("loopShort", fixed(loop.rateHz, 0), "\(loop.overruns)")) }
        }
    }
}
