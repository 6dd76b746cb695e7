internal import CFLAC
internal import Glibc

/// A libFLAC failure: what failed, the library's (or the system's) words for it, and the file.
public struct FLACError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("open" and "read" for the system calls).
    public let function: String
    /// The library's state or status name (`FLAC__STREAM_DECODER_END_OF_STREAM`…), or `strerror`'s text.
    public let message: String
    /// The `errno` of a failed `open(2)` or read, else nil (the data is bad, not the medium).
    public let systemError: Int32?
    /// The file.
    public let context: String

    /// Creates an error.
    public init(function: String, message: String, systemError: Int32? = nil, context: String = "") {
        self.function = function
        self.message = message
        self.systemError = systemError
        self.context = context
    }

    /// "function: message (context)".
    public var description: String { context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))" }
}
