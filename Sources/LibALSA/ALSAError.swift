internal import CALSA

/// An alsa-lib failure: the (positive) errno code, the C function, and the device it concerned.
public struct ALSAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The errno value (alsa-lib returns it negated).
    public let code: Int32
    /// The C function that failed.
    public let function: String
    /// The PCM name, empty when not known.
    public let device: String

    /// Creates an error.
    public init(code: Int32, function: String, device: String = "") {
        self.code = code
        self.function = function
        self.device = device
    }

    /// alsa-lib's words for the code. Wraps `snd_strerror`.
    public var message: String { String(cString: snd_strerror(-code)) }

    /// Whether the device itself is gone or cannot be reached (unplugged USB DAC, missing card), as
    /// opposed to a configuration it rejects.
    public var deviceIsGone: Bool { code == ENODEV || code == ENOENT || code == EBADFD || code == EIO }

    /// "function on 'device': message".
    public var description: String {
        device.isEmpty ? "\(function): \(message)" : "\(function) on '\(device)': \(message)"
    }
}

/// Throws when an alsa-lib return code is negative; returns it otherwise.
@inline(__always)
@discardableResult
func check<T: SignedInteger>(_ rc: T, _ function: String, _ device: String) throws(ALSAError) -> T {
    guard rc >= 0 else { throw ALSAError(code: Int32(-rc), function: function, device: device) }
    return rc
}
