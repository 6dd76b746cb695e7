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
        let measured = TrackLoudness(integratedLUFS: -9.5, truePeak: 1.02)
        try database.setLoudness(measured, of: plain)
        try database.setLoudness(TrackLoudness(integratedLUFS: nil, truePeak: 0), of: silent)
        try database.setLoudness(nil, of: broken)
        #expect(try database.tracksToMeasure(of: fixture.volume).isEmpty)
        let after = try database.loudnessCounts(of: fixture.volume)
        #expect(after.measured == 2 && after.pending == 0)
        #expect(try database.playableTrack(plain, of: fixture.volume)?.loudness == measured)
        #expect(try database.playableTrack(silent, of: fixture.volume)?.loudness?.integratedLUFS == nil)
        #expect(try database.playableTrack(broken, of: fixture.volume)?.loudness == nil)
    }

    /// A rescan of unchanged files keeps every measurement; a changed file is measured again.
    @Test func aMeasurementLastsAsLongAsItsFile() throws {
        let scratch = try TemporaryDirectory(prefix: "loudness-rescan")
        defer { scratch.remove() }
        let stick = scratch.appending("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        let tone = AudioFixtures.tone(frames: 4410, channels: 2, bits: 16, rate: 44_100)
        for name in ["a", "b"] {
            try AudioFixtures.writeWAV(
                tone, rate: 44_100, channels: 2, bits: 16, to: stick.appendingPathComponent("\(name).wav"))
        }
        let root = try #require(LibraryLocation.realPath(stick.path))
        let key = VolumeRef.pathKey(for: root)
        let database = try LibraryDatabase(path: scratch.path + "/library.db", create: true)
        let indexer = Indexer(database: database, prober: .mediaProbe, warn: { _ in })
        _ = try indexer.run(root: root, key: key, now: 1_700_000_000)
        let volume = try #require(try database.existingVolume(key: key))
        for (id, _) in try database.tracksToMeasure(of: volume) {
            try database.setLoudness(TrackLoudness(integratedLUFS: -12, truePeak: 0.5), of: id)
        }
        _ = try indexer.run(root: root, key: key, now: 1_700_000_100)
        #expect(try database.tracksToMeasure(of: volume).isEmpty, "unchanged files keep their measurement")
        try AudioFixtures.writeWAV(
            tone + tone, rate: 44_100, channels: 2, bits: 16, to: stick.appendingPathComponent("b.wav"))
        _ = try indexer.run(root: root, key: key, now: 1_700_000_200)
        #expect(try database.tracksToMeasure(of: volume).map(\.path.display) == ["b.wav"])
    }
}
