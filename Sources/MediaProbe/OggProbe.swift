import ShuffleCore

/// Reads an Ogg Vorbis or Ogg Opus file from its first pages and its last page, without decoding.
///
/// The identification header gives channels and rate (Opus: channels, pre-skip and output gain; Opus
/// always decodes at 48 kHz); the comment header (`\u{3}vorbis`, `OpusTags`) the tags, reassembled
/// across pages up to `maxCommentBytes`. The length is the granule position of the stream's last page,
/// found in the last `tailWindow` bytes with its CRC checked, minus Opus's pre-skip, which is what
/// libvorbisfile and libopusfile yield. A file whose last page is incomplete is cut short. A chained file
/// (links one after another, each a stream of its own) is walked page by page and its links' lengths added.
enum OggProbe {
    /// The most pages read from the start for the headers.
    static let maxHeadPages = 512
    /// The most bytes of a comment header kept (cover art embedded as a comment can be megabytes).
    static let maxCommentBytes = 256 * 1024
    /// Bytes read from the end to find the last page (a page is at most 65,307 bytes).
    static let tailWindow = 2 * 65_536
    /// Bytes of header pages whose CRC is checked at most (a comment holding cover art can run to megabytes;
    /// the pages past this are walked unchecked).
    static let headerCheckBudget = maxCommentBytes + tailWindow

    /// One page's header fields.
    struct Page {
        /// Where the page starts.
        let offset: Int
        /// Header type flags: 1 continued packet, 2 first page of a stream, 4 last page.
        let flags: UInt8
        /// The granule position (all ones: no packet ends on this page).
        let granule: UInt64
        /// The logical stream.
        let serial: UInt32
        /// Lacing values.
        let segments: [UInt8]
        /// Bytes of the header with its lacing table.
        var headerLength: Int { 27 + segments.count }
        /// Bytes of the whole page.
        var length: Int { headerLength + segments.reduce(0) { $0 + Int($1) } }
    }

    /// The page header at `offset`, if the bytes there are one (the CRC is not checked here).
    static func page(_ source: ByteSource, at offset: Int) -> Page? {
        let head = source.bytes(at: offset, count: 27)[...]
        guard head.count == 27, head.matches("OggS", at: 0), head[head.startIndex + 4] == 0 else { return nil }
        let count = Int(head[head.startIndex + 26])
        let lacing = source.bytes(at: offset + 27, count: count)
        guard lacing.count == count, let granule = head.littleEndian(at: 6, width: 8),
            let serial = head.u32le(14)
        else { return nil }
        return Page(
            offset: offset, flags: head[head.startIndex + 5], granule: granule, serial: UInt32(serial),
            segments: lacing)
    }

    /// Adds the body of `page` to `packets` (the last one open): a lacing value under 255 ends a packet.
    /// Bytes past `limit` in one packet are dropped (the packet still ends where it ends).
    static func gather(_ page: Page, _ source: ByteSource, into packets: inout [[UInt8]], keeping limit: Int) {
        var bodyOffset = page.offset + page.headerLength
        for lace in page.segments {
            let size = Int(lace)
            if packets[packets.count - 1].count < limit {
                packets[packets.count - 1] += source.bytes(at: bodyOffset, count: size)
            }
            bodyOffset += size
            if size < 255 { packets.append([]) }
        }
    }

