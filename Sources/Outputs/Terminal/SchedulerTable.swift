import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The scheduler's per-task table as text: the health page, `lodestone status` and
/// `run --stats` print it.
public enum SchedulerTable {
    /// The scheduler's per-task table, as `lodestone status` and `run --stats` print it.
    public static func text(_ tasks: [TaskLine]) -> String {
        var out =
            column("task", 10) + column("rate Hz", 9) + column("budget us", 11) + column("runs", 10)
            + column("mean us", 9) + column("max us", 9) + column("overruns", 10) + column("slips", 8)
            + column("skips", 8) + "missed"
        for task in tasks {
            let s = task.statistics
            out +=
                "\n" + column(task.name, 10) + column(fixed(s.rateHz, 1), 9) + column(fixed(task.budgetMicroseconds, 0), 11)
                + column(String(s.runs), 10) + column(fixed(s.meanExecutionMicroseconds, 1), 9)
                + column(fixed(s.maxExecutionMicroseconds, 1), 9) + column(String(s.overruns), 10)
                + column(String(s.slips), 8) + column(String(s.skips), 8) + String(s.missed)
        }
        return out
    }

    /// The table in 56 columns: rate, mean and worst run time, overruns and skips.
    public static func compact(_ tasks: [TaskLine]) -> String {
        var out = column("task", 10) + column("rate Hz", 9) + column("mean us", 9) + column("max us", 9) + column("overruns", 10) + "skips"
        for task in tasks {
            let s = task.statistics
            out +=
                "\n" + column(task.name, 10) + column(fixed(s.rateHz, 1), 9) + column(fixed(s.meanExecutionMicroseconds, 1), 9)
                + column(fixed(s.maxExecutionMicroseconds, 1), 9) + column(String(s.overruns), 10) + String(s.skips)
        }
        return out
    }

    /// The table in 36 columns (a 480 x 320 panel): rate, worst run time, overruns, skips.
    public static func narrow(_ tasks: [TaskLine]) -> String {
        var out = column("task", 10) + column("Hz", 7) + column("max us", 8) + column("overrun", 8) + "skip"
        for task in tasks {
            let s = task.statistics
            out +=
                "\n" + column(task.name, 10) + column(fixed(s.rateHz, 0), 7) + column(fixed(s.maxExecutionMicroseconds, 0), 8)
                + column(String(s.overruns), 8) + String(s.skips)
        }
        return out
    }

    static func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

}
