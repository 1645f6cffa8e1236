import Glibc
import LodestoneCore

public enum OutputClock {
    /// Now as ISO-8601 UTC from the system clock (reports are stamped when they are made).
    public static func wallClock() -> String { CivilTime(unixSeconds: unixTime()).iso8601 }

    /// Now, seconds since 1970 UTC, from the system clock.
    public static func unixTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
