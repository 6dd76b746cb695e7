import ShuffleCore

/// Reads an MP4 / M4A file's boxes (`ftyp`, `moov`, `mdat`) without decoding: the first sound track's
/// codec (`mp4a` AAC or `alac`), rate, channels and bit depth, its exact length, the iTunes tags and the
/// chapters (`MP4Chapters`).
///
/// The length is what a gapless decoder yields: iTunes' `iTunSMPB` original sample count when present,
/// else the track's edit list (the priming samples before its media time and the padding after its
/// duration are cut, as FFmpeg does), else the media header's duration. None of them is more than the
/// sample table (`stts`) holds, which is what a decoder decodes: headers can claim hours of audio that
/// is not there. A file whose `mdat` runs past its end, or that has no `moov` (a download cut short
/// before the index at its end), is cut short.
enum MP4Probe {
    /// Bytes read of one small leaf box (headers, sample descriptions, edit lists).
    static let leafLimit = 4096

    /// The sound track's facts, as the boxes give them.
    struct Track {
        var codec: String?
        var unsupported: String?
        var rate = 0
        var channels = 0
        var bits: Int?
        var timescale = 0
        var duration: UInt64 = 0
        /// The samples' durations added up (`stts`), in the media's timescale; nil when the table could
        /// not be read in full.
        var sampleTableDuration: UInt64?
        /// Edit list: media time where the presentation starts, and its length in movie time.
        var editStart: Int64?
        var editDuration: UInt64?
        /// HE-AAC: the decoder's output rate is twice the core rate.
        var outputRate = 0
    }

    /// Probes the MP4 file behind `source` (its `ftyp` box at 0).
    static func probe(_ source: ByteSource) -> ProbeOutcome {
        let top = MP4Box.children(of: source, in: 0..<source.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            if let mdat = top.first(where: { $0.type == "mdat" }), mdat.end > source.count {
                return .unplayable(
                    reason:
                        "audio is cut short: MP4 media data holds \(source.count - mdat.payload) of \(mdat.end - mdat.payload) bytes"
                )
            }
            return .unplayable(reason: "MP4 file without a movie header (moov): cut short or not audio")
        }
        if moov.end > source.count { return .unplayable(reason: "MP4 movie header (moov) is cut short") }
        if let mdat = top.first(where: { $0.type == "mdat" }), mdat.end > source.count {
            return .unplayable(
                reason:
                    "audio is cut short: MP4 media data holds \(source.count - mdat.payload) of \(mdat.end - mdat.payload) bytes"
            )
        }
        guard top.contains(where: { $0.type == "mdat" || $0.type == "moof" }) else {
            return .unplayable(reason: "MP4 file holds no media data (mdat)")
        }
        let children = moov.children(in: source)
        let movieTimescale = children.first { $0.type == "mvhd" }.flatMap { timescaleAndDuration($0, source)?.0 } ?? 0
        var sound: Track?
        var soundBox: MP4Box?
        var videos: [MP4Box] = []
        for trak in children where trak.type == "trak" {
            guard let mdia = trak.child("mdia", in: source), let handler = handlerType(mdia, source) else { continue }
            if handler == "vide" { videos.append(trak) }
            if handler == "soun", sound == nil {
                sound = track(trak, mdia: mdia, source)
                soundBox = trak
            }
        }
        // A video track makes the file a video, unless the sound track names it as its chapters (`tref/chap`):
        // the chapter pictures of an audiobook from iTunes, a still image per chapter.
        let pictures = soundBox.map { MP4Chapters.chapterTrackIDs(sound: $0, source) } ?? []
        if videos.contains(where: { video in MP4Chapters.trackID(video, source).map { !pictures.contains($0) } ?? true }
        ) {
            return .notAudio
        }
        guard let sound, let soundBox else { return .unplayable(reason: "MP4 file holds no sound track") }
        if let unsupported = sound.unsupported { return .unplayable(reason: "format not supported: \(unsupported)") }
        guard let codec = sound.codec, sound.rate > 0, sound.channels > 0 else {
            return .unplayable(reason: "MP4 sound track is damaged: no sample description")
        }
        let tags = MP4Tags.read(moov, source)
        guard let frames = length(sound, tags: tags, movieTimescale: movieTimescale), frames > 0 else {
            return .unplayable(reason: "MP4 sound track holds no samples")
        }
        let stream = StreamInfo(
            codec: codec, sampleRate: sound.outputRate, channels: sound.channels, frames: frames,
            bitsPerSample: sound.bits)
        var info = tags.raw.tagInfo(resolveGenre: false).withNormalisation(tags.normalisation)
        info.chapters = MP4Chapters.read(movieBoxes: children, sound: soundBox, durationMs: stream.durationMs, source)
        return .audio(info, stream)
    }

