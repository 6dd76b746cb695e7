internal import CGPIOD

#if canImport(Glibc)
    import Glibc
#endif

/// One line requested for edge events. Wraps a requested `struct gpiod_line`.
///
/// Poll `fileDescriptor` for `POLLIN`, then call `readEvents()`; reading when nothing is pending
/// would block. The request is released (`gpiod_line_release`) when this goes; it keeps its chip open.
public final class EdgeLine {
    private let chip: GPIOChip
    private let raw: OpaquePointer
    /// The line's offset on its chip.
    public let offset: Int

    init(chip: GPIOChip, raw: OpaquePointer, offset: Int) {
        self.chip = chip
        self.raw = raw
        self.offset = offset
    }

    deinit { gpiod_line_release(raw) }

    /// The event file descriptor to poll. Wraps `gpiod_line_event_get_fd`.
    public var fileDescriptor: Int32 { gpiod_line_event_get_fd(raw) }

    /// Reads up to 16 pending events. Wraps `gpiod_line_event_read_multiple`.
    public func readEvents() throws(GPIOError) -> [EdgeEvent] {
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
        let count = gpiod_line_event_read_multiple(raw, &buffer, UInt32(buffer.count))
        guard count >= 0 else { throw .lastErrno("gpiod_line_event_read_multiple", "\(chip.label) line \(offset)") }
        return buffer.prefix(Int(count)).map { event in
            EdgeEvent(
                timestamp: .seconds(Int64(event.ts.tv_sec)) + .nanoseconds(Int64(event.ts.tv_nsec)),
                isRising: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE))
        }
    }
}

/// One edge on a line, as the kernel stamped it.
public struct EdgeEvent: Equatable, Sendable {
    /// The kernel's timestamp (`CLOCK_MONOTONIC` on Linux 5.7 and later).
    public var timestamp: Duration
    /// Rising: the line became active (with active-low, the button was pressed).
    public var isRising: Bool

    /// Creates an event.
    public init(timestamp: Duration, isRising: Bool) {
        self.timestamp = timestamp
        self.isRising = isRising
    }
}
