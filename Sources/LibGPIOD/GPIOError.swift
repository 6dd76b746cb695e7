#if canImport(Glibc)
    import Glibc
#endif

/// A libgpiod call that failed: the function, the errno and what it was working on.
public struct GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, or a short name for a failed search ("find chip").
    public var function: String
    /// The errno it left (0 when there was none).
    public var code: Int32
    /// What it was working on: "/dev/gpiochip0", "pinctrl-bcm2711 line 17".
    public var context: String

    /// Creates an error.
    public init(function: String, code: Int32, context: String) {
        self.function = function
        self.code = code
        self.context = context
    }

    /// Captures the current errno after `function` failed.
    static func lastErrno(_ function: String, _ context: String) -> GPIOError {
        GPIOError(function: function, code: errno, context: context)
    }

    /// The C library's text for `code`.
    public var reason: String { code == 0 ? "failed" : String(cString: strerror(code)) }

    /// Whether the failure was a permission problem (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

    /// Whether the line is already requested by someone else (`EBUSY`).
    public var isBusy: Bool { code == EBUSY }

    /// "gpiod_line_request_both_edges_events_flags on pinctrl-bcm2711 line 17: Device or resource busy".
    public var description: String { "\(function) on \(context): \(reason)" }
}
