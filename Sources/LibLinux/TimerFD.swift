internal import CLinux

/// A monotonic timer as a file descriptor, for `poll(2)`. Wraps `timerfd_create(2)` and `timerfd_settime(2)`.
///
/// One-shot and absolute: the event loop arms it for its earliest deadline only, so an idle daemon
/// has no timer armed and no periodic wake-ups.
public struct TimerFD: ~Copyable {
    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32

    /// Creates a disarmed timer on `CLOCK_MONOTONIC` (non-blocking, close-on-exec).
    public init() throws(LinuxError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw LinuxError.current("timerfd_create") }
        descriptor = fd
    }

    /// Arms the timer to fire once at `deadline` (time since boot on `CLOCK_MONOTONIC`, as `now()` gives),
    /// or disarms it when nil.
    public func arm(at deadline: Duration?) throws(LinuxError) {
        var spec = itimerspec()
        if let deadline {
            // A zero it_value disarms, so a deadline at or before 0 (already due) becomes 1 ns.
            let (seconds, attoseconds) = max(deadline, .nanoseconds(1)).components
            spec.it_value.tv_sec = Int(seconds)
            spec.it_value.tv_nsec = Int(attoseconds / 1_000_000_000)
        }
        guard timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
            throw LinuxError.current("timerfd_settime")
        }
    }

    /// Reads the expiry count so the descriptor stops being readable (`EAGAIN` when it had not fired).
    public func acknowledge() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }

    /// Now on `CLOCK_MONOTONIC`: the time since boot, not counting suspend (the clock of the kernel's
    /// GPIO edge timestamps, too).
    public static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }

    deinit { close(descriptor) }
}
