import ShuffleCore

/// Each stick's stations and settings (its `shufflebox.txt`, read when it is mounted) and which station of
/// the playing stick plays: choosing one, storing the choice, falling back to the whole stick.
final class StationService: Service {
    /// What choosing a station needs of the rest of the daemon.
    struct Hands {
        /// The station of the playing stick changed: play it from its own resume point.
        var changed: () -> Void
        /// The station asked for is the one playing: asking for it is asking for music.
        var play: () -> Void
        /// Says the station's name.
        var announce: (_ name: String) -> Void
    }

    let name = "stations"
    private let library: any ApplianceLibrary
    private let log: Log
    private let hands: Hands
    private var sticks: [String: StickStations] = [:]

    /// Creates the service.
    init(library: any ApplianceLibrary, log: Log, hands: Hands) {
        self.library = library
        self.log = log
        self.hands = hands
    }

    func start() throws(DaemonError) {}

    /// Reads the stations of the stick mounted at `mountPoint` (identified as `stick`), playing `stored` (the
    /// station stored as playing last) when it still has it. Returns the stick's file.
    func read(stick: String, mountPoint: String, stored: String?) -> StationFile {
        var stations = StickStations.read(mountPoint: mountPoint, log: log)
        let file = stations.file
        // A story station is a book: the story service plays it, and the music's stations go round without it.
        stations.file.stations.removeAll(where: \.isStory)
        stations.restore(stored)
        sticks[stick] = stations
        return file
    }

    /// The stick's stations as read (an empty set when it was not).
    func of(_ stick: String) -> StickStations? { sticks[stick] }

    /// The stations of `active`, for MPD's `listplaylists`.
    func listing(_ active: String) -> [StationListing] {
        guard let stick = sticks[active] else { return [] }
        return stick.file.stations.enumerated().map { index, station in
            StationListing(name: station.name, modified: stick.modified, playing: index == stick.current)
        }
    }

    /// Plays the station `choice` picks of the playing stick, from its own resume point, and says its name.
    /// `restart`: the player starts again even for the station already chosen (a book played meanwhile).
    func choose(_ choice: StationChoice, of active: DaemonMachine.Stick, restart: Bool = false) -> MPDError? {
        guard let stick = sticks[active.id] else {
            return MPDError(.noExist, "no library: plug in a USB stick with music")
        }
        guard let index = choice.index(in: stick.file.stations, from: stick.current) else {
            let names = stick.file.stations.map(\.name).joined(separator: ", ")
            return MPDError(.noExist, "No such playlist (the stick's stations: \(names))")
        }
        hands.announce(stick.file.stations[index].name)
        guard index != stick.current || restart else {
            hands.play()
            return nil
        }
        log.notice("station \(stick.file.stations[index].name) of \(active.mountPoint)")
        play(index, of: active)
        return nil
    }

    /// The station `name` of `active` found no song: the whole stick plays instead (`StationFallback`).
    func empty(_ name: String, of active: DaemonMachine.Stick) {
        guard let current = sticks[active.id]?.current, let instead = StationFallback.instead(of: current) else {
            return
        }
        log.warning("station '\(name)' of \(active.mountPoint) finds no song; playing the whole stick")
        play(instead, of: active)
    }

    private func play(_ index: Int, of active: DaemonMachine.Stick) {
        guard var stick = sticks[active.id] else { return }
        stick.current = index
        sticks[active.id] = stick
        library.storeStation(stick.playing?.name, volumeID: active.id)
        hands.changed()
    }
}
