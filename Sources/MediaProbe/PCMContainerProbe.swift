import ShuffleCore

/// Reads RIFF WAVE and AIFF / AIFC files: the chunk holding the format (`fmt `, `COMM`), the sample
/// data's size (`data`, `SSND`), and the tags (`LIST`/`INFO` text, an `id3 ` / `ID3 ` chunk holding an
/// ID3v2 tag, AIFF `NAME`/`AUTH`). Uncompressed PCM and float, and MP3 in WAV: other codings in these
/// containers are "format not supported".
enum PCMContainerProbe {
    /// The most chunks looked at.
    static let maxChunks = 1024
    /// Bytes of one text chunk read at most.
    static let maxText = 64 * 1024
    /// Bytes of text chunks read in all (a hostile file can hold a thousand of them).
    static let maxTextTotal = 256 * 1024

    /// One chunk: its id, where its data starts, and its declared size.
    struct Chunk {
        let id: String
        let data: Int
        let size: Int
    }

    /// The chunks of a RIFF (`bigEndian` false) or IFF (true) form whose chunks start at `start`.
    static func chunks(_ source: ByteSource, from start: Int, to end: Int, bigEndian: Bool) -> [Chunk] {
        var out: [Chunk] = []
        var offset = start
        while offset + 8 <= end, out.count < maxChunks {
            let head = source.bytes(at: offset, count: 8)[...]
            guard head.count == 8, let id = head.fourCC(at: 0),
                let size = bigEndian ? head.u32be(4) : head.u32le(4)
            else { break }
            out.append(Chunk(id: id, data: offset + 8, size: size))
            let (next, overflow) = (offset + 8).addingReportingOverflow(size + (size & 1))
            guard !overflow else { break }
            offset = next
        }
        return out
    }

    // MARK: - WAV

    /// Probes a RIFF WAVE file.
    static func probeWAV(_ source: ByteSource) -> ProbeOutcome {
        let list = chunks(source, from: 12, to: source.count, bigEndian: false)
        guard let fmt = list.first(where: { $0.id == "fmt " }) else {
            return .unplayable(reason: "WAV file without a format chunk")
        }
        let format = source.bytes(at: fmt.data, count: min(fmt.size, 40))[...]
        guard fmt.size >= 16, format.count >= 16, var code = format.u16le(0), let channels = format.u16le(2),
            let rate = format.u32le(4), let align = format.u16le(12), let bits = format.u16le(14)
        else { return .unplayable(reason: "WAV format chunk is damaged") }
        if code == 0xFFFE, let sub = format.u16le(24) { code = sub }  // WAVE_FORMAT_EXTENSIBLE: the sub-format
        if code == 0x55 { return probeMP3InWAV(source, list) }
        guard code == 1 || code == 3 else {
            return .unplayable(reason: "format not supported: WAV coding 0x\(String(code, radix: 16, uppercase: true))")
        }
        guard channels > 0, rate > 0, align > 0, bits > 0 else {
            return .unplayable(reason: "WAV format chunk is damaged")
        }
        guard let data = list.first(where: { $0.id == "data" }) else {
            return .unplayable(reason: "WAV file without audio data")
        }
        let available = max(0, source.count - data.data)
        if data.size > available {
            return .unplayable(reason: "audio is cut short: WAV data holds \(available) of \(data.size) bytes")
        }
        let frames = Int64(data.size / align)
        guard frames > 0 else { return .unplayable(reason: "WAV file holds no samples") }
        return .audio(
            wavTags(source, list),
            StreamInfo(codec: "wav", sampleRate: rate, channels: channels, frames: frames, bitsPerSample: bits))
    }

    /// A WAV file whose `data` chunk holds an MPEG audio stream (format tag 0x55, as FFmpeg and old Windows
    /// tools write): measured as an MP3 stream is, from the frames in the chunk; the rate and channels are
    /// the frames', not the format chunk's.
    private static func probeMP3InWAV(_ source: ByteSource, _ list: [Chunk]) -> ProbeOutcome {
        guard let data = list.first(where: { $0.id == "data" }) else {
            return .unplayable(reason: "WAV file without audio data")
        }
        let end = data.data + min(data.size, max(0, source.count - data.data))
        switch MPEGStreamScanner(source: source, start: data.data, end: end).scan() {
        case .stream(let stream): return .audio(wavTags(source, list), stream)
        case .truncated(let reason): return .unplayable(reason: reason)
        case .noStream: return .unplayable(reason: "WAV file says MP3 but holds no MPEG audio")
        }
    }

    /// The tags of a WAV file: an `id3 ` chunk's ID3v2 tag first, then `LIST`/`INFO` text.
    private static func wavTags(_ source: ByteSource, _ list: [Chunk]) -> TagInfo {
        var tags = RawTags()
        var budget = maxTextTotal
        var id3Read = false
        for chunk in list {
            switch chunk.id {
            case "LIST": readInfo(source, chunk, into: &tags, budget: &budget)
            case "id3 " where !id3Read, "ID3 " where !id3Read:
                tags = readID3(source, chunk).filling(tags)
                id3Read = true
            default: break
            }
        }
        return tags.tagInfo(resolveGenre: true)
    }

