import Glibc
import ShuffleCore

/// Chooses the concrete library and player for the appliance.
enum ApplianceParts {
    /// The concrete parts.
    static func make(
        config: DaemonConfig, stateDirectory: String, loop: EventLoop, log: Log
    ) throws(DaemonError) -> (library: any ApplianceLibrary, player: any AppliancePlayer) {
        let library = try LibraryBridge(
            path: stateDirectory + "/library.db", log: log.labelled("index"),
            measuresLoudness: config.loudness.mode != .off)
        let player = PlayerBridge(loop: loop, store: library.store, config: config, log: log.labelled("player"))
        return (library, player)
    }
}