    /// The exact output length in samples at the output rate.
    static func length(_ track: Track, tags: MP4Tags, movieTimescale: Int) -> Int64? {
        let held = track.sampleTableDuration.map { min($0, track.duration) } ?? track.duration
        if track.codec == "aac", let smpb = tags.iTunSMPB, smpb.total > 0 {
            // The tag counts samples at the core rate, as the sample table does (AAC's timescale is its rate).
            let total = track.timescale == track.rate ? min(smpb.total, held) : smpb.total
            return Int64(file: total).map { $0 * Int64(track.outputRate / max(1, track.rate)) }
        }
        guard track.timescale > 0, let duration = Int64(file: held) else { return nil }
        var media = duration
        if let start = track.editStart, start > 0, start < media {
            media -= start
        }
        if let edit = track.editDuration, movieTimescale > 0, let editLength = Int64(file: edit),
            editLength < Int64.max / Int64(track.timescale)
        {
            // The edit's length is in movie time; the decoder's end trim rounds to the media's samples.
            let inMedia = (editLength * Int64(track.timescale) + Int64(movieTimescale) / 2) / Int64(movieTimescale)
            if inMedia > 0 { media = min(media, inMedia) }
        }
        let scale = Int64(track.outputRate)
        guard media < Int64.max / max(1, scale) else { return nil }
        return media * scale / Int64(track.timescale)
    }

    /// The handler type (`soun`, `vide`, ...) of a `mdia` box.
    static func handlerType(_ mdia: MP4Box, _ source: ByteSource) -> String? {
        mdia.child("hdlr", in: source)?.bytes(in: source, limit: 12).fourCC(at: 8)
    }

    /// A `mvhd` or `mdhd` box's timescale and duration (version 0 or 1).
    static func timescaleAndDuration(_ box: MP4Box, _ source: ByteSource) -> (Int, UInt64)? {
        let bytes = box.bytes(in: source, limit: 32)
        guard let version = bytes.first else { return nil }
        if version == 1 {
            guard let scale = bytes.u32be(20), let duration = bytes.bigEndian(at: 24, width: 8) else { return nil }
            return (scale, duration)
        }
        guard let scale = bytes.u32be(12), let duration = bytes.bigEndian(at: 16, width: 4) else { return nil }
        return (scale, duration)
    }

