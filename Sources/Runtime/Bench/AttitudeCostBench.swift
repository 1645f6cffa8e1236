import Glibc
import LodestoneCore
import LodestoneDomain

/// Machine instructions per attitude-filter update, counted by callgrind (repeatable, unlike
/// wall time). `lodestone bench` runs itself under valgrind with collection switched on only
/// inside the filter's update (and, separately, the gyro-bias step), so start-up and the
/// harness are not counted.
public enum AttitudeCostBench {
    /// The work measured: `updates` filter updates (with gyro-bias removal) over a cycle of
    /// varied readings prepared beforehand. Returns a value derived from the result so the
    /// optimiser cannot drop the work.
    public static func kernel(updates: Int) -> Double {
        var readings: [(Vector3, Vector3, Vector3)] = []
        for index in 0..<64 {
            let angle = Double(index) * 0.1
            let q = Quaternion(roll: 0.3 * sin(angle), pitch: 0.2 * cos(angle), yaw: angle)
            readings.append((Vector3(0.2 * sin(angle), 0.1, 0.3 * cos(angle)),
                             q.rotateInverse(Vector3(0, 0, -9.80665)), q.rotateInverse(Vector3(20, 1, 43))))
        }
        var filter = AttitudeFilter()
        var bias = GyroBiasEstimator()
        for index in 0..<updates {
            let (rate, force, field) = readings[index & 63]
            filter.update(rotationRate: bias.update(rate, interval: 0.01), specificForce: force, field: field, interval: 0.01)
        }
        return filter.orientation.w
    }

    public struct Figures: Sendable {
        public var update: Double
        public var gyroBias: Double
    }

    public static func run(updates: Int = 10_000) -> (Figures?, String?) {
        let (counts, note) = callgrind(kernel: "attitude", functions: ["*AttitudeFilter*update*", "*GyroBiasEstimator*update*"],
                                       count: updates)
        guard let counts else { return (nil, note) }
        return (Figures(update: counts[0], gyroBias: counts[1]), nil)
    }

    /// Instructions per call of each function pattern, from `lodestone bench --kernel NAME`
    /// run under callgrind with collection switched on inside that function only.
    public static func callgrind(kernel: String, functions: [String], count: Int) -> ([Double]?, String?) {
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
            guard let (status, _) = runProgram(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + output,
                                                 "--toggle-collect=" + function,
                                                 target, "bench", "--kernel", kernel, "--updates", String(updates)]) else {
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

    static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
