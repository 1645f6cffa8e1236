import Glibc

public enum OutputClock {
    /// Now, seconds since 1970 UTC, from the system clock.
    public static func unixTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
