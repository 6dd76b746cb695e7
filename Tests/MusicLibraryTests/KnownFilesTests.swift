import ShuffleCore
import Testing

@testable import MusicLibrary

/// The files an index run compares the walk with: found by their exact bytes (names that are not UTF-8, a
/// name that is a prefix of another), each taken once, the rest handed back as what vanished.
@Suite struct KnownFilesTests {
    private func file(_ id: Int64, _ status: FileStatus = .ok) -> LibraryDatabase.KnownFile {
        LibraryDatabase.KnownFile(id: id, size: id * 10, mtimeNs: id * 100, status: status)
    }

    private func known(_ paths: [[UInt8]], status: FileStatus = .ok) -> KnownFiles {
        var known = KnownFiles()
        for (index, path) in paths.enumerated() {
            path.withUnsafeBytes { known.add(path: $0, file(Int64(index + 1), status)) }
        }
        return known
    }

    @Test(arguments: [false, true]) func eachPathIsFoundByItsBytesAndTakenOnce(shuffled: Bool) {
        var paths: [[UInt8]] = [
            Array("a".utf8), Array("a/b.mp3".utf8), Array("a/b.mp3x".utf8), [0x61, 0xFF, 0x2F, 0x63], Array("Z.flac".utf8),
            Array("é/x.ogg".utf8), [],
        ]
        paths.sort { $0.lexicographicallyPrecedes($1) }  // the database's order (memcmp)
        if shuffled { paths.reverse() }  // rows out of order (a damaged index): sorted before the first lookup
        var known = known(paths)
        #expect(known.count == paths.count)
        for (index, path) in paths.enumerated() {
            #expect(known.take(PathBytes(path))?.id == Int64(index + 1), "\(path)")
            #expect(known.take(PathBytes(path)) == nil, "taken once: \(path)")
        }
        #expect(known.isEmpty)
        #expect(known.take(PathBytes("a/b")) == nil)
        #expect(known.untaken().isEmpty)
    }

    @Test func whatIsNotTakenIsWhatVanished() {
        var known = known([Array("a.mp3".utf8), Array("b.mp3".utf8), Array("c.mp3".utf8)])
        #expect(known.take(PathBytes("b.mp3"))?.id == 2)
        #expect(known.take(PathBytes("d.mp3")) == nil)
        #expect(known.count == 2)
        #expect(known.untaken() == [PathBytes("a.mp3"): file(1), PathBytes("c.mp3"): file(3)])
    }

    @Test func playableIsAnyFileThatIsOk() {
        #expect(!KnownFiles().hasPlayable)
        #expect(!known([Array("a.txt".utf8)], status: .ignored).hasPlayable)
        #expect(known([Array("a.mp3".utf8)]).hasPlayable)
    }
}
