internal import CLinux

/// A failed Linux system call: the function, its `errno`, and what it was doing.
public struct LinuxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, for example `timerfd_create`.
    public var function: String
    /// The `errno` it left.
    public var code: Int32

    /// Creates an error.
    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    /// `function: strerror(code)`.
    public var description: String { "\(function): \(String(cString: strerror(code)))" }

    /// The current `errno` as an error of `function`.
    static func current(_ function: String) -> LinuxError { LinuxError(function: function, code: clinux_errno()) }
}
