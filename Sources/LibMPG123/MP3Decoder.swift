internal import CMPG123
internal import Glibc

/// One libmpg123 decoder handle, owned by one thread (the audio thread), reused for track after track.
///
/// Output is fixed to signed 16-bit samples at each stream's own rate and channel count: the decoder never
/// resamples (libmpg123's resampler is crude, see the comment on `mpg123_format` in mpg123.h) and leaves
/// format changes to the output. Gapless decoding (`MPG123_GAPLESS`) is on, so the encoder delay and padding
/// named in the LAME/Info header are cut, `MPG123_QUIET` keeps the library from printing to stderr, and
/// `MPG123_SKIP_ID3V2` passes over ID3v2 tags by seeking instead of reading them into memory.
public struct MP3Decoder: ~Copyable {
    private let handle: OpaquePointer
    /// The file descriptor of the open track, or -1. libmpg123 never closes a descriptor it was given
    /// (`mpg123_close` docs), so this type does.
    private var fd: Int32
    /// Errors in a row while reading; a few are tolerated (damaged frames are skipped), then the track ends.
    private var consecutiveErrors: Int
    /// The path of the open track, for messages.
    private var context: String
    /// A format change libmpg123 announced together with the last samples of the old format: `MPG123_NEW_FORMAT`
    /// can come with a filled buffer (the samples before the change), and the next read is already in the new
    /// format, so the change is handed out by the next `read` before any of its samples.
    private var pendingFormat: MP3Format?

    /// Creates a decoder. Wraps `mpg123_init` (once per process), `mpg123_new`, `mpg123_param2` and
    /// `mpg123_format`.
    public init() throws(MPG123Error) {
        try MP3Decoder.initialiseLibrary()
        var rc: Int32 = 0
        guard let made = mpg123_new(nil, &rc) else { throw MPG123Error(code: rc, function: "mpg123_new") }
        do {
            try MP3Decoder.configure(made)
        } catch {
            mpg123_delete(made)
            throw error
        }
        // Every property is set after the last `throw`: Swift 6.0 to 6.2 crash on a `~Copyable` init with a
        // `deinit` that throws with a defaulted property set ("SIL memory lifetime failure").
        handle = made
        fd = -1
        consecutiveErrors = 0
        context = ""
        pendingFormat = nil
    }

