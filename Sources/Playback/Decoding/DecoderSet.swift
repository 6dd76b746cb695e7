import HelperWire

/// The decoders of the audio thread, one per library, each made when a file first needs it; picks the one
/// for a file by its content (`ContentKind`), never by its name.
final class DecoderSet {
    private let mp3: MP3TrackDecoder
    private var flac: FLACTrackDecoder?
    private var vorbis: VorbisTrackDecoder?
    private var opus: OpusTrackDecoder?
    private var pcm: SndFileTrackDecoder?
    /// AAC and ALAC: FFmpeg in a process of its own, started when first needed and kept while this set lives.
    private let mp4: HelperTrackDecoder
    /// The decoder of the last file opened: closed when another one takes over, so no file stays open.
    private var last: (any TrackDecoder)?

    /// Makes the MP3 decoder at once (so a player that cannot decode at all fails before it starts).
    /// `decoderProgram`: the AAC/ALAC decoder's executable (`shufflebox-decoder` beside this one);
    /// `decoderTimeoutMs`: how long it may take to answer before it is ended.
    init(
        decoderProgram: String = HelperProcess.besideExecutable("shufflebox-decoder"),
        decoderTimeoutMs: Int32 = 20_000
    ) throws(DecodeFailure) {
        mp3 = try MP3TrackDecoder()
        mp4 = HelperTrackDecoder(process: HelperTrackDecoder.process(program: decoderProgram, timeoutMs: decoderTimeoutMs))
    }

    /// Gets ready for `path`, to be opened soon (the next track): starts the AAC/ALAC decoder's process
    /// now if the file needs it, so that its start overlaps the track playing instead of delaying the join.
    /// Errors wait for the open, which reports them.
    func prepare(path: [UInt8]) {
        guard (try? ContentKind.of(path: path)) == .container else { return }
        try? mp4.process.start()
    }

    /// The AAC/ALAC decoder's process id while it runs (for tests).
    var decoderProcessID: Int32? { mp4.process.processID }

    /// Opens `path` with the decoder its content calls for; returns that decoder and the stream's shape.
    func open(path: [UInt8]) throws(DecodeFailure) -> (decoder: any TrackDecoder, format: StreamFormat) {
        let decoder: any TrackDecoder
        switch try ContentKind.of(path: path) {
        case .mpeg: decoder = mp3
        case .flac:
            if flac == nil { flac = try FLACTrackDecoder() }
            decoder = flac!
        case .vorbis:
            if vorbis == nil { vorbis = VorbisTrackDecoder() }
            decoder = vorbis!
        case .opus:
            if opus == nil { opus = OpusTrackDecoder() }
            decoder = opus!
        case .pcm:
            if pcm == nil { pcm = SndFileTrackDecoder() }
            decoder = pcm!
        case .container: decoder = mp4
        case .unsupported(let name):
            throw DecodeFailure(
                description: "format not supported: \(name) (\(String(decoding: path, as: UTF8.self)))", systemError: nil)
        }
        if let last, last !== decoder { last.close() }
        last = decoder
        return (decoder, try decoder.open(path: path))
    }

    /// Closes every decoder's file.
    func closeAll() {
        mp3.close()
        flac?.close()
        vorbis?.close()
        opus?.close()
        pcm?.close()
        mp4.close()
    }
}

// @unchecked: made on the engine's thread, then handed to the audio thread once (through `AudioThread`'s box)
// and used by that thread alone.
extension DecoderSet: @unchecked Sendable {}