    /// A `LIST` chunk of type `INFO`: `INAM` title, `IART` artist, `IPRD` album, `ICRD` date, `IGNR` genre,
    /// `ITRK`/`IPRT` track.
    private static func readInfo(_ source: ByteSource, _ chunk: Chunk, into tags: inout RawTags, budget: inout Int) {
        guard source.bytes(at: chunk.data, count: 4)[...].matches("INFO", at: 0) else { return }
        for item in chunks(source, from: chunk.data + 4, to: chunk.data + chunk.size, bigEndian: false) {
            let field: RawTags.Field
            switch item.id {
            case "INAM": field = .title
            case "IART": field = .artist
            case "IPRD": field = .album
            case "ICRD": field = .year
            case "IGNR": field = .genre
            case "ITRK", "IPRT": field = .track
            default: continue
            }
            guard item.size <= min(maxText, budget) else { continue }
            budget -= item.size
            let bytes = source.bytes(at: item.data, count: item.size)
            let text = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
            tags.offer(field, TagText.utf8(text))
        }
    }

    /// The ID3v2 tag inside an `id3 ` / `ID3 ` chunk.
    private static func readID3(_ source: ByteSource, _ chunk: Chunk) -> RawTags {
        let header = ID3v2Tag.header(in: source, at: chunk.data)
        guard case .present(_, _, _, let end) = header, end <= chunk.data + chunk.size + 1 else { return RawTags() }
        return ID3v2Tag.read(source, at: chunk.data, header: header)
    }

    // MARK: - AIFF

    /// Probes an AIFF or AIFC file (`isAIFC`).
    static func probeAIFF(_ source: ByteSource, isAIFC: Bool) -> ProbeOutcome {
        let list = chunks(source, from: 12, to: source.count, bigEndian: true)
        guard let comm = list.first(where: { $0.id == "COMM" }) else {
            return .unplayable(reason: "AIFF file without a COMM chunk")
        }
        let bytes = source.bytes(at: comm.data, count: min(comm.size, 64))[...]
        guard comm.size >= 18, bytes.count >= 18, let channels = bytes.u16be(0), let frames = bytes.u32be(2),
            let bits = bytes.u16be(6), let rate = extended80(bytes.dropFirst(8).prefix(10))
        else { return .unplayable(reason: "AIFF COMM chunk is damaged") }
        if isAIFC {
            let compression = bytes.fourCC(at: 18) ?? "?"
            guard ["NONE", "sowt", "twos", "fl32", "FL32", "fl64", "FL64", "raw "].contains(compression) else {
                let printable = compression.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }
                return .unplayable(reason: "format not supported: AIFC coding \(printable ? compression : "?")")
            }
        }
        guard channels > 0, rate > 0, bits > 0 else { return .unplayable(reason: "AIFF COMM chunk is damaged") }
        guard let ssnd = list.first(where: { $0.id == "SSND" }) else {
            return .unplayable(reason: "AIFF file without sound data")
        }
        let offset = source.bytes(at: ssnd.data, count: 4)[...].u32be(0) ?? 0
        let needed = frames * channels * ((bits + 7) / 8)
        let available = max(0, min(ssnd.size, source.count - ssnd.data) - 8 - offset)
        if available < needed {
            return .unplayable(reason: "audio is cut short: AIFF sound data holds \(available) of \(needed) bytes")
        }
        var tags = RawTags()
        var budget = maxTextTotal
        var id3Read = false
        for chunk in list {
            switch chunk.id {
            case "ID3 " where !id3Read, "id3 " where !id3Read:
                tags = readID3(source, chunk).filling(tags)
                id3Read = true
            case "NAME", "AUTH":
                guard chunk.size <= min(maxText, budget) else { continue }
                budget -= chunk.size
                tags.offer(
                    chunk.id == "NAME" ? .title : .artist, TagText.utf8(source.bytes(at: chunk.data, count: chunk.size))
                )
            default: break
            }
        }
        guard frames > 0 else { return .unplayable(reason: "AIFF file holds no samples") }
        return .audio(
            tags.tagInfo(resolveGenre: true),
            StreamInfo(codec: "aiff", sampleRate: rate, channels: channels, frames: Int64(frames), bitsPerSample: bits))
    }

    /// An 80-bit IEEE 754 extended float (AIFF's sample rate) as a whole number, when it is a sane rate.
    static func extended80(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 10, let exponentBits = bytes.u16be(0), let mantissa = bytes.bigEndian(at: 2, width: 8)
        else { return nil }
        let exponent = Int(exponentBits & 0x7FFF) - 16383 - 63
        guard exponentBits & 0x8000 == 0, mantissa != 0, exponent > -64, exponent < 0 else { return nil }
        let value = mantissa >> UInt64(-exponent)
        return value > 0 && value <= 1_536_000 ? Int(value) : nil
    }
}

extension RawTags {
    /// These tags, with fields they lack taken from `other`.
    func filling(_ other: RawTags) -> RawTags {
        var out = self
        for field in RawTags.Field.allCases where out[field] == nil { out.offer(field, other[field]) }
        return out
    }
}
