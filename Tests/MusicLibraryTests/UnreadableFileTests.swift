import Foundation
import LibPThread
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MusicLibrary

/// One file a damaged card cannot read (an I/O error while the rest of the stick reads fine) is recorded
/// unplayable and the run goes on; it is read again on the next run. When nothing reads, the stick is going
/// away and the run stops as before. The I/O error comes from the prober, the hardware edge.
@Suite struct UnreadableFileTests {
    let folder: TemporaryDirectory
    var root: String { folder.path + "/stick" }
    static let ioError = "cannot read: " + Scanner.describe(EIO)

    init() throws {
        folder = try TemporaryDirectory(prefix: "unreadable")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// Indexes the stick; files whose name is in `failing` give an I/O error.
    func index(failing: Set<String>) throws -> IndexSummary {
        let database = try LibraryDatabase(path: folder.path + "/library.db", create: true)
        var prober = FileProber.mediaProbe
        let probe = prober.probe
        prober.probe = { path in
            let name = path.display.split(separator: "/").last.map(String.init) ?? ""
            return failing.contains(name) ? .unplayable(reason: Self.ioError) : probe(path)
        }
        let indexer = Indexer(database: database, prober: prober, warn: { _ in })
        let real = try #require(LibraryLocation.realPath(root))
        return try indexer.run(root: real, key: VolumeRef.pathKey(for: real), now: 1_700_000_000)
    }

    func write(_ names: [String]) throws {
        for name in names { try Data(HostileFiles.silentFrames(20)).write(to: URL(fileURLWithPath: root + "/" + name)) }
    }

    @Test func anUnreadableFileIsMarkedTheRunGoesOnAndTheNextRunReadsItAgain() throws {
        try write(["a.mp3", "b.mp3", "bad.mp3", "c.mp3"])
        let first = try index(failing: ["bad.mp3"])
        #expect(first.outcome == .complete)
        #expect(first.tracks == 3 && first.unplayable == 1)
        let database = try LibraryDatabase(path: folder.path + "/library.db", create: false)
        let volume = try #require(try database.currentVolume())
        let bad = try database.entries(of: volume).first { $0.path == PathBytes("bad.mp3") }
        #expect(bad?.reason == Self.ioError)

        let second = try index(failing: [])
        #expect(second.changed == 1, "the unreadable file is read again")
        #expect(second.tracks == 4 && second.unplayable == 0)
        let third = try index(failing: [])
        #expect(!third.wroteAnything)
    }

    @Test func whenNoFileReadsTheStickIsGoingAwayAndNothingIsRecorded() throws {
        try write(["a.mp3", "b.mp3"])
        let run = try index(failing: ["a.mp3", "b.mp3"])
        #expect(!run.isComplete)
        #expect(run.tracks == 0 && run.unplayable == 0)
    }
}