    /// Probes the Ogg file whose first page is at `start`.
    static func probe(_ source: ByteSource, at start: Int) -> ProbeOutcome {
        guard let first = page(source, at: start), first.flags & 2 != 0 else {
            return .unplayable(reason: "Ogg file is damaged: no first page")
        }
        // The packets of the first stream: identification, then comments (the rest is not needed).
        var packets: [[UInt8]] = [[]]
        var offset = start
        var pages = 0
        var codec: String?
        var checked = 0
        while pages < maxHeadPages, packets.count <= 2 {
            guard let current = page(source, at: offset) else { break }
            pages += 1
            if current.serial == first.serial {
                // libogg drops a page whose CRC fails, so the decoders never see the headers on it and refuse
                // the file (a tagger that rewrites the comments and not the CRC makes such files).
                if checked + current.length <= headerCheckBudget {
                    checked += current.length
                    guard isIntact(source, current) else {
                        return .unplayable(reason: "Ogg headers are damaged: a page fails its CRC check")
                    }
                }
                gather(current, source, into: &packets, keeping: maxCommentBytes)
            } else if current.flags & 2 != 0, isVideo(source, page: current) {
                return .notAudio
            }
            if packets.count >= 2, codec == nil {
                codec = identify(packets[0])
                if codec == nil { break }
            }
            offset += current.length
        }
        guard packets.count >= 2 else { return .unplayable(reason: "Ogg headers are cut short") }
        let ident = packets[0][...]
        if ident.matches("\u{7F}FLAC", at: 0) { return .unplayable(reason: "format not supported: Ogg FLAC") }
        if ident.matches("Speex   ", at: 0) { return .unplayable(reason: "format not supported: Speex") }
        if ident.matches("\u{80}theora", at: 0) { return .notAudio }
        guard let codec else { return .unplayable(reason: "format not supported: Ogg stream of unknown codec") }
        let comments = packets[1][...]
        var tags = RawTags()
        let rate: Int
        let channels: Int
        var preSkip: UInt64 = 0
        var headerGain: Double?
        if codec == "opus" {
            guard ident.count >= 19, let skip = ident.u16le(10), let gain = ident.u16le(16) else {
                return .unplayable(reason: "Opus header is damaged")
            }
            channels = Int(ident[ident.startIndex + 9])
            preSkip = UInt64(skip)
            rate = 48_000
            // 0 (nearly every file) is no gain at all.
            headerGain = gain == 0 ? nil : Double(Int16(truncatingIfNeeded: gain)) / 256
            if comments.matches("OpusTags", at: 0) { tags = VorbisComment.read(comments.dropFirst(8)) }
        } else {
            guard ident.count >= 30, let sampleRate = ident.u32le(12) else {
                return .unplayable(reason: "Vorbis header is damaged")
            }
            channels = Int(ident[ident.startIndex + 11])
            rate = sampleRate
            if comments.matches("\u{3}vorbis", at: 0) { tags = VorbisComment.read(comments.dropFirst(7)) }
        }
        guard channels > 0, rate > 0 else {
            return .unplayable(reason: "\(codec == "opus" ? "Opus" : "Vorbis") header is damaged")
        }
        let end = TailTags(source: source, floor: start).audioEnd
        let tail = lastPage(source, serial: first.serial, from: max(start, end - tailWindow), to: end)
        if tail.endsEarly { return .unplayable(reason: "audio is cut short: the last Ogg page is incomplete") }
        var info = tags.tagInfo(resolveGenre: false)
        info.headerGain = headerGain
        if let last = tail.lastSerial, last != first.serial {
            // A chain (a radio recording, files joined with cat): links one after another, each a stream of
            // its own, all of which the decoders play. The length is theirs added up.
            let chain = chainLength(source, from: start, to: end, rate: rate)
            guard chain.frames > 0 else { return .unplayable(reason: "Ogg stream holds no audio") }
            return .audio(
                info,
                StreamInfo(
                    codec: codec, sampleRate: rate, channels: channels, frames: chain.frames,
                    isEstimate: chain.isEstimate))
        }
        guard let granule = tail.granule else { return .unplayable(reason: "Ogg file is damaged: no last page found") }
        guard granule > preSkip, let frames = Int64(file: granule - preSkip) else {
            return .unplayable(reason: "Ogg stream holds no audio")
        }
        return .audio(info, StreamInfo(codec: codec, sampleRate: rate, channels: channels, frames: frames))
    }

    /// `vorbis` or `opus` for the identification packet of a stream we play, else nil.
    static func identify(_ packet: [UInt8]) -> String? {
        if packet.matches("\u{1}vorbis", at: 0) { return "vorbis" }
        if packet.matches("OpusHead", at: 0) { return "opus" }
        return nil
    }

