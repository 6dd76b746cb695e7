#if canImport(Glibc)
    import Glibc
#endif

/// `CLOCK_MONOTONIC`: the clock the kernel stamps GPIO (Linux 5.7+) and input events with (the
/// input source asks for it), so edges and the control loop's wake-ups share one time line.
public enum MonotonicClock {
    /// The current time since an arbitrary point (boot).
    public static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }
}