    /// The facts of one sound track.
    private static func track(_ trak: MP4Box, mdia: MP4Box, _ source: ByteSource) -> Track {
        var track = Track()
        if let mdhd = mdia.child("mdhd", in: source), let (scale, duration) = timescaleAndDuration(mdhd, source) {
            track.timescale = scale
            track.duration = duration
        }
        if let elst = trak.child("edts", in: source)?.child("elst", in: source) { readEditList(elst, source, &track) }
        guard let stbl = mdia.child("minf", in: source)?.child("stbl", in: source),
            let stsd = stbl.child("stsd", in: source),
            let entry = stsd.child("mp4a", in: source, skip: 8) ?? stsd.children(in: source, skip: 8).first
        else { return track }
        let bytes = source.bytes(at: entry.payload, count: 28)[...]
        guard bytes.count == 28, let channels = bytes.u16be(16), let bits = bytes.u16be(18),
            let rate = bytes.u32be(24)
        else { return track }
        track.channels = channels
        track.rate = rate >> 16
        let version = bytes.u16be(8) ?? 0
        // QuickTime sound description versions 1 and 2 add fields before the child boxes.
        let childSkip = 28 + (version == 1 ? 16 : version == 2 ? 36 : 0)
        switch entry.type {
        case "alac":
            track.codec = "alac"
            track.bits = bits
            if let config = entry.child("alac", in: source, skip: childSkip) {
                let alac = config.bytes(in: source, limit: 28)
                // After version and flags, ALACSpecificConfig: bit depth at 9, channels at 13, sample rate at 24.
                if alac.count == 28, let rate = alac.u32be(24) {
                    track.bits = Int(alac[alac.startIndex + 9])
                    track.channels = Int(alac[alac.startIndex + 13])
                    track.rate = rate
                }
            }
        case "mp4a":
            track.codec = "aac"
            if let esds = entry.child("esds", in: source, skip: childSkip) {
                switch ESDescriptor.audioConfig(esds.bytes(in: source, limit: leafLimit)) {
                case .aac(let config):
                    if config.sampleRate > 0 { track.rate = config.sampleRate }
                    track.outputRate = config.outputRate
                    if config.channels > 0 { track.channels = config.channels }
                case .unsupported(let name):
                    track.unsupported = name
                case .unknown:
                    break
                }
            }
        default:
            track.unsupported =
                "MP4 audio of type \(entry.type.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 } ? entry.type : "?")"
        }
        // An AAC packet decodes to 1,024 samples whatever its table entry says (a short last entry marks
        // padding, which only an edit list cuts); an ALAC packet to the samples its entry gives.
        track.sampleTableDuration = stbl.child("stts", in: source).flatMap {
            sampleTableDuration($0, source, packetSamples: track.codec == "aac" ? 1024 : 0)
        }
        if track.outputRate == 0 { track.outputRate = track.rate }
        if track.rate == 0 { track.rate = track.timescale }
        if track.outputRate == 0 { track.outputRate = track.timescale }
        return track
    }

    /// The durations of a time-to-sample table (`stts`) added up, each at least `packetSamples`; nil when it
    /// is damaged or longer than one read (its entries are then not all seen, and the headers' duration stands).
    static func sampleTableDuration(_ stts: MP4Box, _ source: ByteSource, packetSamples: UInt64) -> UInt64? {
        let bytes = stts.bytes(in: source, limit: ByteSource.maxRead)
        guard let count = bytes.u32be(4), count <= (bytes.count - 8) / 8 else { return nil }
        var total: UInt64 = 0
        for entry in 0..<count {
            guard let samples = bytes.bigEndian(at: 8 + 8 * entry, width: 4),
                let delta = bytes.bigEndian(at: 12 + 8 * entry, width: 4)
            else { return nil }
            // Each product of two 32-bit values fits; the sum is checked.
            let (sum, overflow) = total.addingReportingOverflow(samples * max(delta, packetSamples))
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    /// The first edit of a track: where its media starts (priming) and how long it lasts (movie time).
    private static func readEditList(_ elst: MP4Box, _ source: ByteSource, _ track: inout Track) {
        let bytes = elst.bytes(in: source, limit: 64)
        guard let version = bytes.first, let count = bytes.u32be(4), count >= 1 else { return }
        var offset = 8
        // An empty edit (media time -1) first delays the start; the next one is the real one.
        for _ in 0..<min(count, 2) {
            let width = version == 1 ? 8 : 4
            guard let duration = bytes.bigEndian(at: offset, width: width),
                let time = bytes.bigEndian(at: offset + width, width: width)
            else { return }
            let signed = width == 8 ? Int64(bitPattern: time) : Int64(Int32(bitPattern: UInt32(time)))
            offset += 2 * width + 4
            if signed == -1 { continue }
            track.editStart = signed
            track.editDuration = duration
            return
        }
    }
}
