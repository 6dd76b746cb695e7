import ShuffleCore

/// The chapters of an MP4 file, from either place writers put them (FFmpeg writes both):
///
/// - a QuickTime chapter track, what Apple's players read: the sound track's `tref/chap` names the id of a text
///   track, each sample of which is one chapter. The sample's time is the chapter's start; its bytes, in `mdat`,
///   are a 2-byte big-endian length, then the title (UTF-8, or UTF-16 after a BOM), then boxes such as `encd`;
/// - Nero's `moov/udta/chpl`: version and flags, 4 more bytes when the version is 1, a 1-byte count, then per
///   chapter its start in 100 ns units (8 bytes) and a title after a 1-byte length, as FFmpeg's
///   `mov_read_chpl` reads it. (mutagen divides the start by the movie's timescale over 10,000 instead, which
///   agrees where that timescale is 1,000, as FFmpeg writes it.)
///
/// The track wins unless it gives fewer than two usable chapters. Every read is bounded: the sample tables
/// are read for at most `Chapter.maxCount` samples, and the titles in `mdat` up to `maxTitleBytes` in all
/// (`maxTitleIO` of the file, which reads in blocks); chapters whose titles are past that keep their starts.
enum MP4Chapters {
    /// Bytes of chapter titles read from `mdat` in all.
    static let maxTitleBytes = 64 * 1024
    /// Bytes of the file read for chapter titles in all (the source reads in 32 KiB blocks, so titles scattered
    /// through `mdat` cost a block each).
    static let maxTitleIO = 8 * 1024 * 1024
    /// Bytes of one title sample read: its length, a BOM, and enough UTF-16 for `Chapter.maxTitleBytes` of UTF-8.
    static let titleReadLimit = 2 + 2 + 2 * Chapter.maxTitleBytes
    /// The longest `chpl` box there is: 255 chapters with titles of 255 bytes.
    static let maxNeroRead = 9 + 255 * (9 + 255)

    /// The chapters of the file whose `moov` box holds `movieBoxes`, whose sound track is `sound` and which lasts
    /// `durationMs`.
    static func read(movieBoxes: [MP4Box], sound: MP4Box, durationMs: Int64?, _ source: ByteSource) -> [Chapter] {
        let track = trackChapters(movieBoxes.filter { $0.type == "trak" }, sound: sound, source)
        if !Chapter.cleaned(track, durationMs: durationMs).isEmpty { return track }
        guard let udta = movieBoxes.first(where: { $0.type == "udta" }), let chpl = udta.child("chpl", in: source)
        else { return track }
        return neroChapters(chpl, source)
    }

    // MARK: - Nero chapters

