import ShuffleCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The iTunes-style tags of an MP4 file: `moov/udta/meta/ilst` items, each holding `data` boxes.
///
/// `©nam ©ART aART ©alb ©day ©gen` are UTF-8 text; `trkn` and `disk` binary number pairs; `gnre` an ID3
/// genre index plus one; `stik` (media kind) and `pcst` (podcast flag) numbers; `----` freeform items
/// name themselves with `mean` and `name` (iTunes writes `com.apple.iTunes` `iTunSMPB`, `iTunNORM`;
/// taggers write `replaygain_*` there). Pictures (`covr`) are skipped by offset.
struct MP4Tags {
    /// The text fields.
    var raw = RawTags()
    /// `iTunSMPB`: encoder priming and padding and the original sample count.
    var iTunSMPB: (priming: UInt64, padding: UInt64, total: UInt64)?
    /// The track gain iTunes' Sound Check (`iTunNORM`) implies, in dB.
    var normalisation: Double?
    /// iTunes' media kind (`stik`): 2 an audiobook, 21 a podcast (1 music, 10 a TV show, ...).
    var mediaKind: UInt64?
    /// iTunes' podcast flag (`pcst`).
    var podcastFlag: UInt64?

    /// Bytes of one item's value read at most.
    static let maxValue = 64 * 1024
    /// Bytes of item values read in all (a hostile file can hold thousands of items).
    static let maxTotal = 1024 * 1024
    /// Bytes still to be read.
    private var budget = maxTotal

    /// Reads the tags of the `moov` box.
    static func read(_ moov: MP4Box, _ source: ByteSource) -> MP4Tags {
        var tags = MP4Tags()
        let metas = [moov.child("udta", in: source)?.child("meta", in: source), moov.child("meta", in: source)]
        for meta in metas.compactMap({ $0 }) {
            // `meta` is a full box (4 bytes of version and flags) in MP4, a plain one in old QuickTime files.
            let skip = source.bytes(at: meta.payload + 4, count: 4)[...].matches("hdlr", at: 0) ? 0 : 4
            guard let ilst = meta.child("ilst", in: source, skip: skip) else { continue }
            for item in ilst.children(in: source) { tags.apply(item, source) }
        }
        tags.raw.story = tags.story
        return tags
    }

    /// What the flags say the file is: the podcast flag wins, then the media kind.
    var story: StoryKind? {
        if let podcastFlag, podcastFlag != 0 { return .podcast }
        switch mediaKind {
        case 2: return .audiobook
        case 21: return .podcast
        default: return nil
        }
    }

    /// Records what one `ilst` item says.
    private mutating func apply(_ item: MP4Box, _ source: ByteSource) {
        if item.type == "covr" { return }
        let parts = item.children(in: source)
        guard budget > 0 else { return }
        let values = parts.filter { $0.type == "data" }.compactMap { box -> (Int, ArraySlice<UInt8>)? in
            guard budget > 0 else { return nil }
            let bytes = box.bytes(in: source, limit: min(Self.maxValue, budget))
            budget -= bytes.count + 8
            guard let kind = bytes.u32be(0), bytes.count >= 8 else { return nil }
            return (kind & 0xFF_FFFF, bytes.dropFirst(8))
        }
        let texts = values.filter { $0.0 == 1 || $0.0 == 0 }.map { TagText.utf8($0.1) }
        switch item.type {
        case "©nam": raw.offer(.title, all: texts)
        case "©ART": raw.offer(.artist, all: texts)
        case "aART": raw.offer(.albumArtist, all: texts)
        case "©alb": raw.offer(.album, all: texts)
        case "©day": raw.offer(.year, all: texts)
        case "©gen": raw.offer(.genre, all: texts)
        case "gnre":
            if let value = values.first?.1, let index = value.u16be(0), index > 0 {
                raw.offer(.genre, Genres.name(index: index - 1))
            }
        case "stik", "pcst":
            // A number of 1 to 8 bytes (iTunes and mutagen write one byte).
            guard let value = values.first?.1, (1...8).contains(value.count),
                let number = value.bigEndian(at: 0, width: value.count)
            else { return }
            if item.type == "stik" { mediaKind = number } else { podcastFlag = number }
        case "trkn", "disk":
            guard let value = values.first?.1, let number = value.u16be(2) else { return }
            let total = value.u16be(4) ?? 0
            guard number > 0 else { return }
            raw.offer(item.type == "trkn" ? .track : .disc, total > 0 ? "\(number)/\(total)" : "\(number)")
        case "----":
            let name = parts.first { $0.type == "name" }.map {
                TagText.utf8($0.bytes(in: source, limit: 256).dropFirst(4))
            }
            guard let name, let text = texts.first else { return }
            freeform(name, text)
        default: return
        }
    }

    /// A `----` item's value.
    private mutating func freeform(_ name: String, _ text: String) {
        switch name.uppercased() {
        case "ITUNSMPB":
            let fields = text.split(separator: " ").compactMap { UInt64($0, radix: 16) }
            if fields.count >= 4 { iTunSMPB = (fields[1], fields[2], fields[3]) }
        case "ITUNNORM":
            // Ten hex words; the first two are 1000 times the energy ratio per channel (Sound Check).
            let fields = text.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            if fields.count >= 2, let loudest = fields[0..<2].max(), loudest > 0 {
                normalisation = -10 * log10(Double(loudest) / 1000)
            }
        case "ALBUM ARTIST", "ALBUMARTIST": raw.offer(.albumArtist, text)
        case "TRACKTOTAL", "TOTALTRACKS": raw.offer(.trackTotal, text)
        case "DISCTOTAL", "TOTALDISCS": raw.offer(.discTotal, text)
        default:
            if let field = RawTags.replayGainField(name) { raw.offer(field, text) }
        }
    }
}

extension TagInfo {
    /// The tags with the Sound Check gain as the track gain when no ReplayGain tag gives one.
    func withNormalisation(_ gain: Double?) -> TagInfo {
        var out = self
        if out.replayGainTrack == nil, let gain, gain.isFinite { out.replayGainTrack = (gain * 100).rounded() / 100 }
        return out
    }
}
