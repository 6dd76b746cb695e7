internal import CEBUR128

/// A libebur128 failure: the function and the library's code (`EBUR128_ERROR_NOMEM`, `…_INVALID_MODE`, …).
public struct EBUR128Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed.
    public let function: String
    /// The library's return code.
    public let code: Int32

    /// Creates an error.
    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
    }

    /// "function: name of the code".
    public var description: String {
        let name =
            switch code {
            case Int32(EBUR128_ERROR_NOMEM.rawValue): "out of memory"
            case Int32(EBUR128_ERROR_INVALID_MODE.rawValue): "mode not set up"
            case Int32(EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue): "no such channel"
            default: "error \(code)"
            }
        return "\(function): \(name)"
    }
}

/// Throws unless `rc` is `EBUR128_SUCCESS`.
func check(_ rc: Int32, _ function: String) throws(EBUR128Error) {
    guard rc == Int32(EBUR128_SUCCESS.rawValue) else { throw EBUR128Error(function: function, code: rc) }
}
