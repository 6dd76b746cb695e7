import Foundation
import Playback
import ShuffleCore

/// `ShuffleboxBench play-files DEVICE VOLUME FILE...`: plays the files once, in this order, through the real
/// engine and decoders into ALSA device DEVICE, and exits: the decode+output cost of each format for
/// scripts/bench-formats, before the index knows the format (`shufflebox play` plays what the index lists).
func playFiles(_ arguments: [String]) async -> Int32 {
    guard arguments.count >= 3, let volume = Int(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: ShuffleboxBench play-files DEVICE VOLUME FILE...\n".utf8))
        return 64
    }
    let tracks = arguments.dropFirst(2).enumerated().map { index, path in
        CatalogTrack(
            id: TrackID(Int64(index + 1)), path: PathBytes(path), relativePath: PathBytes(path),
            tags: TagInfo(title: nil, artist: nil), stream: StreamInfo(codec: "", sampleRate: 0, channels: 0, frames: 0))
    }
    let catalog = FileCatalog(tracks: tracks, volume: volume)
    let log = Log(label: "bench", minimum: .warning) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    let engine = PlaybackEngine(
        catalog: catalog, configuration: PlaybackConfiguration(device: arguments[0], volume: volume, once: true),
        log: log, announce: { _, _ in })
    do {
        _ = try await engine.run()
    } catch {
        FileHandle.standardError.write(Data("play-files: \(error)\n".utf8))
        return 1
    }
    let failed = await catalog.failures
    for (id, reason) in failed { FileHandle.standardError.write(Data("play-files: track \(id): \(reason)\n".utf8)) }
    return failed.isEmpty ? 0 : 1
}

/// The files given, in their order, as a library.
actor FileCatalog: TrackCatalog {
    let tracks: [CatalogTrack]
    let volume: Int
    private(set) var failures: [(TrackID, String)] = []

    init(tracks: [CatalogTrack], volume: Int) {
        self.tracks = tracks
        self.volume = volume
    }

    func playableTrackIDs() async throws -> [TrackID] { tracks.map(\.id) }
    func track(_ id: TrackID) async throws -> CatalogTrack? { tracks.first { $0.id == id } }
    func libraryRoot() async throws -> PathBytes? { nil }
    func markUnplayable(_ id: TrackID, reason: String) async throws { failures.append((id, reason)) }
    func loadPlaybackState() async throws -> PlaybackState? {
        PlaybackState(order: tracks.map(\.id), cursor: 0, positionMs: 0, volume: volume, paused: false)
    }
    func savePlaybackState(_ state: PlaybackState) async throws {}
}
