import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings

/// A usage error: exit status 2 and one line saying what to type instead.
struct UsageError: Error {
    var message: String

    /// "unknown track action 'lst'; did you mean 'list'? (one of: start, stop, list ...)".
    static func unknown(_ what: String, _ word: String, among known: [String]) -> UsageError {
        let choices = known.count > 1 ? known.dropLast().joined(separator: ", ") + " or " + (known.last ?? "") : known.joined()
        return UsageError(message: "unknown \(what) '\(word)'" + NearestWord.hint(word, among: known) + " (one of: \(choices))")
    }
}

/// The options a command accepts: those that take a value and plain flags.
struct OptionSpec {
    var valued: Set<String>
    var flags: Set<String>
}

/// Parsed command-line options: `--name value`, `--name=value` and `--flag`.
struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []

    /// The named options as arguments again, to hand to another command.
    func passThrough(_ names: [String]) -> ArraySlice<String> {
        ArraySlice(
            names.flatMap { name -> [String] in
                if let value = values[name] { return ["--" + name, value] }
                return flags.contains(name) ? ["--" + name] : []
            })
    }

    init(_ arguments: ArraySlice<String>, spec: OptionSpec, command: String) throws(UsageError) {
        var rest = arguments
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if spec.flags.contains(name) {
                guard value == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else if spec.valued.contains(name) {
                if value == nil { value = rest.popFirst() }
                guard let value, !value.isEmpty else {
                    throw UsageError(message: "--\(name) needs a value (see 'lodestone \(command) --help')")
                }
                values[name] = value
            } else {
                let known = Array(spec.valued.union(spec.flags)).sorted() + ["help"]
                throw UsageError(
                    message: "unknown option --\(name) for '\(command)'" + NearestWord.hint(name, among: known, prefix: "--")
                        + " (see 'lodestone \(command) --help')")
            }
        }
    }

    func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = DecimalNumber.parse(text), range.contains(value) else {
            throw UsageError(message: "--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A date option `YYYY-MM-DD` within `years` (the years `what` is good for).
    func date(_ name: String, years: ClosedRange<Int>, what: String) throws(UsageError) -> (year: Int, month: Int, day: Int)? {
        guard let text = values[name] else { return nil }
        guard let date = CivilTime.parseDate(text) else {
            throw UsageError(message: "--\(name) takes a calendar date as YYYY-MM-DD (e.g. 2026-06-21), not '\(text)'")
        }
        guard years.contains(date.year) else {
            throw UsageError(message: "--\(name) \(text) is outside \(years.lowerBound)-\(years.upperBound), the years \(what)")
        }
        return date
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}

extension Units {
    /// `--units metric|imperial|nautical`; when not given, the device's (`units` in the
    /// configuration file, --config or the installed one), as its display and web app show.
    static func option(_ options: Options) throws(UsageError) -> Units {
        guard let name = options.values["units"] else { return (try? Configuration.commandConfiguration(options.values["config"]))?.units ?? .metric }
        guard let units = Units(rawValue: name) else { throw UsageError(message: "--units must be \(list), not '\(name)'") }
        return units
    }
}
