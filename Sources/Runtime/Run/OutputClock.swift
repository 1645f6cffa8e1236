import Glibc
import LodestoneCore

enum OutputClock {
    /// Now as ISO-8601 UTC from the system clock (reports are stamped when they are made).
    static func wallClock() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return CivilTime(unixSeconds: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9).iso8601
    }
}