    /// The chapters a `chpl` box lists.
    static func neroChapters(_ chpl: MP4Box, _ source: ByteSource) -> [Chapter] {
        let bytes = chpl.bytes(in: source, limit: maxNeroRead)
        guard let version = bytes.first else { return [] }
        var cursor = version == 0 ? 4 : 8
        guard let count = bytes.bigEndian(at: cursor, width: 1) else { return [] }
        cursor += 1
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard let start = bytes.bigEndian(at: cursor, width: 8),
                let length = bytes.bigEndian(at: cursor + 8, width: 1),
                Int(length) <= bytes.count - cursor - 9, let startMs = Int64(file: start / 10_000)
            else { break }
            let text = bytes.dropFirst(cursor + 9).prefix(Int(length))
            let title = TagText.id3Values(text, encoding: 3).first.flatMap(TagText.chapterTitle)
            chapters.append(Chapter(startMs: startMs, title: title))
            cursor += 9 + Int(length)
        }
        return chapters
    }

    // MARK: - A chapter track

    /// The chapters of the text track the sound track's `tref/chap` names; empty when there is none.
    static func trackChapters(_ traks: [MP4Box], sound: MP4Box, _ source: ByteSource) -> [Chapter] {
        let wanted = chapterTrackIDs(sound: sound, source)
        guard !wanted.isEmpty else { return [] }
        for trak in traks where trak.start != sound.start {
            guard let id = trackID(trak, source), wanted.contains(id), let mdia = trak.child("mdia", in: source),
                let handler = MP4Probe.handlerType(mdia, source), handler != "soun", handler != "vide"
            else { continue }
            return samples(mdia, source)
        }
        return []
    }

    /// The ids of the tracks the sound track's `tref/chap` names (its chapter titles, and in audiobooks from
    /// iTunes its chapter pictures); at most 16.
    static func chapterTrackIDs(sound: MP4Box, _ source: ByteSource) -> Set<Int> {
        guard let chap = sound.child("tref", in: source)?.child("chap", in: source) else { return [] }
        let list = chap.bytes(in: source, limit: 64)
        return Set(stride(from: 0, to: list.count - 3, by: 4).compactMap { list.u32be($0) })
    }

    /// A track's id (`tkhd`, version 0 or 1).
    static func trackID(_ trak: MP4Box, _ source: ByteSource) -> Int? {
        guard let tkhd = trak.child("tkhd", in: source) else { return nil }
        let bytes = tkhd.bytes(in: source, limit: 24)
        return bytes.u32be(bytes.first == 1 ? 20 : 12)
    }

    /// One chapter per sample of a text track's media: its start from the time-to-sample table, its title from
    /// the sample's bytes.
    private static func samples(_ mdia: MP4Box, _ source: ByteSource) -> [Chapter] {
        guard let mdhd = mdia.child("mdhd", in: source),
            let (timescale, _) = MP4Probe.timescaleAndDuration(mdhd, source), timescale > 0,
            let stbl = mdia.child("minf", in: source)?.child("stbl", in: source),
            let stts = stbl.child("stts", in: source)
        else { return [] }
        let starts = startTimes(stts, timescale: timescale, source)
        var titles = [String?](repeating: nil, count: starts.count)
        var bytesLeft = maxTitleBytes
        let ioStart = source.totalRead
        for (index, sample) in places(stbl, count: starts.count, source).enumerated() {
            let want = min(sample.size, titleReadLimit)
            guard want <= bytesLeft, source.totalRead - ioStart < maxTitleIO else { break }
            bytesLeft -= want
            titles[index] = title(source.bytes(at: sample.offset, count: want)[...], sampleSize: sample.size)
        }
        return zip(starts, titles).map { Chapter(startMs: $0, title: $1) }
    }

    /// The start of each sample (at most `Chapter.maxCount`) in milliseconds.
    static func startTimes(_ stts: MP4Box, timescale: Int, _ source: ByteSource) -> [Int64] {
        let bytes = stts.bytes(in: source, limit: 8 + 8 * Chapter.maxCount)
        guard let entries = bytes.u32be(4) else { return [] }
        var starts: [Int64] = []
        // At most maxCount durations of 32 bits each: the sum and its product with 1,000 fit easily.
        var time: Int64 = 0
        for entry in 0..<min(entries, max(0, (bytes.count - 8) / 8)) {
            guard let count = bytes.u32be(8 + 8 * entry), let delta = bytes.u32be(12 + 8 * entry) else { break }
            for _ in 0..<min(count, Chapter.maxCount - starts.count) {
                starts.append(time * 1000 / Int64(timescale))
                time += Int64(delta)
            }
            if starts.count == Chapter.maxCount { break }
        }
        return starts
    }

    /// Where the first `count` samples of a track lie (offset in the file and size), from its sample sizes
    /// (`stsz`), its samples per chunk (`stsc`) and its chunk offsets (`stco` or `co64`); fewer when the tables
    /// end or are damaged.
    static func places(_ stbl: MP4Box, count: Int, _ source: ByteSource) -> [(offset: Int, size: Int)] {
        guard let stsz = stbl.child("stsz", in: source), let stsc = stbl.child("stsc", in: source),
            let offsets = stbl.child("stco", in: source) ?? stbl.child("co64", in: source)
        else { return [] }
        let width = offsets.type == "co64" ? 8 : 4
        let sizes = stsz.bytes(in: source, limit: 12 + 4 * count)
        let runs = stsc.bytes(in: source, limit: 8 + 12 * count)
        let chunks = offsets.bytes(in: source, limit: 8 + width * count)
        guard let uniform = sizes.u32be(4), let runCount = runs.u32be(4) else { return [] }
        var result: [(offset: Int, size: Int)] = []
        var run = 0
        var chunk = 1
        // Each turn reads one more chunk offset, and no more than `count` are read: the loop ends.
        while result.count < count, let offset = chunks.bigEndian(at: 8 + width * (chunk - 1), width: width) {
            while run + 1 < runCount, let next = runs.u32be(8 + 12 * (run + 1)), next <= chunk { run += 1 }
            guard var position = Int64(file: offset).map(Int.init), let perChunk = runs.u32be(12 + 12 * run) else {
                break
            }
            for _ in 0..<min(perChunk, count - result.count) {
                guard let size = uniform != 0 ? uniform : sizes.u32be(12 + 4 * result.count) else { return result }
                result.append((position, size))
                position = position.addingReportingOverflow(size).overflow ? Int.max : position + size
            }
            chunk += 1
        }
        return result
    }

    /// The title in a text sample of `sampleSize` bytes whose first bytes are `bytes`.
    static func title(_ bytes: ArraySlice<UInt8>, sampleSize: Int) -> String? {
        guard let length = bytes.u16be(0), length > 0, length <= sampleSize - 2 else { return nil }
        let text = bytes.dropFirst(2).prefix(length)
        let isUTF16 = text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE])
        return TagText.id3Values(text, encoding: isUTF16 ? 1 : 3).first.flatMap(TagText.chapterTitle)
    }
}
