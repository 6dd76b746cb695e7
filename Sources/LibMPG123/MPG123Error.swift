internal import CMPG123
internal import Glibc

/// A libmpg123 failure: the code, the C function that returned it, and the file it concerned.
public struct MPG123Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libmpg123 error code (`MPG123_ERR`, `MPG123_BAD_FILE`, …), or `-errno` for a failed `open(2)` or
    /// `read(2)` (function "open" or "read").
    public let code: Int32
    /// The C function that failed.
    public let function: String
    /// What the call was about (usually the file path), empty when nothing more is known.
    public let context: String

    /// Creates an error.
    public init(code: Int32, function: String, context: String = "") {
        self.code = code
        self.function = function
        self.context = context
    }

    /// The library's own words for the code (`mpg123_plain_strerror`), or `strerror` for an `open(2)` or
    /// `read(2)` failure.
    public var message: String {
        if let systemError { return String(cString: strerror(systemError)) }
        return String(cString: mpg123_plain_strerror(code))
    }

    /// The `errno` of a failed `open(2)` or `read(2)` (the file could not be read, as opposed to holding no
    /// audio), else nil.
    public var systemError: Int32? { function == "open" || function == "read" ? -code : nil }

    /// "function: message (context)".
    public var description: String {
        context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))"
    }
}

/// Throws when `rc` is not `MPG123_OK`.
@inline(__always)
func check(_ rc: Int32, _ function: String, _ context: String = "") throws(MPG123Error) {
    guard rc == MPG123_OK.rawValue else { throw MPG123Error(code: rc, function: function, context: context) }
}