    /// Sets the flags and the fixed output format on a fresh handle.
    private static func configure(_ made: OpaquePointer) throws(MPG123Error) {
        // MPG123_SKIP_ID3V2: tags are read by the indexer, never here. Parsing one makes libmpg123 read the
        // whole tag into memory first, however large the tag claims to be; skipped, it is passed over by seeking.
        let flags = Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue)
        try check(mpg123_param2(made, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0), "mpg123_param")
        // Skip junk between damaged frames for up to 64 KiB before giving up on a stream.
        try check(mpg123_param2(made, Int32(MPG123_RESYNC_LIMIT.rawValue), 65_536, 0), "mpg123_param")
        try check(mpg123_format_none(made), "mpg123_format_none")
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue)
        for index in 0..<count {
            guard let rate = rates?[index] else { continue }
            try check(mpg123_format(made, rate, channels, Int32(MPG123_ENC_SIGNED_16.rawValue)), "mpg123_format")
        }
    }

    deinit {
        mpg123_close(handle)
        if fd >= 0 { Glibc.close(fd) }
        mpg123_delete(handle)
    }

    // MARK: - Opening

    /// Opens the file at `path` (raw bytes, no trailing NUL: names need not be UTF-8), closing any track that
    /// was open, and returns its output format. Throws when the file cannot be opened or holds no MPEG audio
    /// frame. Wraps `open(2)`, `mpg123_open_fd` and `mpg123_getformat`.
    public mutating func open(path: [UInt8]) throws(MPG123Error) -> MP3Format {
        close()
        let context = String(decoding: path, as: UTF8.self)
        let opened: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard opened >= 0 else { throw MPG123Error(code: -errno, function: "open", context: context) }
        fd = opened
        consecutiveErrors = 0
        pendingFormat = nil
        self.context = context
        do throws(MPG123Error) {
            errno = 0
            var rc = shim_mpg123_open_fd(handle, opened)
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            if rc == MPG123_OK.rawValue { rc = mpg123_getformat(handle, &rate, &channels, &encoding) }
            if rc != MPG123_OK.rawValue, let failure = MP3Decoder.readFailure(errno, context) { throw failure }
            try check(rc, "mpg123_getformat", context)
            return MP3Format(sampleRate: rate, channels: Int(channels))
        } catch {
            close()
            throw error
        }
    }

    /// Closes the current track, if any. Wraps `mpg123_close` and `close(2)`.
    public mutating func close() {
        mpg123_close(handle)
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: - Decoding

    /// Decodes into the front of `buffer` (its count is the most it may fill; it is never resized, so the
    /// audio thread can reuse one buffer without allocating). Damaged frames are skipped: libmpg123 resyncs
    /// on its own, and a handful of errors in a row end the track instead of failing it. A file that cannot
    /// be read any more (`read(2)` failing with EIO, ENODEV, ENXIO…: the stick was pulled out) throws an
    /// error with function "read". Wraps `mpg123_read`.
    public mutating func read(into buffer: inout [Int16]) throws(MPG123Error) -> MP3ReadResult {
        if let format = pendingFormat {
            pendingFormat = nil
            return .newFormat(format)
        }
        while true {
            var done = 0
            errno = 0
            let rc = buffer.withUnsafeMutableBytes { bytes in
                mpg123_read(handle, bytes.baseAddress, bytes.count, &done)
            }
            let readErrno = errno
            let samples = done / MemoryLayout<Int16>.size
            switch rc {
            case MPG123_OK.rawValue:
                consecutiveErrors = 0
                return .samples(samples)
            case MPG123_DONE.rawValue:
                return samples > 0 ? .samples(samples) : .done
            case MPG123_NEW_FORMAT.rawValue:
                var rate = 0
                var channels: Int32 = 0
                var encoding: Int32 = 0
                try check(mpg123_getformat(handle, &rate, &channels, &encoding), "mpg123_getformat")
                let format = MP3Format(sampleRate: rate, channels: Int(channels))
                // The samples that came with the announcement are still in the old format (mpg123.h).
                if samples > 0 {
                    pendingFormat = format
                    return .samples(samples)
                }
                return .newFormat(format)
            case MPG123_NEED_MORE.rawValue:
                // Only the feed reader asks for more; from a descriptor this means the file ended early.
                return samples > 0 ? .samples(samples) : .done
            default:
                if let failure = MP3Decoder.readFailure(readErrno, context) { throw failure }
                consecutiveErrors += 1
                if samples > 0 { return .samples(samples) }
                if consecutiveErrors > 8 { return .done }
                let code = mpg123_errcode(handle)
                // Misuse would be our bug, not the file's.
                precondition(code != MPG123_BAD_HANDLE.rawValue, "mpg123_read on a bad handle")
                if code == MPG123_NO_READER.rawValue || fd < 0 { return .done }
            }
        }
    }

    /// Moves to `frame` (per channel) from the start of the track; returns where it landed. Wraps `mpg123_seek`.
    @discardableResult
    public mutating func seek(toFrame frame: Int) throws(MPG123Error) -> Int {
        let landed = shim_mpg123_seek(handle, off_t(frame), SEEK_SET)
        guard landed >= 0 else { throw MPG123Error(code: Int32(landed), function: "mpg123_seek") }
        consecutiveErrors = 0
        return Int(landed)
    }

    /// The frame (per channel) the next read starts at. Wraps `mpg123_tell`.
    public func position() -> Int { max(0, Int(shim_mpg123_tell(handle))) }

    /// The track's length in frames (per channel) when known (scanning the file if there is no Info header),
    /// else nil. Wraps `mpg123_length`.
    public func length() -> Int? {
        let frames = shim_mpg123_length(handle)
        return frames >= 0 ? Int(frames) : nil
    }

    /// The error for a libmpg123 failure whose cause was `read(2)` failing with `code` (the medium, not the
    /// data), or nil when `code` is not such an error.
    private static func readFailure(_ code: Int32, _ context: String) -> MPG123Error? {
        guard [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM, EBADF].contains(code) else { return nil }
        return MPG123Error(code: -code, function: "read", context: context)
    }

    // MARK: - Library initialisation

    /// The result of the one `mpg123_init` call: a lazy `static let` runs its initialiser exactly once, and
    /// other threads wait for it (`swift_once`, which ThreadSanitizer sees as ordering, unlike a contended
    /// `Synchronization.Mutex`).
    private static let initialisation: Int32 = mpg123_init()

    /// `mpg123_init` must run once before the first handle; it is cheap but not documented thread-safe.
    private static func initialiseLibrary() throws(MPG123Error) {
        try check(initialisation, "mpg123_init")
    }
}

// @unchecked: a libmpg123 handle may be used from any thread, one at a time. `MP3Decoder` is `~Copyable`, so
// there is only ever one owner; sending it moves ownership (to the audio thread) rather than sharing it.
extension MP3Decoder: @unchecked Sendable {}
