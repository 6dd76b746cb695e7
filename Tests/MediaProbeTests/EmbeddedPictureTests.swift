import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MediaProbe

/// The pictures `readpicture` serves: real files tagged by the tools people use (lame, flac, FFmpeg, opusenc) and
/// by Debian's python3-mutagen, each picture found byte for byte as it was put in; the front cover chosen
/// over others; hostile tags never trap and never yield a picture cut short.
@Suite(.enabled(if: ExternalTool.allFormatTools && ExternalTool.find("lame") != nil && Mutagen.isInstalled))
struct EmbeddedPictureTests {
    let folder: TemporaryDirectory
    let jpeg: [UInt8]
    let png: [UInt8]

    init() throws {
        folder = try TemporaryDirectory(prefix: "pictures")
        let ffmpeg = ExternalTool.find("ffmpeg")!
        for (name, size) in [("cover.jpg", "320x320"), ("back.png", "64x48")] {
            let made = try Run.program(
                ffmpeg,
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size)", "-frames:v", "1",
                    folder.appending(name).path,
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        jpeg = [UInt8](try Data(contentsOf: folder.appending("cover.jpg")))
        png = [UInt8](try Data(contentsOf: folder.appending("back.png")))
        let tone = try Run.program(
            ffmpeg,
            [
                "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-ac", "2",
                folder.appending("tone.wav").path,
            ])
        #expect(tone.status == 0, "\(tone.stderr)")
    }

    func picture(_ name: String) -> EmbeddedPicture? {
        EmbeddedPicture.find(path: PathBytes(folder.appending(name).path))
    }

    /// The whole picture, read chunk by chunk as a client asks for it.
    func bytes(_ picture: EmbeddedPicture, of name: String, chunk: Int = 8192) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < picture.count {
            guard let part = picture.chunk(of: PathBytes(folder.appending(name).path), from: out.count, count: chunk),
                !part.isEmpty
            else { break }
            out += part
        }
        return out
    }

