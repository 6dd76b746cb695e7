internal import Glibc

/// What a file holds, told by its first bytes (never by its name): which decoder gets it.
enum ContentKind: Equatable, Sendable {
    /// MPEG audio (layer I-III), with or without an ID3v2 tag in front: libmpg123.
    case mpeg
    /// A native FLAC stream (`fLaC`, possibly after an ID3v2 tag): libFLAC.
    case flac
    /// Ogg with a Vorbis first packet (`\x01vorbis`): libvorbisfile.
    case vorbis
    /// Ogg with an Opus first packet (`OpusHead`): libopusfile.
    case opus
    /// MP4/M4A (`ftyp`): FFmpeg (AAC, ALAC).
    case container
    /// RIFF WAVE (or RF64) and AIFF/AIFC: libsndfile (PCM).
    case pcm
    /// Something we know and do not play (the name says what), or nothing audio at all.
    case unsupported(String)

    /// The kind of the file at `path`: reads its first bytes (and the bytes after a leading ID3v2 tag).
    static func of(path: [UInt8]) throws(DecodeFailure) -> ContentKind {
        let context = String(decoding: path, as: UTF8.self)
        let fd: Int32 = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            let code = errno
            throw DecodeFailure(description: "open: \(String(cString: strerror(code))) (\(context))", systemError: code)
        }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: 128)
        var count = try read(fd, into: &head, at: 0, context)
        var offset = 0
        // An ID3v2 tag in front (some FLAC taggers write one): look past it. Its size is syncsafe.
        if count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 {
            let size = (Int(head[6] & 0x7F) << 21) | (Int(head[7] & 0x7F) << 14) | (Int(head[8] & 0x7F) << 7)
                | Int(head[9] & 0x7F)
            offset = 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
            count = try read(fd, into: &head, at: offset, context)
            // Whatever follows an ID3v2 tag, when it is not FLAC, is for libmpg123 to judge (as before).
            return count >= 4 && head.starts(with: Array("fLaC".utf8)) ? .flac : .mpeg
        }
        return classify(head.prefix(count))
    }

    /// The kind of a file whose first bytes are `head`.
    static func classify(_ head: ArraySlice<UInt8>) -> ContentKind {
        let bytes = Array(head)
        func at(_ index: Int, _ text: String) -> Bool {
            let want = Array(text.utf8)
            return bytes.count >= index + want.count && Array(bytes[index..<(index + want.count)]) == want
        }
        if at(0, "fLaC") { return .flac }
        if at(0, "OggS") {
            // The first page's first packet follows the 27-byte header and its segment table.
            guard bytes.count > 27 else { return .unsupported("truncated Ogg") }
            let packet = 27 + Int(bytes[26])
            if at(packet, "OpusHead") { return .opus }
            if bytes.count > packet, bytes[packet] == 1, at(packet + 1, "vorbis") { return .vorbis }
            if at(packet, "\u{7F}FLAC") { return .unsupported("Ogg FLAC") }
            if at(packet, "Speex   ") { return .unsupported("Speex") }
            return .unsupported("Ogg (not Vorbis or Opus)")
        }
        if at(4, "ftyp") { return .container }
        if at(0, "RIFF") && at(8, "WAVE") { return .pcm }
        if at(0, "RF64") && at(8, "WAVE") { return .pcm }
        if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return .pcm }
        if at(0, "MAC ") { return .unsupported("Monkey's Audio (APE)") }
        if at(0, "wvpk") { return .unsupported("WavPack") }
        if at(0, "MPCK") || at(0, "MP+") { return .unsupported("Musepack") }
        if at(0, "DSD ") || at(0, "FRM8") { return .unsupported("DSD") }
        if at(0, "TTA1") { return .unsupported("TTA") }
        if bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return .unsupported("WMA") }
        return .mpeg
    }

    private static func read(_ fd: Int32, into head: inout [UInt8], at offset: Int, _ context: String)
        throws(DecodeFailure) -> Int
    {
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard got >= 0 else {
            let code = errno
            throw DecodeFailure(description: "read: \(String(cString: strerror(code))) (\(context))", systemError: code)
        }
        return got
    }
}
