import Glibc
import Synchronization

/// Crash testing, in debug builds only: with `LODESTONE_CRASH_AT_WRITE=N` in its environment
/// the process ends at once (`_exit(86)`, as a kill -9 or a power cut would: no buffers
/// flushed, no cleanup) just before the Nth write, fsync or rename of the program's own files.
/// Every low-level writer of stores (`writeWhole`, `ReplacedFile`, the record log, the track
/// file, the timetable's staging, the backup's switch) calls `step` before each such call, so a
/// test can stop an operation at every one of its steps in turn and check that the stores are
/// found as before or as after, never mixed. Release builds compile `step` to nothing.
public enum CrashPoint {
    /// The exit status of a process stopped at its crash point.
    public static let exitStatus: Int32 = 86
    public static let variable = "LODESTONE_CRASH_AT_WRITE"

    /// One write, fsync or rename about to be made; `what` names it for the stop's message.
    @inline(__always)
    public static func step(_ what: StaticString) {
        #if DEBUG
            guard limit > 0 else { return }
            let reached = counter.wrappingAdd(1, ordering: .relaxed).newValue
            guard reached == limit else { return }
            var line = Array("lodestone: stopped at crash point \(reached) (\(what))\n".utf8)
            _ = line.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            _exit(exitStatus)
        #endif
    }

    #if DEBUG
        /// N from the environment, read once; 0 (never) when unset or not a whole number.
        private static let limit: Int = {
            guard let text = getenv(variable) else { return 0 }
            return Int(String(cString: text)).map { max(0, $0) } ?? 0
        }()
        private static let counter = Atomic<Int>(0)
    #endif
}