    func run(_ tool: String, _ arguments: [String]) throws {
        let result = try Run.program(ExternalTool.find(tool) ?? tool, arguments)
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    /// mutagen adds pictures: `kind` is `id3v23`, `id3v24`, `flac` or `mp4`, each (path, picture type) in order.
    func mutagen(_ kind: String, _ file: String, _ pictures: [(String, Int)]) throws {
        let script = """
            import sys
            kind, path, pictures = sys.argv[1], sys.argv[2], [(sys.argv[i], int(sys.argv[i + 1])) for i in range(3, len(sys.argv), 2)]
            def mime(p): return "image/png" if p.endswith(".png") else "image/jpeg"
            if kind.startswith("id3"):
                from mutagen.id3 import ID3, APIC, TIT2
                tag = ID3()
                tag.add(TIT2(encoding=3, text="Song"))
                for i, (p, t) in enumerate(pictures):
                    tag.add(APIC(encoding=1, mime=mime(p), type=t, desc="picture %d \\u00e9" % i, data=open(p, "rb").read()))
                tag.save(path, v2_version=3 if kind == "id3v23" else 4)
            elif kind == "flac":
                from mutagen.flac import FLAC, Picture
                f = FLAC(path)
                for p, t in pictures:
                    pic = Picture(); pic.type = t; pic.mime = mime(p); pic.desc = "d"; pic.data = open(p, "rb").read()
                    f.add_picture(pic)
                f.save()
            elif kind == "ogg":
                import base64
                from mutagen.oggvorbis import OggVorbis
                from mutagen.flac import Picture
                f = OggVorbis(path)
                blocks = []
                for p, t in pictures:
                    pic = Picture(); pic.type = t; pic.mime = mime(p); pic.desc = "d"; pic.data = open(p, "rb").read()
                    blocks.append(base64.b64encode(pic.write()).decode("ascii"))
                f["metadata_block_picture"] = blocks
                f.save()
            elif kind in ("wav", "aiff"):
                from mutagen.wave import WAVE
                from mutagen.aiff import AIFF
                from mutagen.id3 import APIC
                f = (WAVE if kind == "wav" else AIFF)(path)
                f.add_tags()
                for i, (p, t) in enumerate(pictures):
                    f.tags.add(APIC(encoding=3, mime=mime(p), type=t, desc="p%d" % i, data=open(p, "rb").read()))
                f.save()
            elif kind == "mp4":
                from mutagen.mp4 import MP4, MP4Cover
                f = MP4(path)
                f["covr"] = [MP4Cover(open(p, "rb").read(), MP4Cover.FORMAT_PNG if p.endswith(".png") else MP4Cover.FORMAT_JPEG) for p, _ in pictures]
                f.save()
            """
        try run(
            Mutagen.python,
            ["-c", script, kind, folder.appending(file).path]
                + pictures.flatMap { [folder.appending($0.0).path, String($0.1)] })
    }

    /// The tone with cover.jpg, as an MP3 by `lame --ti` and a FLAC by `flac --picture`.
    func tagWithTheCover(_ mp3: String, _ flac: String) throws {
        let tone = folder.appending("tone.wav").path
        let cover = folder.appending("cover.jpg").path
        try run("lame", ["--quiet", "--ti", cover, tone, folder.appending(mp3).path])
        try run("flac", ["--silent", "--picture=\(cover)", "-o", folder.appending(flac).path, tone])
    }

    @Test func lameFlacFFmpegAndOpusencPicturesAreFoundWholeWithTheirType() throws {
        defer { folder.remove() }
        try tagWithTheCover("lame.mp3", "cli.flac")
        let tone = folder.appending("tone.wav").path
        try run(
            "ffmpeg",
            [
                "-v", "error", "-i", tone, "-i", folder.appending("cover.jpg").path, "-map", "0", "-map", "1", "-c:a",
                "aac",
                "-c:v", "copy", "-disposition:v:0", "attached_pic", folder.appending("ffmpeg.m4a").path,
            ])
        try run(
            "opusenc",
            ["--quiet", "--picture", folder.appending("cover.jpg").path, tone, folder.appending("enc.opus").path])
        for name in ["lame.mp3", "cli.flac", "ffmpeg.m4a", "enc.opus"] {
            let found = try #require(picture(name), "\(name): no picture found")
            #expect(found.mimeType == "image/jpeg", "\(name)")
            #expect(found.count == jpeg.count, "\(name)")
            #expect(bytes(found, of: name) == jpeg, "\(name): the picture as it was put in")
            // A picture in base64 (Ogg) is decoded into memory; every other is read from the file.
            if case .file = found.bytes {
            } else if name != "enc.opus" {
                Issue.record("\(name): read from the file, not held in memory")
            }
        }
    }

    @Test(arguments: ["id3v23", "id3v24", "flac", "mp4", "ogg", "wav", "aiff"])
    func theFrontCoverIsChosenOverAPictureBeforeIt(_ kind: String) throws {
        defer { folder.remove() }
        let names = ["flac": "song.flac", "mp4": "song.m4a", "ogg": "song.ogg", "wav": "song.wav", "aiff": "song.aiff"]
        let name = names[kind] ?? "song.mp3"
        let tone = folder.appending("tone.wav").path
        switch kind {
        case "flac": try run("flac", ["--silent", "-o", folder.appending(name).path, tone])
        case "mp4": try run("ffmpeg", ["-v", "error", "-i", tone, "-c:a", "aac", folder.appending(name).path])
        case "ogg": try run("oggenc", ["--quiet", "-o", folder.appending(name).path, tone])
        case "wav", "aiff": try run("ffmpeg", ["-v", "error", "-i", tone, folder.appending(name).path])
        default: try run("lame", ["--quiet", tone, folder.appending(name).path])
        }
        #expect(picture(name) == nil, "\(name): no picture yet")
        // A back cover (type 4) first, the front cover (type 3) second; MP4 has no types, and its first wins.
        try mutagen(kind, name, [("back.png", 4), ("cover.jpg", 3)])
        let found = try #require(picture(name), "\(name): no picture found")
        let expected = kind == "mp4" ? png : jpeg
        #expect(found.mimeType == (kind == "mp4" ? "image/png" : "image/jpeg"))
        #expect(bytes(found, of: name, chunk: 1000) == expected, "\(name)")
    }

    /// ID3v2.2's `PIC` (a three-letter format) and an unsynchronised v2.3 tag, built by hand (no tool here
    /// writes either): found, undone, whole.
    /// `parts` one after another (one call, not a chain of `+` the compiler must type at once).
    func join(_ parts: [UInt8]...) -> [UInt8] { parts.flatMap { $0 } }
    func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    /// Bytes after a tag, where the audio would be.
    let zeros = [UInt8](repeating: 0, count: 64)

    @Test func anID3v22PictureAndAnUnsynchronisedTagAreFound() throws {
        defer { folder.remove() }
        let data: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0xE0, 1, 2, 3, 0xFF, 0xD9]
        func syncsafe(_ n: Int) -> [UInt8] {
            [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
        }
        let pic = join([0], ascii("JPG"), [3], ascii("front"), [0], data)
        let size: [UInt8] = [0, UInt8(pic.count >> 8), UInt8(pic.count & 0xFF)]
        let v22 = join(ascii("ID3"), [2, 0, 0], syncsafe(6 + pic.count), ascii("PIC"), size, pic)
        let found = try #require(EmbeddedPicture.find(bytes: join(v22, zeros)))
        #expect(found.mimeType == "image/jpeg")
        #expect(found.count == data.count)
        guard case .file(let offset, let count) = found.bytes else {
            Issue.record("a plain frame's picture is read from the file")
            return
        }
        #expect(Array(v22[offset..<offset + count]) == data)

        // v2.3 with the whole tag unsynchronised: every FF 00 in the frames was FF.
        let apic = join([0], ascii("image/jpeg"), [0, 3], [0], data)
        var frames = join(ascii("APIC"), [0, 0, 0, UInt8(apic.count)], [0, 0], apic)
        var synced: [UInt8] = []
        for (index, byte) in frames.enumerated() {
            synced.append(byte)
            if byte == 0xFF, index + 1 < frames.count, frames[index + 1] & 0xE0 == 0xE0 || frames[index + 1] == 0 {
                synced.append(0)
            }
        }
        frames = synced
        let v23 = join(ascii("ID3"), [3, 0, 0x80], syncsafe(frames.count), frames)
        let undone = try #require(EmbeddedPicture.find(bytes: join(v23, zeros)))
        guard case .memory(let bytes) = undone.bytes else {
            Issue.record("an unsynchronised picture is undone in memory")
            return
        }
        #expect(bytes == data)
    }

    /// Cut short, lying about their lengths, or with a description that never ends: no picture, no trap.
    @Test func damagedPicturesGiveNoneAndNeverACutOne() throws {
        defer { folder.remove() }
        try tagWithTheCover("whole.mp3", "whole.flac")
        for name in ["whole.mp3", "whole.flac"] {
            let whole = [UInt8](try Data(contentsOf: folder.appending(name)))
            let found = try #require(EmbeddedPicture.find(bytes: whole))
            guard case .file(let offset, let count) = found.bytes else { continue }
            // Cut inside the picture: the tag or block now runs past the file's end.
            #expect(EmbeddedPicture.find(bytes: Array(whole[..<(offset + count / 2)])) == nil, "\(name) cut")
            // Every byte of the headers before the picture flipped in turn: whatever is found lies within the file.
            for index in 0..<min(offset, 200) {
                var bent = whole
                bent[index] ^= 0xFF
                if let odd = EmbeddedPicture.find(bytes: bent), case .file(let at, let length) = odd.bytes {
                    #expect(at >= 0 && length > 0 && at + length <= bent.count, "\(name) byte \(index)")
                }
            }
        }
        // An APIC whose description runs to the end of the frame.
        let apic = join([0], ascii("image/png"), [0, 3], [UInt8](repeating: 0x41, count: 40))
        let tag = join(
            ascii("ID3"), [3, 0, 0, 0, 0, 0, UInt8(10 + apic.count)], ascii("APIC"),
            [0, 0, 0, UInt8(apic.count), 0, 0],
            apic)
        #expect(EmbeddedPicture.find(bytes: join(tag, zeros)) == nil)
    }
}

/// The committed picture fixtures (no tool needed): each holds the 16×16 PNG beside them, found whole.
@Suite struct EmbeddedPictureFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/pictures")

