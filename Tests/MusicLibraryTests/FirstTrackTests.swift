import Foundation
import LibPThread
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import MusicLibrary

/// A new stick's first playable track is written while the walk is still listing the rest of the stick.
@Suite struct FirstTrackTests {
    let folder: TemporaryDirectory
    var root: String { folder.path + "/stick" }

    init() throws { folder = try TemporaryDirectory(prefix: "first-track") }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Indexes the stick; returns the summary, the most tracks `progress` had reported when the walk entered
    /// `sub`, and how many files were probed.
    func index() throws -> (summary: IndexSummary, tracksBeforeSub: Int, probes: Int) {
        let database = try LibraryDatabase(path: folder.path + "/library.db", create: true)
        let tracks = PThreadMutex(0)
        let atSub = PThreadMutex(-1)
        let probes = PThreadMutex(0)
        var prober = FileProber.mediaProbe
        let probe = prober.probe
        prober.probe = { path in
            probes.withLock { $0 += 1 }
            return probe(path)
        }
        var indexer = Indexer(
            database: database, prober: prober, warn: { _ in },
            progress: { counters in tracks.withLock { $0 = max($0, counters.tracks) } })
        indexer.beforeEnteringFolder = { folder in
            if folder == PathBytes("sub") { atSub.withLock { $0 = tracks.withLock { $0 } } }
        }
        let real = try #require(LibraryLocation.realPath(root))
        let summary = try indexer.run(root: real, key: VolumeRef.pathKey(for: real), now: 1_700_000_000)
        return (summary, atSub.withLock { $0 }, probes.withLock { $0 })
    }

    @Test func theFirstPlayableFileIsWrittenBeforeTheWalkGoesOnAndNotReadTwice() throws {
        let audio = HostileFiles.silentFrames(20)
        try write("a.mp3", audio)
        for name in ["b", "c", "d"] { try write("sub/\(name).mp3", audio) }
        let first = try index()
        #expect(first.tracksBeforeSub == 1, "the player could start before the walk entered sub/")
        #expect(first.summary.added == 4 && first.summary.tracks == 4)
        #expect(first.probes == 4, "each file probed once")

        // A known stick: nothing is probed during the walk (it resumes from its index anyway).
        try write("sub/e.mp3", audio)
        let second = try index()
        #expect(second.tracksBeforeSub == 0)
        #expect(second.probes == 1)
        #expect(second.summary.added == 1 && second.summary.tracks == 5)
    }

    @Test func junkWithAudioNamesEndsTheSearchAfterAFewProbesAndTheRunStillIndexesEverything() throws {
        for index in 0..<12 { try write("j\(index < 10 ? "0" : "")\(index).mp3", Array("not audio".utf8)) }
        try write("sub/good.mp3", HostileFiles.silentFrames(20))
        let run = try index()
        #expect(run.summary.tracks == 1)
        #expect(run.summary.unplayable == 12)
        #expect(run.probes == 12 + 1, "every file probed once")
        #expect(run.tracksBeforeSub == 0, "the good file came after \(Indexer.firstTrackAttempts) junk files")
    }
}
