internal import CSndFile
internal import Glibc

/// The shape of an open file's audio.
public struct SndFileFormat: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int
    /// Bits per sample as stored: 8, 16, 24 or 32 (32 also for 32- and 64-bit floating point).
    public var bitsPerSample: Int
    /// Whether the samples are stored as floating point (−1…1).
    public var isFloat: Bool
    /// The frames (per channel) the file holds, as far as its header and size say.
    public var frames: Int64
}

/// One libsndfile reader for linear PCM and floating-point audio in WAV (RIFF, RF64) and AIFF/AIFC files, and
/// MP3 in WAV, owned by one thread (the audio thread) and reused for file after file.
///
/// Only those containers and codings are opened: the player picks this reader for WAV and AIFF, and a file
/// holding µ-law, ADPCM or anything else is refused as the index refuses it ("format not supported"). Every
/// PCM sample is exact and seeks land on the frame asked for (PCM has no frames to decode around).
public final class SndFileDecoder {
    private var file: OpaquePointer?
    private var format = SndFileFormat(
        sampleRate: 0, channels: 0, bitsPerSample: 16, isFloat: false, frames: 0)
    private var context = ""

    /// Creates a reader with no file open.
    public init() {}

    deinit { close() }

    /// Opens the file at `path` (raw bytes: names need not be UTF-8), closing any file that was open, and returns
    /// its shape. Throws when it cannot be read, or is not linear PCM or floating point in WAV or AIFF. Wraps
    /// `open(2)` and `sf_open_fd`.
    public func open(path: [UInt8]) throws(SndFileError) -> SndFileFormat {
        close()
        context = String(decoding: path, as: UTF8.self)
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            let code = errno
            throw SndFileError(
                function: "open", message: String(cString: strerror(code)), systemError: code, context: context)
        }
        var info = SF_INFO()
        // close_desc: libsndfile closes the descriptor with the file, and on a failed open.
        guard let opened = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            throw SndFileError(function: "sf_open_fd", message: String(cString: sf_strerror(nil)), context: context)
        }
        switch Int(info.format) & Int(SF_FORMAT_TYPEMASK) {
        case Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX), Int(SF_FORMAT_RF64), Int(SF_FORMAT_AIFF): break
        default:
            sf_close(opened)
            throw SndFileError(function: "sf_open_fd", message: "not a WAV or AIFF file", context: context)
        }
        let bits: Int
        var isFloat = false
        switch Int(info.format) & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_PCM_S8), Int(SF_FORMAT_PCM_U8): bits = 8
        case Int(SF_FORMAT_PCM_16): bits = 16
        case Int(SF_FORMAT_PCM_24): bits = 24
        case Int(SF_FORMAT_PCM_32): bits = 32
        // MP3 in WAV (format tag 0x55): libsndfile decodes it through libmpg123 to 16-bit samples.
        case Int(SF_FORMAT_MPEG_LAYER_III): bits = 16
        case Int(SF_FORMAT_FLOAT), Int(SF_FORMAT_DOUBLE):
            bits = 32
            isFloat = true
        default:
            let coding = String(Int(info.format) & Int(SF_FORMAT_SUBMASK), radix: 16, uppercase: true)
            sf_close(opened)
            throw SndFileError(
                function: "sf_open_fd", message: "format not supported: coding 0x\(coding), not linear PCM",
                context: context)
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(opened)
            throw SndFileError(function: "sf_open_fd", message: "no channels or no sample rate", context: context)
        }
        file = opened
        format = SndFileFormat(
            sampleRate: Int(info.samplerate), channels: Int(info.channels), bitsPerSample: bits, isFloat: isFloat,
            frames: Int64(info.frames))
        return format
    }

    /// Closes the current file, if any. Wraps `sf_close`.
    public func close() {
        guard let file else { return }
        sf_close(file)
        self.file = nil
    }

    /// Reads up to `frames` frames into the front of `buffer` as 16-bit samples (8-bit ones shifted up; use it
    /// for files of at most 16 bits). Returns the frames written; 0 at the end. Wraps `sf_readf_short`.
    public func read(into buffer: inout [Int16], frames: Int) throws(SndFileError) -> Int {
        try read(frames: frames, limit: buffer.count) { file, count in
            buffer.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, count) }
        }
    }

    /// Reads up to `frames` frames into the front of `buffer` as 32-bit samples, left-justified (a 24-bit sample
    /// keeps all its bits, in the top 24). Returns the frames written; 0 at the end. Wraps `sf_readf_int`.
    public func read(into buffer: inout [Int32], frames: Int) throws(SndFileError) -> Int {
        try read(frames: frames, limit: buffer.count) { file, count in
            buffer.withUnsafeMutableBufferPointer { sf_readf_int(file, $0.baseAddress, count) }
        }
    }

    /// Reads up to `frames` frames into the front of `buffer` as floating point (−1…1, unclipped, as stored).
    /// Returns the frames written; 0 at the end. Wraps `sf_readf_float`.
    public func read(into buffer: inout [Float], frames: Int) throws(SndFileError) -> Int {
        try read(frames: frames, limit: buffer.count) { file, count in
            buffer.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, count) }
        }
    }

    /// One read of at most `frames` frames, and no more than the buffer's `limit` samples hold; a failing medium
    /// (a stick pulled) is an error with its `errno`, a short file simply ends.
    private func read(frames: Int, limit: Int, _ body: (OpaquePointer, sf_count_t) -> sf_count_t)
        throws(SndFileError) -> Int
    {
        guard let file, format.channels > 0 else { return 0 }
        let count = min(frames, limit / format.channels)
        guard count > 0 else { return 0 }
        errno = 0
        let got = body(file, sf_count_t(count))
        let code = errno
        if got < count, sf_error(file) == Int32(SF_ERR_SYSTEM) {
            let cause = code != 0 ? code : EIO
            throw SndFileError(
                function: "read", message: String(cString: strerror(cause)), systemError: cause, context: context)
        }
        return max(0, Int(got))
    }

    /// Moves to `frame` (per channel) from the start; returns where it landed (exactly there, or the end of a
    /// shorter file). Wraps `sf_seek`.
    @discardableResult
    public func seek(toFrame frame: Int) throws(SndFileError) -> Int {
        guard let file else { return 0 }
        let target = min(Int64(max(0, frame)), format.frames)
        let landed = sf_seek(file, sf_count_t(target), SEEK_SET)
        guard landed >= 0 else {
            throw SndFileError(function: "sf_seek", message: String(cString: sf_strerror(file)), context: context)
        }
        return Int(landed)
    }
}

// @unchecked: libsndfile handles may be used from any thread, one at a time; the audio thread owns this object once
// it is handed over and never shares it.
extension SndFileDecoder: @unchecked Sendable {}
