internal import COpusFile
internal import Glibc

/// A libopusfile failure: the function, the library's code, the file.
public struct OpusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("open" for `open(2)`, "read" for a failed read of the medium).
    public let function: String
    /// The library's code (`OP_ENOTFORMAT`…), or `-errno`.
    public let code: Int32
    /// The file.
    public let context: String

    /// Creates an error.
    public init(function: String, code: Int32, context: String = "") {
        self.function = function
        self.code = code
        self.context = context
    }

    /// The `errno` of a failed `open(2)` or read, else nil.
    public var systemError: Int32? { function == "open" || function == "read" ? -code : nil }

    /// What the code means.
    public var message: String {
        if let systemError { return String(cString: strerror(systemError)) }
        switch code {
        case OP_ENOTFORMAT: return "not Opus data"
        case OP_EBADHEADER: return "bad Opus header"
        case OP_EVERSION: return "unsupported Opus version"
        case OP_EIMPL: return "unsupported Opus feature"
        case OP_EREAD: return "read error"
        case OP_EFAULT: return "internal error"
        case OP_EBADLINK, OP_EBADTIMESTAMP: return "damaged Ogg stream"
        case OP_ENOSEEK: return "stream not seekable"
        case OP_EBADPACKET: return "bad Opus packet"
        default: return "error \(code)"
        }
    }

    /// "function: message (context)".
    public var description: String { context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))" }
}

/// One libopusfile stream, owned by one thread; a new `OggOpusFile` per file.
///
/// Opus always decodes at 48 kHz. libopusfile honours the header's pre-skip and trims the end to the last
/// page's granule position, so the count is what `opusdec` writes, and `op_pcm_seek` is sample-exact
/// (it pre-rolls 80 ms itself). Output is 16-bit: libopusfile's own float-to-16 conversion (`op_read`, with
/// the same noise-shaped dither `opusdec` applies).
public struct OpusDecoder: ~Copyable {
    private var file: OpaquePointer?
    private var context = ""
    private var channels = 2

    /// Creates a decoder (no file yet).
    public init() {}

    deinit { if let file { op_free(file) } }

    /// Opens the file at `path` (raw bytes), closing any open one, and returns its shape. Wraps `open(2)`,
    /// `op_fdopen` and `op_open_callbacks`.
    public mutating func open(path: [UInt8]) throws(OpusError) -> (sampleRate: Int, channels: Int) {
        close()
        context = String(decoding: path, as: UTF8.self)
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw OpusError(function: "open", code: -errno, context: context) }
        var callbacks = OpusFileCallbacks()
        guard let stream = op_fdopen(&callbacks, fd, "rb") else {
            let code = errno
            Glibc.close(fd)
            throw OpusError(function: "open", code: -code, context: context)
        }
        var rc: Int32 = 0
        guard let opened = op_open_callbacks(stream, &callbacks, nil, 0, &rc) else {
            // On failure op_open_callbacks leaves the stream to the caller.
            _ = callbacks.close(stream)
            throw OpusError(function: "op_open_callbacks", code: rc, context: context)
        }
        file = opened
        channels = Int(op_channel_count(opened, -1))
        return (48_000, channels)
    }

    /// Closes the file. Wraps `op_free`.
    public mutating func close() {
        if let file { op_free(file) }
        file = nil
    }

    /// Decodes up to `frames` frames into the front of `buffer` (interleaved 16-bit); 0 at the end. Damaged
    /// packets (`OP_HOLE`) are passed over. Wraps `op_read`.
    public mutating func read(into buffer: inout [Int16], frames: Int) throws(OpusError) -> Int {
        guard let file else { return 0 }
        let room = Int32(min(frames * channels, buffer.count))
        var holes = 0
        while true {
            errno = 0
            var link: Int32 = 0
            let got = buffer.withUnsafeMutableBufferPointer { out in op_read(file, out.baseAddress, room, &link) }
            let code = errno
            if got >= 0 {
                let linkChannels = Int(op_channel_count(file, link))
                // A chained stream whose links differ in channel count is read as far as the first change.
                return linkChannels == channels ? Int(got) : 0
            }
            if [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM].contains(code) {
                throw OpusError(function: "read", code: -code, context: context)
            }
            if got == OP_HOLE && holes < 16 {
                holes += 1
                continue
            }
            return 0
        }
    }

    /// Moves to `frame` (48 kHz) from the start; returns where it landed. Wraps `op_pcm_seek`.
    @discardableResult
    public mutating func seek(toFrame frame: Int) throws(OpusError) -> Int {
        guard let file else { return 0 }
        let rc = op_pcm_seek(file, Int64(max(0, frame)))
        guard rc == 0 else { throw OpusError(function: "op_pcm_seek", code: rc, context: context) }
        return Int(op_pcm_tell(file))
    }
}

// @unchecked: an OggOpusFile may be used from any thread, one at a time; `OpusDecoder` is `~Copyable`, so it
// has one owner (the audio thread) and sending it moves it.
extension OpusDecoder: @unchecked Sendable {}