    /// The length of a chained file in frames at `rate` (the first link's): every page header from `start`
    /// to `end` is read (its body skipped), each link that begins with a Vorbis or Opus identification packet
    /// counts its last granule position less its pre-skip, converted from its own rate. Past the source's
    /// `walkBudget` the count is scaled up from the bytes walked (an estimate, walked in full later). The
    /// walk ends early at bytes that are not a page: what was counted by then is the length.
    static func chainLength(_ source: ByteSource, from start: Int, to end: Int, rate: Int)
        -> (frames: Int64, isEstimate: Bool)
    {
        struct Link {
            var preSkip: UInt64
            var rate: Int
            var granule: UInt64?
        }
        var links: [UInt32: Link] = [:]
        var offset = start
        let stop = start + min(end - start, source.walkBudget)
        var isEstimate = false
        while offset + 27 <= end {
            if offset >= stop {
                isEstimate = true
                break
            }
            guard let page = page(source, at: offset), offset + page.length <= end else { break }
            if page.flags & 2 != 0, links[page.serial] == nil {
                let ident = source.bytes(at: offset + page.headerLength, count: 30)[...]
                if ident.matches("OpusHead", at: 0), let skip = ident.u16le(10) {
                    links[page.serial] = Link(preSkip: UInt64(skip), rate: 48_000)
                } else if ident.matches("\u{1}vorbis", at: 0), let linkRate = ident.u32le(12), linkRate > 0 {
                    links[page.serial] = Link(preSkip: 0, rate: linkRate)
                }
            }
            if page.granule != UInt64.max, links[page.serial] != nil { links[page.serial]?.granule = page.granule }
            offset += page.length
        }
        var frames: Int64 = 0
        for link in links.values {
            guard let granule = link.granule, granule > link.preSkip, let own = Int64(file: granule - link.preSkip)
            else { continue }
            frames += link.rate == rate ? own : own * Int64(rate) / Int64(link.rate)
        }
        if isEstimate { frames = frames * Int64(end - start) / Int64(max(1, offset - start)) }
        return (frames, isEstimate)
    }

    /// Whether the first packet of the stream starting at `page` is a video codec's (Theora, Daala, VP8).
    private static func isVideo(_ source: ByteSource, page: Page) -> Bool {
        let head = source.bytes(at: page.offset + page.headerLength, count: 8)[...]
        return head.matches("\u{80}theora", at: 0) || head.matches("\u{80}daala", at: 0) || head.matches("OVP80", at: 0)
    }

    /// The granule position of the last complete page of stream `serial` between `start` and `end`
    /// (CRC-checked), and whether bytes of an incomplete page follow the last complete one (when that one
    /// does not end its stream).
    static func lastPage(_ source: ByteSource, serial: UInt32, from start: Int, to end: Int)
        -> (granule: UInt64?, endsEarly: Bool, lastSerial: UInt32?)
    {
        let window = source.bytes(at: start, count: end - start)[...]
        var index = 0
        var granule: UInt64?
        var lastSerial: UInt32?
        var lastEnd = -1
        var lastFlags: UInt8 = 0
        while index + 27 <= window.count {
            guard window[window.startIndex + index] == 0x4F, window.matches("OggS", at: index),
                let length = completePage(window, at: index)
            else {
                index += 1
                continue
            }
            lastFlags = window[window.startIndex + index + 5]
            lastSerial = window.u32le(index + 14).map { UInt32($0) }
            if let value = window.littleEndian(at: index + 6, width: 8), let found = window.u32le(index + 14),
                UInt32(found) == serial, value != UInt64.max
            {
                granule = value
            }
            index += length
            lastEnd = index
        }
        // Bytes after a last page that does not close its stream: the rest of that stream is missing.
        return (granule, lastEnd >= 0 && lastEnd < window.count && lastFlags & 4 == 0, lastSerial)
    }

    /// Whether `page` passes its CRC check; a page cut short by the end of the file is not judged here.
    private static func isIntact(_ source: ByteSource, _ page: Page) -> Bool {
        let bytes = source.bytes(at: page.offset, count: page.length)[...]
        return bytes.count < page.length || completePage(bytes, at: 0) != nil
    }

    /// The length of the whole page at `index` of `window` when it fits and its CRC matches.
    private static func completePage(_ window: ArraySlice<UInt8>, at index: Int) -> Int? {
        let base = window.startIndex + index
        guard index + 27 <= window.count, window[base + 4] == 0 else { return nil }
        let count = Int(window[base + 26])
        guard index + 27 + count <= window.count else { return nil }
        let body = window[(base + 27)..<(base + 27 + count)].reduce(0) { $0 + Int($1) }
        let length = 27 + count + body
        guard index + length <= window.count, let stored = window.u32le(index + 22) else { return nil }
        var page = Array(window[base..<(base + length)])
        page[22] = 0
        page[23] = 0
        page[24] = 0
        page[25] = 0
        return Checksums.crc32Ogg(page) == UInt32(stored) ? length : nil
    }
}
