import Foundation
import ShuffleCore

/// Chooses the concrete library and player for the appliance.
enum ApplianceParts {
    /// The concrete parts.
    static func make(
        config: DaemonConfig, stateDirectory: String, loop: EventLoop, log: Log
    ) throws(DaemonError) -> (library: any ApplianceLibrary, player: any AppliancePlayer) {
        let library = try LibraryBridge(path: stateDirectory + "/library.db", log: log.labelled("index"))
        let player = PlayerBridge(loop: loop, store: library.store, config: config, log: log.labelled("player"))
        return (library, player)
    }
}

/// Stand-in until the index is wired: every stick reports no playable tracks.
final class UnwiredLibrary: ApplianceLibrary {
    private let log: Log
    init(log: Log) { self.log = log }
    func describe(volumeID: String, mountPoint: String) -> (known: Bool, storedVolume: Int?) { (false, nil) }
    func lastPlayedVolume() -> String? { nil }
    func startIndexing(_ volume: DaemonMachine.Volume, report: @escaping @Sendable (IndexReport) -> Void) {
        log.warning("this build cannot index \(volume.mountPoint) yet")
        report(.finished(playable: 0))
    }
    func stopIndexing(volumeID: String) {}
    func counts(volumeID: String) -> (tracks: Int, artists: Int, albums: Int) { (0, 0, 0) }
    func search(volumeID: String, _ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func close() {}
}

/// Stand-in until the player is wired.
final class UnwiredPlayer: AppliancePlayer {
    func start(
        _ volume: DaemonMachine.Volume, paused: Bool, level: Int, rampIn: Bool,
        report: @escaping @Sendable (PlayerReport) -> Void
    ) {}
    func tracksAdded() {}
    func stop() {}
    func pause() {}
    func resume() {}
    func next() {}
    func previous() {}
    func setLevel(_ level: Int) {}
    func saveResumePoint() {}
    func now() -> NowPlaying? { nil }
}
