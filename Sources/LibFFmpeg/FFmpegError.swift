internal import CFFmpeg
internal import Glibc

/// An FFmpeg failure: the function, FFmpeg's code (an `AVERROR`), and the file.
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("open" for `open(2)`, "read" for a failed read of the medium).
    public let function: String
    /// FFmpeg's code (negative), or `-errno`.
    public let code: Int32
    /// The file.
    public let context: String
    /// A sentence of our own when FFmpeg's code does not say it (an unsupported codec…).
    public let detail: String?

    /// Creates an error.
    public init(function: String, code: Int32, context: String = "", detail: String? = nil) {
        self.function = function
        self.code = code
        self.context = context
        self.detail = detail
    }

    /// The `errno` of a failed `open(2)` or read, else nil.
    public var systemError: Int32? { function == "open" || function == "read" ? -code : nil }

    /// FFmpeg's words for the code (`av_strerror`), or ours.
    public var message: String {
        if let detail { return detail }
        if let systemError { return String(cString: strerror(systemError)) }
        guard case .success(let api) = FFmpegAPI.shared else { return "error \(code)" }
        var text = [CChar](repeating: 0, count: 128)
        _ = api.av_strerror(code, &text, text.count)
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "function: message (context)".
    public var description: String { context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))" }
}

/// Facts about the FFmpeg libraries this was built against.
public enum FFmpegLibrary {
    /// libavcodec's version as "major.minor.micro", or nil when FFmpeg cannot be loaded. Wraps `avcodec_version`.
    public static var avcodecVersion: String? {
        guard case .success(let api) = FFmpegAPI.shared else { return nil }
        let v = api.avcodec_version()
        return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
