internal import CFFmpeg
internal import Glibc

/// One FFmpeg demuxer and audio decoder (libavformat, libavcodec) for AAC and ALAC in MP4, and PCM in WAV and
/// AIFF; owned by one thread (the audio thread) and reused for file after file.
///
/// Only the `mov`, `wav` and `aiff` demuxers and the `file` protocol are allowed (`format_whitelist`,
/// `protocol_whitelist`), and only the AAC, ALAC and linear PCM decoders: FFmpeg never guesses at a file the
/// player did not pick it for. The encoder delay and padding of AAC are cut by FFmpeg itself from the MP4 edit
/// list (`elst`), as `ffmpeg` does; seeks land on the exact sample asked for: the demuxer seeks to a packet at
/// or before the target less a pre-roll (AAC needs its previous frame), and the frames before the target are
/// decoded and dropped, counted by their timestamps.
///
/// A class because it owns several FFmpeg objects that are freed together; it is handed to the audio thread once.
public final class FFmpegDecoder {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    private var streamIndex: Int32 = -1
    private var timeBase = AVRational(num: 1, den: 1)
    /// Frames of `frame` already handed out, and whether `frame` holds a decoded frame.
    private var frameOffset = 0
    private var frameReady = false
    /// Whether the end of the file was reached and the decoder told to drain.
    private var draining = false
    private var format = FFmpegFormat(sampleRate: 0, channels: 0, bitsPerSample: 16, name: "")
    /// The next frame (per channel) `read` hands out, counted from the start of the track.
    private var position = 0
    /// Where the track ends (per channel), when the container says and the decoder would run past it: AAC
    /// in MP4 ends at the edit list's duration (FFmpeg 5.1 cuts the priming the list names at the start, but
    /// not the padding at the end).
    private var duration: Int64?
    private var path: [UInt8] = []
    private var context = ""
    private var decodeErrors = 0

    private let api: FFmpegAPI

    /// Creates a decoder, loading FFmpeg's libraries the first time (`FFmpegAPI`); throws when they are not
    /// installed. Wraps `av_packet_alloc` and `av_frame_alloc`.
    public init() throws(FFmpegError) {
        let api = try FFmpegAPI.shared.get()
        self.api = api
        guard let packet = api.av_packet_alloc() else { throw FFmpegError(function: "av_packet_alloc", code: -ENOMEM) }
        guard let frame = api.av_frame_alloc() else {
            var dead: UnsafeMutablePointer<AVPacket>? = packet
            api.av_packet_free(&dead)
            throw FFmpegError(function: "av_frame_alloc", code: -ENOMEM)
        }
        self.packet = packet
        self.frame = frame
    }

    deinit {
        close()
        var deadPacket: UnsafeMutablePointer<AVPacket>? = packet
        api.av_packet_free(&deadPacket)
        var deadFrame: UnsafeMutablePointer<AVFrame>? = frame
        api.av_frame_free(&deadFrame)
    }


    // MARK: - Opening

