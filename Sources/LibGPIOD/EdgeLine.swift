internal import CGPIOD

#if canImport(Glibc)
    import Glibc
#endif

/// One line requested for edge events. Wraps a requested `struct gpiod_line` (libgpiod 1.6) or a
/// `struct gpiod_line_request` (2.x), through the shim that hides which.
///
/// Poll `fileDescriptor` for `POLLIN`, then call `readEvents()`; reading when nothing is pending
/// would block. The request is released when this goes; it keeps its chip open.
public final class EdgeLine {
    private let chip: GPIOChip
    private let raw: UnsafeMutablePointer<shim_gpiod_request>
    /// The line's offset on its chip.
    public let offset: Int

    init(chip: GPIOChip, request: UnsafeMutablePointer<shim_gpiod_request>, offset: Int) {
        self.chip = chip
        self.raw = request
        self.offset = offset
    }

    deinit { shim_gpiod_release(raw) }

    /// The event file descriptor to poll. Wraps `gpiod_line_event_get_fd` or `gpiod_line_request_get_fd`.
    public var fileDescriptor: Int32 { shim_gpiod_request_fd(raw) }

    /// Whether the line is active now (after active-low). Wraps `gpiod_line_get_value` or
    /// `gpiod_line_request_get_value`.
    public func isActive() throws(GPIOError) -> Bool {
        let value = shim_gpiod_get_value(raw)
        guard value >= 0 else { throw .lastErrno("read the value", "\(chip.label) line \(offset)") }
        return value == 1
    }

    /// Reads up to 16 pending events. Wraps `gpiod_line_event_read_multiple` or
    /// `gpiod_line_request_read_edge_events`.
    public func readEvents() throws(GPIOError) -> [EdgeEvent] {
        var buffer = [shim_gpiod_edge](repeating: shim_gpiod_edge(), count: Int(SHIM_GPIOD_EVENT_CAPACITY))
        let count = shim_gpiod_read_edges(raw, &buffer, Int32(buffer.count))
        guard count >= 0 else { throw .lastErrno("read edge events", "\(chip.label) line \(offset)") }
        return buffer.prefix(Int(count)).map { event in
            EdgeEvent(timestamp: .seconds(event.seconds) + .nanoseconds(event.nanoseconds), isRising: event.rising)
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
