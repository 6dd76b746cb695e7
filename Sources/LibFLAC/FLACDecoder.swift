internal import CFLAC
internal import Glibc

/// One libFLAC stream decoder, owned by one thread (the audio thread) and reused for file after file.
///
/// A class, not a `~Copyable` struct: libFLAC hands decoded frames to a callback with a `client_data`
/// pointer, which must stay valid while the decoder lives, so the object needs a stable address. Each decoded
/// frame is copied into `staging` (interleaved, at the stream's own scale) and `read` serves from there, so
/// the caller's buffer can have any size. MD5 checking is off (the player never reads a file to its end just
/// to check it); libFLAC's seek is sample-exact, so `seek(toFrame:)` lands exactly where asked.
public final class FLACDecoder {
    private let handle: UnsafeMutablePointer<FLAC__StreamDecoder>
    private var open = false
    private var context = ""
    /// Decoded samples not yet read, interleaved, at the stream's own scale; `stagingRead` is how far read.
    private var staging: [Int32] = []
    private var stagingCount = 0
    private var stagingRead = 0
    private var streamFormat: FLACFormat?
    /// The first error the error callback saw since the last read (lost sync, bad header, CRC mismatch).
    private var callbackError: FLAC__StreamDecoderErrorStatus?

    /// Creates a decoder. Wraps `FLAC__stream_decoder_new`.
    public init() throws(FLACError) {
        guard let made = FLAC__stream_decoder_new() else {
            throw FLACError(function: "FLAC__stream_decoder_new", message: "out of memory")
        }
        handle = made
    }

    deinit {
        FLAC__stream_decoder_finish(handle)
        FLAC__stream_decoder_delete(handle)
    }

    static var versionString: String { String(cString: shim_flac_version()) }

    // MARK: - Opening

