internal import CVorbisFile
internal import Glibc

/// The shape of a decoded Ogg stream (Vorbis or Opus): always 16-bit here.
public struct OggPCMFormat: Sendable, Hashable {
    /// Frames per second (48,000 for Opus).
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    /// Creates a format.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// A libvorbisfile failure: the function, the library's code and words, the file.
public struct VorbisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("open" for `open(2)`).
    public let function: String
    /// The library's code (`OV_ENOTVORBIS`…), or `-errno`.
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
        case OV_ENOTVORBIS: return "not Vorbis data"
        case OV_EBADHEADER: return "bad Vorbis header"
        case OV_EVERSION: return "Vorbis version mismatch"
        case OV_EREAD: return "read error"
        case OV_EFAULT: return "internal error"
        case OV_EBADLINK: return "bad link in the Ogg stream"
        case OV_ENOSEEK: return "stream not seekable"
        case OV_HOLE: return "hole in the data"
        default: return "error \(code)"
        }
    }

    /// "function: message (context)".
    public var description: String { context.isEmpty ? "\(function): \(message)" : "\(function): \(message) (\(context))" }
}

/// One libvorbisfile stream, owned by one thread, reused for file after file.
///
/// A class: `OggVorbis_File` is a large C struct that libvorbisfile points into itself, so it must not move.
/// Output is 16-bit signed native-endian interleaved at the stream's own rate; vorbisfile trims the stream to
/// its granule positions (the first page's start and the last page's end), so the count is what `oggdec`
/// writes, and `ov_pcm_seek` is sample-exact.
public final class VorbisDecoder {
    private let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
    private var open = false
    private var context = ""
    private var format = OggPCMFormat(sampleRate: 0, channels: 0)
    /// The logical stream (link) last read, to see a chained file change shape.
    private var link: Int32 = -1

    /// Creates a decoder (no file yet).
    public init() {}

    deinit {
        if open { ov_clear(file) }
        file.deallocate()
    }

    /// Opens the file at `path` (raw bytes), closing any open one, and returns its shape. Wraps `open(2)`,
    /// `fdopen` and `ov_open`.
    public func open(path: [UInt8]) throws(VorbisError) -> OggPCMFormat {
        close()
        context = String(decoding: path, as: UTF8.self)
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw VorbisError(function: "open", code: -errno, context: context) }
        guard let stream = fdopen(fd, "rb") else {
            let code = errno
            Glibc.close(fd)
            throw VorbisError(function: "open", code: -code, context: context)
        }
        let rc = ov_open(stream, file, nil, 0)
        guard rc == 0 else {
            // On failure ov_open leaves the FILE to the caller.
            fclose(stream)
            throw VorbisError(function: "ov_open", code: rc, context: context)
        }
        open = true
        guard let info = ov_info(file, -1) else {
            close()
            throw VorbisError(function: "ov_info", code: OV_EBADHEADER, context: context)
        }
        format = OggPCMFormat(sampleRate: Int(info.pointee.rate), channels: Int(info.pointee.channels))
        link = -1
        return format
    }

    /// Closes the file. Wraps `ov_clear` (which closes the FILE).
    public func close() {
        guard open else { return }
        ov_clear(file)
        open = false
    }

    /// What one read produced.
    public enum ReadResult: Sendable, Equatable {
        /// This many frames were written to the front of the buffer.
        case frames(Int)
        /// A chained file's next link has another shape; nothing was written.
        case newFormat(OggPCMFormat)
        /// The stream ended.
        case done
    }

    /// Decodes up to `frames` frames into the front of `buffer`. A hole in the data (`OV_HOLE`) is passed
    /// over. Wraps `ov_read`.
    public func read(into buffer: inout [Int16], frames: Int) throws(VorbisError) -> ReadResult {
        guard open else { return .done }
        let bytesWanted = Int32(min(frames * format.channels * 2, buffer.count * 2))
        var holes = 0
        while true {
            var current: Int32 = 0
            errno = 0
            let got = buffer.withUnsafeMutableBytes { bytes in
                ov_read(file, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytesWanted, 0, 2, 1, &current)
            }
            let code = errno
            if got > 0 {
                if current != link {
                    let first = link == -1
                    link = current
                    if let info = ov_info(file, current) {
                        let shape = OggPCMFormat(sampleRate: Int(info.pointee.rate), channels: Int(info.pointee.channels))
                        if !first && shape != format {
                            // The samples of the new link were read already: step back to the link's start.
                            format = shape
                            _ = ov_pcm_seek(file, ov_pcm_tell(file) - Int64(got) / Int64(2 * shape.channels))
                            return .newFormat(shape)
                        }
                    }
                }
                return .frames(Int(got) / (2 * format.channels))
            }
            if got == 0 { return .done }
            if [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM].contains(code) {
                throw VorbisError(function: "read", code: -code, context: context)
            }
            if got == OV_HOLE && holes < 16 {
                holes += 1
                continue
            }
            // OV_EBADLINK or a damaged stream: the track ends with what was heard.
            return .done
        }
    }

    /// Moves to `frame` from the start (sample-exact); returns where it landed. Wraps `ov_pcm_seek`.
    @discardableResult
    public func seek(toFrame frame: Int) throws(VorbisError) -> Int {
        guard open else { return 0 }
        let rc = ov_pcm_seek(file, Int64(max(0, frame)))
        guard rc == 0 else { throw VorbisError(function: "ov_pcm_seek", code: rc, context: context) }
        return Int(ov_pcm_tell(file))
    }

    /// The libvorbis version string. Wraps `vorbis_version_string`.
    public static var libraryVersion: String { String(cString: vorbis_version_string()) }
}

// @unchecked: libvorbisfile state may be used from any thread, one at a time; the audio thread owns this
// object once it is handed over and never shares it.
extension VorbisDecoder: @unchecked Sendable {}
