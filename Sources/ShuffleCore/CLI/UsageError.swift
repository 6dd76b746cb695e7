/// A command line that cannot be understood: the message says what was wrong; the caller prints it
/// with the usage text and exits 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, for a person: "unknown option --fast for 'index'".
    public let message: String
    /// The command whose usage should be shown, or nil for the overview.
    public let command: String?

    /// Creates a usage error.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message.
    public var description: String { message }
}