    /// Opens the file at `path` (raw bytes: names need not be UTF-8), closing any file that was open, reads
    /// its metadata and returns its shape. Throws when it cannot be read or is not FLAC. Wraps `open(2)`,
    /// `fdopen`, `FLAC__stream_decoder_init_FILE` and `FLAC__stream_decoder_process_until_end_of_metadata`.
    public func open(path: [UInt8]) throws(FLACError) -> FLACFormat {
        close()
        let context = String(decoding: path, as: UTF8.self)
        self.context = context
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            let code = errno
            throw FLACError(function: "open", message: String(cString: strerror(code)), systemError: code, context: context)
        }
        guard let file = fdopen(fd, "rb") else {
            let code = errno
            Glibc.close(fd)
            throw FLACError(function: "fdopen", message: String(cString: strerror(code)), systemError: code, context: context)
        }
        FLAC__stream_decoder_set_md5_checking(handle, 0)
        let me = Unmanaged.passUnretained(self).toOpaque()
        // On failure libFLAC has not taken the FILE (it fcloses it only once initialised), so close it here.
        let status = FLAC__stream_decoder_init_FILE(handle, file, flacWrite, flacMetadata, flacError, me)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            fclose(file)
            throw FLACError(
                function: "FLAC__stream_decoder_init_FILE",
                message: String(cString: shim_flac_init_status(status)), context: context)
        }
        open = true
        streamFormat = nil
        callbackError = nil
        stagingCount = 0
        stagingRead = 0
        guard FLAC__stream_decoder_process_until_end_of_metadata(handle) != 0, let streamFormat else {
            let failure = stateError("FLAC__stream_decoder_process_until_end_of_metadata")
            close()
            throw failure
        }
        return streamFormat
    }

    /// Closes the current file, if any. Wraps `FLAC__stream_decoder_finish` (which closes the FILE).
    public func close() {
        guard open else { return }
        FLAC__stream_decoder_finish(handle)
        open = false
        stagingCount = 0
        stagingRead = 0
    }

    // MARK: - Decoding

    /// Decodes up to `frames` frames into the front of `buffer` as 16-bit samples (for streams of at most 16
    /// bits; fewer are shifted up). Returns the frames written; 0 at the end of the stream. Wraps
    /// `FLAC__stream_decoder_process_single`.
    public func read(into buffer: inout [Int16], frames: Int) throws(FLACError) -> Int {
        try copy(into: &buffer, frames: frames, width: 16)
    }

    /// Decodes up to `frames` frames into the front of `buffer` as 32-bit samples, left-justified (a 24-bit
    /// sample keeps all its bits, in the top 24). Returns the frames written; 0 at the end of the stream.
    public func read(into buffer: inout [Int32], frames: Int) throws(FLACError) -> Int {
        try copy(into: &buffer, frames: frames, width: 32)
    }

    /// Copies staged samples, shifted up to fill `width` bits.
    private func copy<Sample: FixedWidthInteger>(into buffer: inout [Sample], frames: Int, width: Int)
        throws(FLACError) -> Int
    {
        guard try fill(), let format = streamFormat else { return 0 }
        let count = min(frames, (stagingCount - stagingRead) / format.channels) * format.channels
        let shift = Int32(max(0, width - format.bitsPerSample))
        staging.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { out in
                let base = stagingRead
                for index in 0..<count { out[index] = Sample(truncatingIfNeeded: source[base + index] << shift) }
            }
        }
        stagingRead += count
        return count / format.channels
    }

    /// Makes sure staged samples are waiting; false at the end of the stream.
    private func fill() throws(FLACError) -> Bool {
        guard open else { return false }
        var attempts = 0
        while stagingRead >= stagingCount {
            let state = FLAC__stream_decoder_get_state(handle)
            if state == FLAC__STREAM_DECODER_END_OF_STREAM { return false }
            errno = 0
            let ok = FLAC__stream_decoder_process_single(handle) != 0
            let code = errno
            if [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM].contains(code) {
                throw FLACError(
                    function: "read", message: String(cString: strerror(code)), systemError: code, context: context)
            }
            if !ok {
                // A broken stream (lost sync that libFLAC could not recover from, a read error): the track
                // ends with what was decoded.
                return false
            }
            attempts += 1
            // A damaged file can make libFLAC skip data without producing a frame; do not spin on it forever.
            if stagingRead >= stagingCount && attempts > 64 { return false }
        }
        return true
    }

    /// Moves to `frame` (per channel) from the start; returns where it landed (exactly there). Wraps
    /// `FLAC__stream_decoder_seek_absolute`.
    @discardableResult
    public func seek(toFrame frame: Int) throws(FLACError) -> Int {
        guard open else { return 0 }
        stagingCount = 0
        stagingRead = 0
        if FLAC__stream_decoder_seek_absolute(handle, FLAC__uint64(max(0, frame))) == 0 {
            // A failed seek leaves the decoder in SEEK_ERROR: flush it back to a usable state, then report.
            let failure = stateError("FLAC__stream_decoder_seek_absolute")
            if FLAC__stream_decoder_get_state(handle) == FLAC__STREAM_DECODER_SEEK_ERROR {
                _ = FLAC__stream_decoder_flush(handle)
            }
            throw failure
        }
        return frame
    }

    private func stateError(_ function: String) -> FLACError {
        let state = FLAC__stream_decoder_get_state(handle)
        var message = String(cString: shim_flac_state(state))
        if let callbackError {
            message += ", " + String(cString: shim_flac_error_status(callbackError))
        }
        return FLACError(function: function, message: message, context: context)
    }

    // MARK: - Callbacks (called from inside libFLAC, on the thread that called it)

    fileprivate func received(_ frame: UnsafePointer<FLAC__Frame>, _ channelData: UnsafePointer<UnsafePointer<FLAC__int32>?>) {
        let blocksize = Int(frame.pointee.header.blocksize)
        let channels = Int(frame.pointee.header.channels)
        guard let format = streamFormat, channels == format.channels else { return }
        let needed = blocksize * channels
        // Grows only for a block bigger than any before (once per stream at most, in practice never after
        // the first frame).
        if staging.count < needed { staging = [Int32](repeating: 0, count: needed) }
        staging.withUnsafeMutableBufferPointer { out in
            for channel in 0..<channels {
                guard let samples = channelData[channel] else { continue }
                var index = channel
                for sample in 0..<blocksize {
                    out[index] = samples[sample]
                    index += channels
                }
            }
        }
        stagingCount = needed
        stagingRead = 0
    }

    fileprivate func metadata(_ block: UnsafePointer<FLAC__StreamMetadata>) {
        guard block.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
        let info = block.pointee.data.stream_info
        streamFormat = FLACFormat(
            sampleRate: Int(info.sample_rate), channels: Int(info.channels), bitsPerSample: Int(info.bits_per_sample),
            totalFrames: Int(info.total_samples))
        let needed = Int(info.max_blocksize) * Int(info.channels)
        if staging.count < needed { staging = [Int32](repeating: 0, count: needed) }
    }

    fileprivate func failed(_ status: FLAC__StreamDecoderErrorStatus) {
        if callbackError == nil { callbackError = status }
    }
}

// @unchecked: a libFLAC decoder may be used from any thread, one at a time. The audio thread owns this object;
// it is handed over once, before that thread starts using it, and never shared.
extension FLACDecoder: @unchecked Sendable {}

private func flacWrite(
    _ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ frame: UnsafePointer<FLAC__Frame>?,
    _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>?, _ client: UnsafeMutableRawPointer?
) -> FLAC__StreamDecoderWriteStatus {
    guard let frame, let buffer, let client else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().received(frame, buffer)
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
}

private func flacMetadata(
    _ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ block: UnsafePointer<FLAC__StreamMetadata>?,
    _ client: UnsafeMutableRawPointer?
) {
    guard let block, let client else { return }
    Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().metadata(block)
}

private func flacError(
    _ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ status: FLAC__StreamDecoderErrorStatus,
    _ client: UnsafeMutableRawPointer?
) {
    guard let client else { return }
    Unmanaged<FLACDecoder>.fromOpaque(client).takeUnretainedValue().failed(status)
}
