import Glibc
import LodestoneCore
import LodestoneStorage

/// Instruction counts from valgrind's callgrind, the benches' repeatable measure (wall time on
/// a shared machine is not): this program run under it, and its output files read.
public enum Callgrind {
    /// Instructions per call of each function pattern, from `lodestone bench --kernel NAME`
    /// run under callgrind with collection switched on inside that function only.
    /// `arguments` go after the kernel's own (`--logs DIR`).
    public static func count(kernel: String, functions: [String], count: Int, arguments: [String] = []) -> ([Double]?, String?) {
        let updates = count
        guard let executable = currentExecutable() else { return (nil, "cannot find this program's path") }
        // valgrind 3.19 cannot read the DWARF 5 debug information Swift writes; a copy without it
        // keeps the symbols that collection is switched on by.
        let copy = "/tmp/lodestone-callgrind-\(getpid())"
        defer { unlink(copy) }
        let target = runProgram(["strip", "--strip-debug", "-o", copy, executable])?.status == 0 ? copy : executable
        var counts: [Double] = []
        for function in functions {
            let output = "/tmp/lodestone-callgrind-\(getpid()).out"
            defer { unlink(output) }
            guard
                let (status, _) = runProgram(
                    [
                        "valgrind", "--tool=callgrind", "--callgrind-out-file=" + output,
                        "--toggle-collect=" + function,
                        target, "bench", "--kernel", kernel, "--updates", String(updates)
                    ] + arguments)
            else {
                return (nil, "valgrind not found: install valgrind to count instructions")
            }
            guard status == 0, let total = summary(output), total > 0 else {
                return (nil, "callgrind run failed (exit \(status))")
            }
            counts.append(total / Double(updates))
        }
        return (counts, nil)
    }

    /// The total instruction count from a callgrind output file: the larger of its "summary:"
    /// and "totals:" lines (with instrumentation switched on during the run, summary says 0).
    static func summary(_ path: String) -> Double? {
        guard let text = try? readTextFile(path, limit: 64 << 20) else { return nil }
        var total: Double?
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { total = max(total ?? 0, value) }
        }
        return total
    }

    /// How many calls a callgrind output file records to functions whose name `matches`, from
    /// callers `from` accepts (summed). Names are written once with their number,
    /// "cfn=(12) malloc", and by the number alone after that; the call count follows as
    /// "calls=N ...".
    static func calls(in path: String, to matches: (Substring) -> Bool, from caller: (Substring) -> Bool = { _ in true }) -> Double? {
        guard let text = try? readTextFile(path, limit: 256 << 20) else { return nil }
        var total = 0.0
        forEachCall(in: text) { from, to, count in
            if matches(to), caller(from) { total += count }
        }
        return total
    }

    /// Every `calls=` line of a profile's text: its caller, its callee (names resolved from
    /// callgrind's compressed `(id) name` form) and its count.
    private static func forEachCall(in text: String, _ body: (_ caller: Substring, _ callee: Substring, _ count: Double) -> Void) {
        var names: [Substring: Substring] = [:]
        var callee: Substring = "", current: Substring = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let reference = line.drop { $0 != "=" }.dropFirst()
                let id = reference.prefix { $0 != " " }
                let name = reference.drop { $0 != " " }.dropFirst()
                if !name.isEmpty { names[id] = name }
                if line.hasPrefix("cfn=") { callee = names[id] ?? name } else { current = names[id] ?? name }
            } else if line.hasPrefix("calls="), let count = line.dropFirst(6).split(separator: " ").first.flatMap({ Double($0) }) {
                body(current, callee, count)
            }
        }
    }

    /// Where the calls to `matches` come from: each call followed up the profile's call graph
    /// (shared among callers by their counts) to the first function `owns` accepts, e.g. the
    /// program's own; the counts by that function, most first.
    static func origins(in path: String, of matches: (Substring) -> Bool, ownedBy owns: (Substring) -> Bool) -> [(function: String, calls: Double)] {
        guard let text = try? readTextFile(path, limit: 256 << 20) else { return [] }
        var callers: [Substring: [Substring: Double]] = [:]
        forEachCall(in: text) { from, to, count in callers[to, default: [:]][from, default: 0] += count }
        var found: [Substring: Double] = [:]
        func follow(_ function: Substring, _ share: Double, depth: Int, seen: Set<Substring>) {
            let above = callers[function] ?? [:]
            if depth > 0 && owns(function) || above.isEmpty || depth > 30 {
                found[function, default: 0] += share
                return
            }
            let total = above.values.reduce(0, +)
            for (caller, count) in above where !seen.contains(caller) {
                follow(caller, share * count / total, depth: depth + 1, seen: seen.union([caller]))
            }
        }
        for function in callers.keys where matches(function) {
            let outside = (callers[function] ?? [:]).filter { !matches($0.key) }
            for (caller, count) in outside { follow(caller, count, depth: 1, seen: [function, caller]) }
        }
        return found.map { (String($0.key), $0.value) }.sorted { $0.calls > $1.calls }
    }

    static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