    /// Opens the file at `path` (raw bytes), closing any open one, decodes its first frame and returns the
    /// shape of its audio (from that frame: HE-AAC's real rate is known only once decoded). Wraps `open(2)`,
    /// `avformat_open_input`, `av_find_best_stream`, `avcodec_open2`.
    public func open(path: [UInt8]) throws(FFmpegError) -> FFmpegFormat {
        close()
        self.path = path
        context = String(decoding: path, as: UTF8.self)
        // open(2) first: FFmpeg's file protocol folds every failure into its own codes; ours tells a missing or
        // unreadable file (the stick) from a bad one.
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw FFmpegError(function: "open", code: -errno, context: context) }
        Glibc.close(fd)
        do throws(FFmpegError) {
            try openContainer()
            guard try nextFrame() else {
                throw FFmpegError(function: "avcodec_receive_frame", code: shim_averror_eof(), context: context,
                    detail: "no audio could be decoded")
            }
            format = try shape(of: frame)
            return format
        } catch {
            close()
            throw error
        }
    }

    /// The real samples iTunes' gapless tag names (`iTunSMPB`: " 00000000 priming padding samples …", hex),
    /// which FFmpeg's MP4 reader keeps in the file's metadata; nil without one.
    private func iTunesSamples(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int64? {
        guard let entry = api.av_dict_get(context.pointee.metadata, "iTunSMPB", nil, 0),
            let value = entry.pointee.value
        else { return nil }
        let fields = String(cString: value).split(separator: " ")
        guard fields.count >= 4, let samples = Int64(fields[3], radix: 16), samples > 0 else { return nil }
        return samples
    }

    private func openContainer() throws(FFmpegError) {
        var options: OpaquePointer?
        _ = api.av_dict_set(&options, "format_whitelist", "mov,wav,aiff", 0)
        _ = api.av_dict_set(&options, "protocol_whitelist", "file", 0)
        defer { api.av_dict_free(&options) }
        let url = Array("file:".utf8) + path + [0]
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let rc = url.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { api.avformat_open_input(&opened, $0.baseAddress, nil, &options) }
        }
        guard rc >= 0, let opened else { throw FFmpegError(function: "avformat_open_input", code: rc, context: context) }
        formatContext = opened
        let best = api.av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard best >= 0 else {
            throw FFmpegError(function: "av_find_best_stream", code: best, context: context, detail: "no audio stream")
        }
        streamIndex = best
        for index in 0..<Int(opened.pointee.nb_streams) where index != Int(best) {
            opened.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
        }
        let stream = opened.pointee.streams[Int(best)]!
        timeBase = stream.pointee.time_base
        let parameters = stream.pointee.codecpar!
        let id = parameters.pointee.codec_id
        duration = id == AV_CODEC_ID_AAC && stream.pointee.duration > 0 ? stream.pointee.duration : nil
        if id == AV_CODEC_ID_AAC, parameters.pointee.sample_rate > 0, let samples = iTunesSamples(opened) {
            // Without an edit list FFmpeg cuts iTunSMPB's priming but plays its padding: the tag's sample count
            // ends the track (with an edit list the two agree, and the shorter wins).
            let end = api.av_rescale_q(samples, AVRational(num: 1, den: parameters.pointee.sample_rate), timeBase)
            duration = min(duration ?? end, end)
        }
        guard FFmpegDecoder.allowed(id) else {
            let name = codecName(id)
            throw FFmpegError(function: "avcodec_find_decoder", code: -ENOSYS, context: context,
                detail: "format not supported: \(name)")
        }
        guard let codec = api.avcodec_find_decoder(id), let made = api.avcodec_alloc_context3(codec) else {
            throw FFmpegError(function: "avcodec_find_decoder", code: -ENOSYS, context: context,
                detail: "no decoder for \(codecName(id))")
        }
        codecContext = made
        var rc2 = api.avcodec_parameters_to_context(made, parameters)
        guard rc2 >= 0 else { throw FFmpegError(function: "avcodec_parameters_to_context", code: rc2, context: context) }
        made.pointee.pkt_timebase = timeBase
        rc2 = api.avcodec_open2(made, codec, nil)
        guard rc2 >= 0 else { throw FFmpegError(function: "avcodec_open2", code: rc2, context: context) }
        frameReady = false
        frameOffset = 0
        draining = false
        position = 0
        decodeErrors = 0
    }

    private func codecName(_ id: AVCodecID) -> String {
        api.avcodec_get_name(id).map { String(cString: $0) } ?? "codec \(id.rawValue)"
    }

    private static func allowed(_ id: AVCodecID) -> Bool {
        switch id {
        case AV_CODEC_ID_AAC, AV_CODEC_ID_ALAC, AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S16BE, AV_CODEC_ID_PCM_S24LE,
            AV_CODEC_ID_PCM_S24BE, AV_CODEC_ID_PCM_S32LE, AV_CODEC_ID_PCM_S32BE, AV_CODEC_ID_PCM_U8, AV_CODEC_ID_PCM_S8,
            AV_CODEC_ID_PCM_F32LE, AV_CODEC_ID_PCM_F32BE, AV_CODEC_ID_PCM_F64LE, AV_CODEC_ID_PCM_F64BE:
            return true
        default:
            return false
        }
    }

    /// The shape of a decoded frame's audio.
    private func shape(of frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> FFmpegFormat {
        let sampleFormat = AVSampleFormat(rawValue: frame.pointee.format)
        let bits: Int
        switch sampleFormat {
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P:
            let raw = Int(codecContext?.pointee.bits_per_raw_sample ?? 0)
            bits = raw > 16 && raw <= 32 ? raw : 32
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_FLT,
            AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP:
            // Lossy float (AAC) and float PCM reach the output as 16-bit, rounded as `ffmpeg -f s16le` rounds.
            bits = 16
        default:
            throw FFmpegError(function: "avcodec_receive_frame", code: -ENOSYS, context: context,
                detail: "unsupported sample format \(frame.pointee.format)")
        }
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        guard channels > 0, frame.pointee.sample_rate > 0 else {
            throw FFmpegError(function: "avcodec_receive_frame", code: -EINVAL, context: context, detail: "no channels")
        }
        let id = codecContext?.pointee.codec_id ?? AV_CODEC_ID_NONE
        let name: String
        switch id {
        case AV_CODEC_ID_AAC: name = "aac"
        case AV_CODEC_ID_ALAC: name = "alac"
        default:
            let container = formatContext.map { String(cString: $0.pointee.iformat.pointee.name) } ?? ""
            name = container.hasPrefix("aiff") ? "aiff" : "wav"
        }
        return FFmpegFormat(sampleRate: Int(frame.pointee.sample_rate), channels: channels, bitsPerSample: bits, name: name)
    }

    /// Closes the file. Wraps `avcodec_free_context` and `avformat_close_input`.
    public func close() {
        api.av_frame_unref(frame)
        frameReady = false
        if codecContext != nil { api.avcodec_free_context(&codecContext) }
        if formatContext != nil { api.avformat_close_input(&formatContext) }
    }

    // MARK: - Decoding

    /// What one read produced.
    public enum ReadResult: Sendable, Equatable {
        /// This many frames were written to the front of the buffer.
        case frames(Int)
        /// The stream changes shape from here on; nothing was written.
        case newFormat(FFmpegFormat)
        /// The stream ended.
        case done
    }

    /// Decodes up to `frames` frames into the front of `buffer` as 16-bit samples (formats of at most 16 bits).
    public func read(into buffer: inout [Int16], frames: Int) throws(FFmpegError) -> ReadResult {
        try read(frames: frames) { count in
            buffer.withUnsafeMutableBufferPointer { out in convert16(into: out.baseAddress!, count: count) }
        }
    }

    /// Decodes up to `frames` frames into the front of `buffer` as left-justified 32-bit samples.
    public func read(into buffer: inout [Int32], frames: Int) throws(FFmpegError) -> ReadResult {
        try read(frames: frames) { count in
            buffer.withUnsafeMutableBufferPointer { out in convert32(into: out.baseAddress!, count: count) }
        }
    }

    private func read(frames: Int, copy: (Int) -> Void) throws(FFmpegError) -> ReadResult {
        guard codecContext != nil else { return .done }
        if !frameReady || frameOffset >= Int(frame.pointee.nb_samples) {
            guard try nextFrame() else { return .done }
            let shape = try shape(of: frame)
            if shape != format {
                format = shape
                return .newFormat(shape)
            }
        }
        var count = min(frames, Int(frame.pointee.nb_samples) - frameOffset)
        if let duration {
            // In the decoded rate (HE-AAC decodes at twice the rate its core is coded at).
            let end = Int(api.av_rescale_q(duration, timeBase, AVRational(num: 1, den: Int32(format.sampleRate))))
            count = min(count, end - position)
            if count <= 0 { return .done }
        }
        copy(count)
        frameOffset += count
        position += count
        return .frames(count)
    }

    /// Receives the next decoded frame, reading and sending packets as needed; false at the end.
    private func nextFrame() throws(FFmpegError) -> Bool {
        guard let codecContext, let formatContext else { return false }
        api.av_frame_unref(frame)
        frameReady = false
        frameOffset = 0
        while true {
            let received = api.avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                if frame.pointee.nb_samples <= 0 {
                    api.av_frame_unref(frame)
                    continue
                }
                decodeErrors = 0
                frameReady = true
                return true
            }
            if received == shim_averror_eof() { return false }
            if received != shim_averror_eagain() {
                // A frame that would not decode: skip it, but a file of nothing else ends the track.
                decodeErrors += 1
                if decodeErrors > 16 { return false }
                continue
            }
            if draining { return false }
            errno = 0
            let rc = api.av_read_frame(formatContext, packet)
            let code = errno
            if rc < 0 {
                if [EIO, ENODEV, ENXIO, ESTALE, ENOTCONN, ENOMEDIUM].contains(code) {
                    throw FFmpegError(function: "read", code: -code, context: context)
                }
                // The end of the file (or damage past which nothing can be read): drain what the decoder holds.
                draining = true
                _ = api.avcodec_send_packet(codecContext, nil)
                continue
            }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = api.avcodec_send_packet(codecContext, packet)
            if sent < 0 && sent != shim_averror_eagain() {
                decodeErrors += 1
                if decodeErrors > 16 { return false }
            }
        }
    }

    /// Moves to `target` (per channel) from the start of the track; returns where it landed (exactly there
    /// unless the file ends first). Wraps `av_seek_frame` and `avcodec_flush_buffers`.
    @discardableResult
    public func seek(toFrame target: Int) throws(FFmpegError) -> Int {
        guard let codecContext, let formatContext, format.sampleRate > 0 else { return 0 }
        let wanted = max(0, target)
        if wanted == 0 {
            // The start: open again, so the priming cut FFmpeg applies at the start is applied again.
            close()
            try openContainer()
            guard try nextFrame() else { return 0 }
            return 0
        }
        let preroll = codecContext.pointee.codec_id == AV_CODEC_ID_AAC ? 2 * 1024 * 2 : 0
        let from = max(0, wanted - preroll)
        let timestamp = api.av_rescale_q(Int64(from), AVRational(num: 1, den: Int32(format.sampleRate)), timeBase)
        let rc = api.av_seek_frame(formatContext, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard rc >= 0 else { throw FFmpegError(function: "av_seek_frame", code: rc, context: context) }
        api.avcodec_flush_buffers(codecContext)
        draining = false
        while try nextFrame() {
            let pts = frame.pointee.best_effort_timestamp != shim_av_nopts_value()
                ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            guard pts != shim_av_nopts_value() else {
                position = wanted
                return wanted
            }
            let start = Int(api.av_rescale_q(pts, timeBase, AVRational(num: 1, den: Int32(format.sampleRate))))
            let end = start + Int(frame.pointee.nb_samples)
            if end <= wanted { continue }
            frameOffset = max(0, wanted - start)
            position = max(wanted, start)
            return position
        }
        return wanted
    }

    // MARK: - Sample conversion

    private func convert16(into out: UnsafeMutablePointer<Int16>, count: Int) {
        let channels = format.channels
        let planar = api.av_sample_fmt_is_planar(AVSampleFormat(rawValue: frame.pointee.format)) != 0
        let data = frame.pointee.extended_data!
        let first = frameOffset
        switch AVSampleFormat(rawValue: frame.pointee.format) {
        case AV_SAMPLE_FMT_S16:
            let source = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: Int16.self) + first * channels
            out.update(from: source, count: count * channels)
        case AV_SAMPLE_FMT_S16P:
            interleave(data, channels, first, count, out) { (p: UnsafePointer<Int16>, i: Int) in p[i] }
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP:
            if planar {
                interleave(data, channels, first, count, out) { (p: UnsafePointer<Float>, i: Int) in toInt16(p[i]) }
            } else {
                let source = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: Float.self) + first * channels
                for index in 0..<(count * channels) { out[index] = toInt16(source[index]) }
            }
        case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP:
            if planar {
                interleave(data, channels, first, count, out) { (p: UnsafePointer<Double>, i: Int) in toInt16(Float(p[i])) }
            } else {
                let source = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: Double.self) + first * channels
                for index in 0..<(count * channels) { out[index] = toInt16(Float(source[index])) }
            }
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P:
            if planar {
                interleave(data, channels, first, count, out) { (p: UnsafePointer<UInt8>, i: Int) in
                    Int16(Int(p[i]) - 128) << 8
                }
            } else {
                let source = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: UInt8.self) + first * channels
                for index in 0..<(count * channels) { out[index] = Int16(Int(source[index]) - 128) << 8 }
            }
        default:
            out.update(repeating: 0, count: count * channels)
        }
    }

    private func convert32(into out: UnsafeMutablePointer<Int32>, count: Int) {
        let channels = format.channels
        let data = frame.pointee.extended_data!
        let first = frameOffset
        switch AVSampleFormat(rawValue: frame.pointee.format) {
        case AV_SAMPLE_FMT_S32:
            let source = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: Int32.self) + first * channels
            out.update(from: source, count: count * channels)
        case AV_SAMPLE_FMT_S32P:
            interleave(data, channels, first, count, out) { (p: UnsafePointer<Int32>, i: Int) in p[i] }
        default:
            out.update(repeating: 0, count: count * channels)
        }
    }
}

/// Interleaves `count` frames from planar channel buffers, starting at frame `first`.
@inline(__always)
private func interleave<Source, Sample>(
    _ data: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ channels: Int, _ first: Int, _ count: Int,
    _ out: UnsafeMutablePointer<Sample>, _ convert: (UnsafePointer<Source>, Int) -> Sample
) {
    for channel in 0..<channels {
        let plane = UnsafePointer(UnsafeRawPointer(data[channel]!).assumingMemoryBound(to: Source.self))
        var index = channel
        for frame in first..<(first + count) {
            out[index] = convert(plane, frame)
            index += channels
        }
    }
}

/// Float to 16-bit as libswresample does it for `ffmpeg -f s16le`: scaled by 32768, rounded, clipped.
@inline(__always)
private func toInt16(_ value: Float) -> Int16 {
    let scaled = (value * 32768).rounded(.toNearestOrEven)
    guard !scaled.isNaN else { return 0 }
    return Int16(max(-32768, min(32767, scaled)))
}

// @unchecked: FFmpeg contexts may be used from any thread, one at a time; the audio thread owns this object
// once it is handed over and never shares it.
extension FFmpegDecoder: @unchecked Sendable {}
