internal import CSndFile
internal import Glibc

/// A libsndfile failure: what failed, the library's (or the system's) words for it, and the file.
public struct SndFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("open" for the system call).
    public let function: String
    /// `sf_strerror`'s text, or `strerror`'s.
    public let message: String
    /// The `errno` of a failed `open(2)` or read of the medium, else nil (the data is bad, not the medium).
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
    public var description: String {
        context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))"
    }
}

/// The library itself.
public enum SndFileLibrary {
    /// "libsndfile-1.2.0".
    public static var version: String { String(cString: sf_version_string()) }
}
