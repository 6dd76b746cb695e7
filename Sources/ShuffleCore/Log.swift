/// A tiny logger: a label, a minimum level and a sink (stderr in production, an array in tests).
///
/// Lines carry a `<N>` syslog priority prefix so journald files them at the right level.
public struct Log: Sendable {
    /// Severity, lowest first.
    public enum Level: Comparable, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error

        /// The syslog priority journald reads from a `<N>` prefix.
        public var syslogPriority: Int {
            switch self {
            case .trace, .debug: 7
            case .info: 6
            case .notice: 5
            case .warning: 4
            case .error: 3
            }
        }

        /// Parses a level name as written in configuration ("info", "warning").
        public init?(name: String) {
            switch name.lowercased() {
            case "trace": self = .trace
            case "debug": self = .debug
            case "info": self = .info
            case "notice": self = .notice
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    /// The subsystem, for example "index" or "audio".
    public let label: String
    /// Messages below this level are dropped.
    public let minimum: Level
    /// Where finished lines go.
    public let sink: @Sendable (String) -> Void

    /// Creates a logger.
    public init(label: String, minimum: Level, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.minimum = minimum
        self.sink = sink
    }

    /// The same sink and level with another label.
    public func labelled(_ label: String) -> Log { Log(label: label, minimum: minimum, sink: sink) }

    /// Logs `message` at `level`.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        sink("<\(level.syslogPriority)>[\(label)] \(message())")
    }

    /// Logs at debug level.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at info level.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at notice level.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at warning level.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at error level.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
