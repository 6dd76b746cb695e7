internal import CLinux

/// A wake-up counter as a file descriptor: other threads `signal()`, the event loop polls it.
/// Wraps `eventfd(2)`.
public final class EventFD: Sendable {
    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32

    /// Creates the counter (non-blocking, close-on-exec).
    public init() throws(LinuxError) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { throw LinuxError.current("eventfd") }
        descriptor = fd
    }

    /// Adds one to the counter, waking a poller. Safe from any thread.
    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Resets the counter to zero.
    public func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }

    deinit { close(descriptor) }
}
