import Foundation
import LibPThread
import Playback
import ShuffleCore
import ShuffleTestSupport
import Testing

/// Collects the announced track lines.
final class Announcements: Sendable {
    private let lines = PThreadMutex<[CatalogTrack]>([])
    func append(_ track: CatalogTrack, at: ContinuousClock.Instant) { lines.withLock { $0.append(track) } }
    var tracks: [CatalogTrack] { lines.withLock { $0 } }
    var ids: [TrackID] { tracks.map(\.id) }
}

/// Real MP3 files through the real decoder into ALSA's `file` PCM; the library is in memory.
@Suite(.serialized) struct PlaybackEngineTests {
    let quiet = Log(label: "test", minimum: .error) { _ in }

    @Test func aSameFormatLibraryIsWrittenFrameExactWithNothingLostOrAdded() async throws {
        let library = try GeneratedLibrary(tracks: 6, formats: "same")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let tracks = library.catalogTracks()
        let catalog = InMemoryCatalog(tracks: tracks)
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog,
            configuration: PlaybackConfiguration(device: capture.device, seed: 7, volume: 20, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        let finish = try await engine.run()
        #expect(finish == .cycleComplete)
        let expectedFrames = library.entries.filter { $0.kind == "track" }.compactMap(\.frames).reduce(0, +)
        #expect(expectedFrames > 0)
        #expect(capture.bytes().count == Int(expectedFrames) * 4)
        #expect(heard.ids.sorted() == tracks.map(\.id).sorted())
        let saved = await catalog.savedStates
        #expect(saved.last?.cursor == tracks.count)
    }

    @Test func aMixedLibraryWithBrokenFilesPlaysEachPlayableTrackOnceAndMarksTheRest() async throws {
        let library = try GeneratedLibrary(tracks: 8, broken: 5, formats: "mixed", seed: 3)
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let tracks = library.catalogTracks(includingBroken: true)
        let playable = Set(
            tracks.filter { track in
                library.entries.contains { $0.kind == "track" && $0.relativePath == track.relativePath.bytes }
            }.map(\.id))
        let catalog = InMemoryCatalog(tracks: tracks)
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, seed: 11, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        let finish = try await engine.run()
        #expect(finish == .cycleComplete)
        let ids = heard.ids
        #expect(Set(ids).count == ids.count, "a track was announced twice")
        #expect(playable.isSubset(of: Set(ids)))
        let marked = await catalog.unplayableIDs
        #expect(Set(marked).isDisjoint(with: playable))
        #expect(Set(ids).union(marked) == Set(tracks.map(\.id)), "every file was either played or marked")
        #expect(!marked.isEmpty)
    }

    @Test func aRestartContinuesTheStoredOrderFromTheStoredCursor() async throws {
        let library = try GeneratedLibrary(tracks: 5, formats: "same", seconds: "0.3")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let tracks = library.catalogTracks()
        let stored: [TrackID] = [TrackID(3), TrackID(1), TrackID(5), TrackID(2), TrackID(4)]
        let catalog = InMemoryCatalog(
            tracks: tracks, state: PlaybackState(order: stored, cursor: 2, positionMs: 100, volume: 5, paused: false))
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        _ = try await engine.run()
        #expect(heard.ids == Array(stored[2...]))
        let saved = await catalog.savedStates
        #expect(saved.allSatisfy { $0.order == stored && $0.volume == 5 })
    }

    @Test func anEmptyLibraryIsReportedAsNothingPlayable() async throws {
        let engine = PlaybackEngine(
            catalog: InMemoryCatalog(tracks: []), configuration: PlaybackConfiguration(device: "null", once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: { _, _ in })
        await #expect(throws: PlaybackError.nothingPlayable) { try await engine.run() }
    }

    @Test func aDeviceThatWillNotOpenIsRetriedWithGrowingWaitsThenReported() async throws {
        let library = try GeneratedLibrary(tracks: 2, formats: "same", seconds: "0.3")
        defer { library.remove() }
        let sleeper = RecordingSleeper()
        let notices = PThreadMutex<[PlaybackNotice]>([])
        let engine = PlaybackEngine(
            catalog: InMemoryCatalog(tracks: library.catalogTracks()),
            configuration: PlaybackConfiguration(
                device: "no_such_pcm_for_shufflebox", once: true, saveInterval: .seconds(60),
                maxRetryDelay: .milliseconds(700)),
            sleeper: sleeper, log: quiet, notify: { notice in notices.withLock { $0.append(notice) } },
            announce: { _, _ in })
        await #expect {
            try await engine.run()
        } throws: { error in
            guard case .deviceUnavailable(let device, _) = error as? PlaybackError else { return false }
            return device == "no_such_pcm_for_shufflebox"
        }
        let waits = sleeper.requested.filter { $0 != .seconds(60) }
        // Longer by the first wait each time (not doubled: see `retryDelay`), up to the longest.
        #expect(waits == [.milliseconds(250), .milliseconds(500), .milliseconds(700), .milliseconds(700)])
        // The owner hears of it once (not once per retry), in words that name the device.
        let heard = notices.withLock { $0 }
        #expect(heard.count == 1, "\(heard)")
        guard case .deviceFailed(let reason) = heard.first else { return }
        #expect(reason.hasPrefix("cannot open ALSA device 'no_such_pcm_for_shufflebox': "), "\(reason)")
    }

    @Test func aRescanMidCycleAddsNewTracksToTheUnplayedPartAndPlaysEveryTrackOnce() async throws {
        let library = try GeneratedLibrary(tracks: 8, formats: "same", seconds: "0.5")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let all = library.catalogTracks()
        let catalog = InMemoryCatalog(tracks: Array(all.prefix(4)))
        await catalog.changeTracksAfterNextRead(to: all)
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, seed: 5, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        // Queued before run(): handled right after the first track starts, while the cycle is under way.
        engine.libraryChanged()
        _ = try await engine.run()
        let ids = heard.ids
        #expect(ids.count == all.count, "the cycle took in the new tracks")
        #expect(Set(ids) == Set(all.map(\.id)), "every track once")
        #expect(all.prefix(4).map(\.id).contains(ids[0]), "the first track came from the first scan")
    }

    @Test func tracksGoneFromTheLibraryAfterTheOrderWasMadeArePassedOverWithoutBeingMarked() async throws {
        let library = try GeneratedLibrary(tracks: 6, formats: "same", seconds: "0.3")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let all = library.catalogTracks()
        let kept = all.filter { $0.id.rawValue % 3 != 0 }
        // The order is made from all six; from then on the catalog has only four (deleted by a rescan the
        // engine was not told about), so two of the tracks it reaches cannot be read any more.
        let catalog = InMemoryCatalog(tracks: all)
        await catalog.changeTracksAfterNextRead(to: kept)
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, seed: 3, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        let finish = try await engine.run()
        #expect(finish == .cycleComplete)
        #expect(heard.ids.sorted() == kept.map(\.id).sorted(), "the four left, each once")
        #expect(await catalog.unplayableIDs.isEmpty, "a track that is gone is not a broken track")
        #expect(await catalog.listReads == 1)
    }

    @Test func tracksFoundSinceTheLastRunJoinTheStoredCycleAfterTheCursor() async throws {
        let library = try GeneratedLibrary(tracks: 6, formats: "same", seconds: "0.3")
        defer { library.remove() }
        let capture = CaptureFile()
        defer { capture.remove() }
        let all = library.catalogTracks()
        let stored: [TrackID] = [TrackID(2), TrackID(4), TrackID(1), TrackID(3)]
        let catalog = InMemoryCatalog(
            tracks: all, state: PlaybackState(order: stored, cursor: 1, positionMs: 0, volume: 8, paused: false))
        let heard = Announcements()
        let engine = PlaybackEngine(
            catalog: catalog, configuration: PlaybackConfiguration(device: capture.device, seed: 9, once: true),
            sleeper: RecordingSleeper(), log: quiet, announce: heard.append)
        _ = try await engine.run()
        let ids = heard.ids
        #expect(ids.first == TrackID(4))
        #expect(Set(ids) == Set([1, 3, 4, 5, 6].map { TrackID(Int64($0)) }), "the rest of the cycle plus the new")
        #expect(ids.count == 5)
    }
}
