import LodestoneCore
import LodestoneDomain

/// The terminal status view: one screen of the current state, redrawn in place with ANSI
/// escapes. Values that are not known yet show as "--" rather than a misleading zero.
public struct StatusView {
    public init() {}

    /// One task's line in the scheduler table.
    public struct TaskLine {
        public var name: String
        public var statistics: TaskStatistics
        public var budgetMicroseconds: Double
        public init(name: String, statistics: TaskStatistics, budgetMicroseconds: Double) {
            self.name = name
            self.statistics = statistics
            self.budgetMicroseconds = budgetMicroseconds
        }
    }

    /// The full screen as text, starting with "cursor home, clear screen".
    public func render(_ state: NavigationState, loop: LoopStatistics, tasks: [TaskLine], clients: Int,
                       title: String, profile: String? = nil, navigation: String? = nil, gpsNote: String? = nil,
                       weather: [String] = []) -> String {
        var lines: [String] = []
        lines.append("Lodestone  \(title)")
        lines.append("")
        if let attitude = state.attitude {
            let accuracy = state.headingAccuracy.isFinite ? "  ±\(fixed(state.headingAccuracy, 1))°" : ""
            let flag = state.magneticInterference ? "  MAGNETIC INTERFERENCE: heading held on the gyro" : ""
            if let heading = state.trueHeading {
                lines.append("Heading   \(fixed(heading, 1))° true  \(Self.cardinal(heading))  (\(fixed(attitude.magneticHeading, 1))° magnetic, declination \(fixed(state.declination ?? 0, 1))°)\(accuracy)\(flag)")
            } else {
                lines.append("Heading   \(fixed(attitude.magneticHeading, 1))° magnetic  \(Self.cardinal(attitude.magneticHeading))\(accuracy)  (true north after the first GPS fix)\(flag)")
            }
            lines.append("Level     roll \(fixed(attitude.roll, 1))°  pitch \(fixed(attitude.pitch, 1))°")
        } else {
            lines.append("Heading   --")
            lines.append("Level     --")
        }
        let fix = state.fix
        if fix.hasPosition {
            lines.append("Position  \(fixed(fix.latitude, 6)), \(fixed(fix.longitude, 6))  \(fix.mode == .threeD ? "3D" : "2D") fix, \(fix.satellitesUsed) satellites")
            lines.append("Elevation \(fixed(fix.altitudeMSL, 1)) m (GPS)   speed \(fixed(fix.speed * 3.6, 1)) km/h  course \(fixed(fix.course, 0))°")
        } else {
            lines.append("Position  -- (no fix, \(fix.satellitesVisible) satellites seen)")
            lines.append("Elevation --")
        }
        if let gpsNote { lines.append("GPS       \(gpsNote)") }
        if let pressure = state.pressure {
            lines.append("Pressure  \(fixed(pressure.pressure / 100, 2)) hPa  \(fixed(pressure.temperature, 1)) °C  altitude \(fixed(state.barometricAltitude, 1)) m (QNH \(fixed(state.seaLevelPressure / 100, 1)))")
        } else {
            lines.append("Pressure  --")
        }
        lines += weather
        lines.append("Sensors   IMU \(state.imuHealth.name)  magnetometer \(state.magnetometerHealth.name)  barometer \(state.barometerHealth.name)  GPS \(state.gpsHealth.name)")
        lines.append("Clients   \(clients)")
        if let profile { lines.append("Sampling  \(profile) profile (rates in the table below)") }
        if let navigation { lines.append("Waypoint  \(navigation)") }
        lines.append("")
        lines.append("Loop \(fixed(loop.rateHz, 0)) Hz  ticks \(loop.ticks)  overruns \(loop.overruns)  wake-up lateness p50 \(fixed(loop.latenessP50Microseconds, 0)) us  p99 \(fixed(loop.latenessP99Microseconds, 0)) us  max \(fixed(loop.latenessMaxMicroseconds, 0)) us")
        lines.append(Self.taskTable(tasks))
        return "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n") + "\n"
    }

    /// The scheduler's per-task table, as `lodestone status` and `run --stats` print it.
    public static func taskTable(_ tasks: [TaskLine]) -> String {
        var out = column("task", 10) + column("rate Hz", 9) + column("budget us", 11) + column("runs", 10)
            + column("mean us", 9) + column("max us", 9) + column("overruns", 10) + column("slips", 8)
            + column("skips", 8) + "missed"
        for task in tasks {
            let s = task.statistics
            out += "\n" + column(task.name, 10) + column(fixed(s.rateHz, 1), 9) + column(fixed(task.budgetMicroseconds, 0), 11)
                + column(String(s.runs), 10) + column(fixed(s.meanExecutionMicroseconds, 1), 9)
                + column(fixed(s.maxExecutionMicroseconds, 1), 9) + column(String(s.overruns), 10)
                + column(String(s.slips), 8) + column(String(s.skips), 8) + String(s.missed)
        }
        return out
    }

    static func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// The 16-point compass name of a heading.
    public static func cardinal(_ heading: Double) -> String { CompassPoint.name(heading) }
}

/// A number with `decimals` places for display, or "--" when it is not known.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "--" }
    return JSONObjectWriter.format(value, decimals: decimals)
}
