import Foundation
import MusicLibrary
import ShuffleCore
import ShuffleTestSupport
import Testing

/// The stored loudness: which tracks wait for a measurement, and that one lasts as long as its file.
@Suite struct LoudnessStoreTests {
    @Test func onlyTracksWithoutAGainTagWaitAndAMeasurementReachesTheCatalog() throws {
        let fixture = try LibraryFixture(name: "loudness")
        let plain = try fixture.addTrack("plain.mp3", TagInfo(title: "Plain"))
        try fixture.addTrack("tagged.mp3", TagInfo(title: "Tagged", replayGainTrack: -6, replayGainTrackPeak: 0.9))
        try fixture.addTrack("album.mp3", TagInfo(title: "Album", replayGainAlbum: -3))
        let silent = try fixture.addTrack("silent.mp3", TagInfo())
        let broken = try fixture.addTrack("broken.mp3", TagInfo())
        let database = fixture.database
        #expect(
            try database.tracksToMeasure(of: fixture.volume).map(\.path.display) == [
                "broken.mp3", "plain.mp3", "silent.mp3",
            ])
        let before = try database.loudnessCounts(of: fixture.volume)
        #expect(before.measured == 0 && before.pending == 3)
        let pending = Dictionary(
            uniqueKeysWithValues: try database.tracksToMeasure(of: fixture.volume).map { ($0.id, $0) })
        let measured = TrackLoudness(integratedLUFS: -9.5, truePeak: 1.02)
        #expect(try database.setLoudness(measured, of: #require(pending[plain])))
        #expect(
            try database.setLoudness(TrackLoudness(integratedLUFS: nil, truePeak: 0), of: #require(pending[silent])))
        #expect(try database.setLoudness(nil, of: #require(pending[broken])))
        #expect(try !database.setLoudness(measured, of: #require(pending[plain])), "measured once, stored once")
        #expect(try database.tracksToMeasure(of: fixture.volume).isEmpty)
        let after = try database.loudnessCounts(of: fixture.volume)
        #expect(after.measured == 2 && after.pending == 0)
        #expect(try database.playableTrack(plain, of: fixture.volume)?.loudness == measured)
        #expect(try database.playableTrack(silent, of: fixture.volume)?.loudness?.integratedLUFS == nil)
        #expect(try database.playableTrack(broken, of: fixture.volume)?.loudness == nil)
    }