    @Test(arguments: ["apic-v23.mp3", "picture-block.flac", "covr.m4a", "metadata-block-picture.opus"])
    func eachFixtureHoldsThePictureWhole(_ name: String) throws {
        let png = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("cover-16.png.expected")))
        let file = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let found = try #require(EmbeddedPicture.find(bytes: file), "\(name)")
        #expect(found.mimeType == "image/png")
        switch found.bytes {
        case .file(let offset, let count): #expect(Array(file[offset..<offset + count]) == png, "\(name)")
        case .memory(let bytes): #expect(bytes == png && name.hasSuffix(".opus"), "\(name): only base64 is decoded")
        }
        let chunk = found.chunk(of: PathBytes(Self.folder.appendingPathComponent(name).path), from: 100, count: 50)
        #expect(chunk.map { $0[...] } == png[100..<150], "a chunk from the middle, read from the file")
    }
}

/// The base64 an Ogg picture comes in, held to Foundation's encoder; what is not base64 is refused whole.
@Suite struct Base64Tests {
    @Test func whatFoundationEncodesIsDecodedBack() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0..<70) + [1000, 4097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Data(bytes).base64EncodedString()
            #expect(Base64.decode(Array(text.utf8)[...]) == bytes, "\(length) bytes")
            // Without its padding (some taggers write it so).
            let bare = text.replacingOccurrences(of: "=", with: "")
            #expect(Base64.decode(Array(bare.utf8)[...]) == bytes, "\(length) bytes, unpadded")
        }
    }

    @Test(arguments: ["A", "AB=C", "ABC*", "AB\nCD", "====", "ABCDE", "AB==="])
    func whatIsNotBase64IsRefused(_ text: String) {
        #expect(Base64.decode(Array(text.utf8)[...]) == nil, "\(text)")
    }
}
