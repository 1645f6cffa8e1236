import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The scheduler's per-task table as text: the health page, `lodestone status` and
/// `run --stats` print it.
public enum SchedulerTable {
    /// The scheduler's per-task table, as `lodestone status` and `run --stats` print it.
    public static func text(_ tasks: [TaskLine], _ language: Language = .en) -> String {
        table(
            tasks,
            [
                ("task", 10), ("rateHz", 9), ("budgetUs", 11), ("runs", 10), ("meanUs", 9), ("maxUs", 9), ("overruns", 10), ("slips", 8), ("skips", 8),
                ("missed", 0)
            ],
            language
        ) { task in
            let s = task.statistics
            return [
                task.name, fixed(s.rateHz, 1), fixed(task.budgetMicroseconds, 0), String(s.runs), fixed(s.meanExecutionMicroseconds, 1),
                fixed(s.maxExecutionMicroseconds, 1), String(s.overruns), String(s.slips), String(s.skips), String(s.missed)
            ]
        }
    }

    /// The table in 56 columns: rate, mean and worst run time, overruns and skips.
    public static func compact(_ tasks: [TaskLine], _ language: Language = .en) -> String {
        table(tasks, [("task", 10), ("rateHz", 9), ("meanUs", 9), ("maxUs", 9), ("overruns", 10), ("skips", 0)], language) { task in
            let s = task.statistics
            return [
                task.name, fixed(s.rateHz, 1), fixed(s.meanExecutionMicroseconds, 1), fixed(s.maxExecutionMicroseconds, 1), String(s.overruns),
                String(s.skips)
            ]
        }
    }

    /// The table in 36 columns (a 480 x 320 panel): rate, worst run time, overruns, skips.
    public static func narrow(_ tasks: [TaskLine], _ language: Language = .en) -> String {
        table(tasks, [("task", 10), ("hz", 7), ("maxUs", 8), ("overrun", 8), ("skip", 0)], language) { task in
            let s = task.statistics
            return [task.name, fixed(s.rateHz, 0), fixed(s.maxExecutionMicroseconds, 0), String(s.overruns), String(s.skips)]
        }
    }

    /// The heading (each column's name from the table of words) and a row per task, each
    /// column as wide as it is set or as its name in the language and a space; the last
    /// column as wide as it needs.
    static func table(_ tasks: [TaskLine], _ columns: [(key: String, width: Int)], _ language: Language, row: (TaskLine) -> [String]) -> String {
        let names = columns.map { $0.key == "hz" ? "Hz" : language.say($0.key) }
        let widths = zip(columns, names).map { max($0.width, $1.count + 1) }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (index, cell) in cells.enumerated() { out += index < widths.count - 1 ? column(cell, widths[index]) : cell }
            return out
        }
        return ([line(names)] + tasks.map { line(row($0)) }).joined(separator: "\n")
    }

    static func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