    /// The album's loudness: the tracks directly in the track's folder with its album tag, once all are measured.
    @Test func anAlbumsLoudnessComesOnceEveryTrackOfItIsMeasured() throws {
        let fixture = try LibraryFixture(name: "album-loudness")
        let album = TagInfo(album: "Night")
        let one = try fixture.addTrack("Kids/Night/01.mp3", album, frames: 44_100 * 60)
        let two = try fixture.addTrack("Kids/Night/02.mp3", album, frames: 44_100 * 60)
        let other = try fixture.addTrack("Kids/Night/03.mp3", TagInfo(album: "Day"), frames: 44_100 * 60)
        let deeper = try fixture.addTrack("Kids/Night/Bonus/04.mp3", album, frames: 44_100 * 60)
        let beside = try fixture.addTrack("Kids/Night0/05.mp3", album, frames: 44_100 * 60)
        let database = fixture.database
        let pending = Dictionary(
            uniqueKeysWithValues: try database.tracksToMeasure(of: fixture.volume).map { ($0.id, $0) })
        _ = try database.setLoudness(TrackLoudness(integratedLUFS: -10, truePeak: 1.0), of: #require(pending[one]))
        #expect(
            try database.playableTrack(one, of: fixture.volume)?.albumLoudness == nil, "02.mp3 is not measured yet")
        _ = try database.setLoudness(TrackLoudness(integratedLUFS: -30, truePeak: 0.1), of: #require(pending[two]))
        // 03 (another album), 04 (a sub-folder) and 05 (a folder whose name merely starts the same) stay out, so
        // their loudness changes nothing.
        for id in [other, deeper, beside] {
            _ = try database.setLoudness(TrackLoudness(integratedLUFS: -5, truePeak: 2), of: #require(pending[id]))
        }
        let combined = try #require(try database.playableTrack(two, of: fixture.volume)?.albumLoudness)
        #expect(abs((combined.integratedLUFS ?? 0) - -12.967) < 0.001)
        #expect(combined.truePeak == 1.0)
        #expect(try database.playableTrack(other, of: fixture.volume)?.albumLoudness == nil, "alone in its album")
    }

    /// A stick of two short WAVs, `a.wav` and `b.wav`, indexed once into a fresh database.
    private struct TwoTrackStick {
        let scratch: TemporaryDirectory
        let stick: URL
        let tone = AudioFixtures.tone(frames: 4410, channels: 2, bits: 16, rate: 44_100)
        let database: LibraryDatabase
        let indexer: Indexer
        let root: PathBytes
        let key: String
        let volume: VolumeRef

        init(prefix: String) throws {
            scratch = try TemporaryDirectory(prefix: prefix)
            stick = scratch.appending("stick")
            try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
            for name in ["a", "b"] {
                try AudioFixtures.writeWAV(
                    tone, rate: 44_100, channels: 2, bits: 16, to: stick.appendingPathComponent("\(name).wav"))
            }
            root = try #require(LibraryLocation.realPath(stick.path))
            key = VolumeRef.pathKey(for: root)
            database = try LibraryDatabase(path: scratch.path + "/library.db", create: true)
            indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
            _ = try indexer.run(root: root, key: key, now: 1_700_000_000)
            volume = try #require(try database.existingVolume(key: key))
        }

        /// Writes `b.wav` anew, twice as long, and indexes the stick at `now`.
        func changeBAndReindex(now: Int64) throws {
            try AudioFixtures.writeWAV(
                tone + tone, rate: 44_100, channels: 2, bits: 16, to: stick.appendingPathComponent("b.wav"))
            _ = try indexer.run(root: root, key: key, now: now)
        }
    }

    /// A rescan of unchanged files keeps every measurement; a changed file is measured again.
    @Test func aMeasurementLastsAsLongAsItsFile() throws {
        let stick = try TwoTrackStick(prefix: "loudness-rescan")
        defer { stick.scratch.remove() }
        let database = stick.database
        for track in try database.tracksToMeasure(of: stick.volume) {
            try database.setLoudness(TrackLoudness(integratedLUFS: -12, truePeak: 0.5), of: track)
        }
        _ = try stick.indexer.run(root: stick.root, key: stick.key, now: 1_700_000_100)
        #expect(try database.tracksToMeasure(of: stick.volume).isEmpty, "unchanged files keep their measurement")
        try stick.changeBAndReindex(now: 1_700_000_200)
        #expect(try database.tracksToMeasure(of: stick.volume).map(\.path.display) == ["b.wav"])
    }

    /// The race a re-index and the scan can run: the scan lists a file, the file changes and the indexer
    /// rewrites its row (same id, pending again), then the scan's measurement of the old file ends. It must
    /// not land on the new row.
    @Test func aMeasurementOfAFileRewrittenMeanwhileIsDropped() throws {
        let stick = try TwoTrackStick(prefix: "loudness-race")
        defer { stick.scratch.remove() }
        let database = stick.database
        let listed = try database.tracksToMeasure(of: stick.volume)
        #expect(listed.map(\.path.display) == ["a.wav", "b.wav"])
        try stick.changeBAndReindex(now: 1_700_000_100)
        let old = TrackLoudness(integratedLUFS: -12, truePeak: 0.5)
        #expect(try database.setLoudness(old, of: listed[0]), "a.wav did not change")
        #expect(try !database.setLoudness(old, of: listed[1]), "b.wav changed after it was listed")
        let waiting = try database.tracksToMeasure(of: stick.volume)
        #expect(waiting.map(\.path.display) == ["b.wav"])
        #expect(waiting.first?.id == listed[1].id, "the indexer kept the changed file's id")
        #expect(try database.playableTrack(listed[1].id, of: stick.volume)?.loudness == nil)
    }
}
