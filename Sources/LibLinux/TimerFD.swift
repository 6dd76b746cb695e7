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

    /// Arms the timer to fire once at `deadline` nanoseconds on `CLOCK_MONOTONIC`, or disarms it when nil.
    public func arm(atMonotonicNanoseconds deadline: UInt64?) throws(LinuxError) {
        var spec = itimerspec()
        if let deadline {
            // A zero it_value disarms, so a deadline of 0 (already due) becomes 1 ns.
            let due = max(deadline, 1)
            spec.it_value.tv_sec = Int(due / 1_000_000_000)
            spec.it_value.tv_nsec = Int(due % 1_000_000_000)
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

    /// Now on `CLOCK_MONOTONIC`, in nanoseconds.
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    deinit { close(descriptor) }
}
