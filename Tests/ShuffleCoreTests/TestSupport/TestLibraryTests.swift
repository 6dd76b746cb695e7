import Foundation
import ShuffleCore
import ShuffleTestSupport
import Testing

@Suite(.enabled(if: TestLibrary.isAvailable, "needs python3 and lame (scripts/install-deps test)"))
struct TestLibraryTests {
    @Test func sameSeedGivesTheSameBytesNamesAndTimes() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let a = try TestLibrary.generate(at: first.url, tracks: 60, seed: 11)
        let b = try TestLibrary.generate(at: second.url, tracks: 60, seed: 11)
        #expect(a.rows == b.rows)
        let files = try LibraryFiles.list(root: first.url)
        let again = try LibraryFiles.list(root: second.url)
        #expect(files == again)
        for file in files + [PathBytes(Manifest.fileName)] {
            let left = PathBytes(first.path).appending(file)
            let right = PathBytes(second.path).appending(file)
            #expect(try LibraryFiles.contents(of: left) == LibraryFiles.contents(of: right), "\(file.display)")
            #expect(try LibraryFiles.status(of: left) == LibraryFiles.status(of: right), "\(file.display)")
        }
        let other = try TemporaryDirectory()
        #expect(try TestLibrary.generate(at: other.url, tracks: 60, seed: 12).rows != a.rows)
    }

    @Test func manifestListsExactlyTheFilesOnDisk() throws {
        let dir = try TemporaryDirectory()
        let manifest = try TestLibrary.generate(at: dir.url, tracks: 80, seed: 3)
        #expect(try LibraryFiles.list(root: dir.url) == manifest.rows.map(\.path))
        #expect(manifest.playable.count == 80)
        let notes = Set(manifest.rows.flatMap(\.notes))
        for kind in ["zero-byte", "text-as-mp3", "tag-only", "truncated-audio", "random-bytes"] {
            #expect(manifest.broken.contains { $0.notes.contains(kind) }, "no \(kind) file")
        }
        for note in ["invalid-utf8-name", "nfd-name", "upper-ext", "no-extension", "utf16", "hidden-dir"] {
            #expect(notes.contains(note), "no \(note) file")
        }
        #expect(manifest.playable.contains { !$0.path.isValidUTF8 })
        #expect(manifest.hidden.count == 1 && !manifest.rows(ofKind: .appledouble).isEmpty)
        #expect(Set(manifest.playable.compactMap(\.tag)).isSuperset(of: ["id3v23", "id3v24", "id3v1", "none"]))
    }

    @Test func noExtrasAndSameFormatGiveAPlainGaplessLibrary() throws {
        let dir = try TemporaryDirectory()
        let manifest = try TestLibrary.generate(
            at: dir.url, tracks: 12, seed: 5, formats: .same, broken: 0, extras: false, seconds: 0.5)
        #expect(manifest.rows.count == 12 && manifest.playable.count == 12)
        for row in manifest.playable {
            #expect(row.rate == 44100 && row.channels == 2 && row.samples == 22050, "\(row.path.display)")
            #expect(row.path.isValidUTF8)
        }
    }

    @Test(.enabled(if: ExternalTool.mpg123 != nil, "needs mpg123"))
    func everyClipDecodesToTheManifestLength() throws {
        let dir = try TemporaryDirectory()
        let manifest = try TestLibrary.generate(at: dir.url, tracks: 60, seed: 21)
        var picks: [Int: ManifestRow] = [:]
        for row in manifest.playable + manifest.hidden where picks[row.clip ?? -1] == nil {
            picks[row.clip ?? -1] = row
        }
        picks[-2] = manifest.playable.first { !$0.path.isValidUTF8 }
        picks[-3] = manifest.playable.first { $0.tag?.hasSuffix("+v1") == true }
        #expect(picks.count >= 6)
        for row in picks.values {
            let frames = try ExternalTool.decodedFrames(
                of: PathBytes(dir.path).appending(row.path), channels: row.channels ?? 2)
            #expect(frames == row.samples, "\(row.path.display)")
        }
    }

    @Test(.enabled(if: ExternalTool.mpg123 != nil, "needs mpg123"))
    func brokenFilesDoNotDecodeToAFullClip() throws {
        let dir = try TemporaryDirectory()
        let manifest = try TestLibrary.generate(at: dir.url, tracks: 10, seed: 4, broken: 5)
        let full = manifest.clipSamples
        #expect(full.count == 6)
        for row in manifest.broken {
            let data = try LibraryFiles.contents(of: PathBytes(dir.path).appending(row.path))
            let result = try Run.program(ExternalTool.mpg123!, ["-q", "-s", "-"], stdin: data)
            let frames = Int64(result.stdoutData.count / (2 * (row.channels ?? 2)))
            let clip = try #require(row.clip.flatMap { full[$0] }, "\(row.path.display) names no known clip")
            #expect(frames < clip, "\(row.path.display) decodes fully")
        }
    }
}
