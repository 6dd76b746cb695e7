import ShuffleCore
import Testing

/// The decisions around a stick's stations: which station a choice picks, how a stick's settings lower the box's
/// while it plays, what changing station does, what MPD clients see and what the voice says.
@Suite struct StationWiringTests {
    typealias M = DaemonMachine
    static let box = M.Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false, minVolume: 2)
    static let stations = StationFile(
        parsing: "station = Bedtime\nsearch = folder:Bedtime\nstation = Rock\nsearch = genre:rock\n"
    ).stations

    /// (choice, from, picked): next and previous go round; names match exactly, else ignoring case.
    static let choices: [(StationChoice, Int, Int?)] = [
        (.next, 0, 1), (.next, 2, 0), (.previous, 0, 2), (.previous, 1, 0),
        (.named("Rock"), 0, 2), (.named("bedtime"), 2, 1), (.named("All"), 1, 0), (.named("Jazz"), 0, nil),
        (StationChoice("NEXT"), 1, 2), (StationChoice("previous"), 1, 0), (StationChoice("Rock"), 1, 2),
    ]

    @Test(arguments: choices)
    func aChoicePicksAStation(_ choice: StationChoice, _ from: Int, _ picked: Int?) {
        #expect(choice.index(in: Self.stations, from: from) == picked)
    }

    /// (stick's volume, stick's max-volume, stored level) → (cap in force, level at start-up).
    static let limits: [(Int?, Int?, Int?, Int, Int)] = [
        (nil, nil, nil, 12, 8),  // no settings: the box's
        (1000, 1000, nil, 12, 8),  // a stick cannot raise the cap or the start volume
        (nil, 6, nil, 6, 6),  // a lower cap lowers the start volume with it
        (4, nil, 11, 12, 4),  // the stick's start volume wins over a louder stored level
        (nil, 0, nil, 2, 2),  // the box's floor holds: a stick cannot mute the box
        (-5, nil, nil, 12, 2),
    ]

    @Test(arguments: limits)
    func aSticksSettingsOnlyEverLowerTheBoxs(_ start: Int?, _ cap: Int?, _ stored: Int?, _ inForce: Int, _ level: Int) {
        var machine = M(settings: Self.box)
        let stick = M.Stick(
            id: "uuid:A", mountPoint: "/media/A", known: true, storedLevel: stored,
            limits: StickSettings(startVolume: start, maxVolume: cap))
        _ = machine.handle(.started(present: [stick], lastPlayed: nil))
        #expect(machine.effectiveSettings.maxVolume == inForce)
        #expect(machine.volume == level)
        _ = machine.handle(.action(.setVolume(1000)))
        #expect(machine.volume == inForce, "asking for more than the cap gives the cap in force")
    }

    @Test func aStickPluggedInAtRunTimeBringsItsLowerCapAndTheNextStickTakesItAway() {
        var machine = M(settings: Self.box)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        let quiet = M.Stick(
            id: "uuid:Q", mountPoint: "/media/Q", known: true, storedLevel: 11, limits: StickSettings(maxVolume: 5))
        let effects = machine.handle(.mounted(quiet))
        #expect(effects.contains(.startPlayback(quiet, paused: false, level: 5, rampIn: false)))
        _ = machine.handle(.action(.changeVolume(3)))
        #expect(machine.volume == 5)
        _ = machine.handle(.unmounted(mountPoint: "/media/Q"))
        let loud = M.Stick(id: "uuid:L", mountPoint: "/media/L", known: true)
        _ = machine.handle(.mounted(loud))
        _ = machine.handle(.action(.changeVolume(5)))
        #expect(machine.volume == 10, "the box's cap again")
    }

    @Test func changingStationSavesRestartsThePlayerAndPlays() {
        var machine = M(settings: Self.box)
        let stick = M.Stick(id: "uuid:A", mountPoint: "/media/A", known: true, storedLevel: 5)
        _ = machine.handle(.started(present: [stick], lastPlayed: nil))
        _ = machine.handle(.action(.pause))
        #expect(
            machine.handle(.stationChanged) == [
                .stopPlayback, .startPlayback(stick, paused: false, level: 5, rampIn: false),
                .notify([.player, .playlist]),
            ])
        #expect(machine.state == .playing)
        // While the stick is still being indexed for the first time there is no player to restart.
        var fresh = M(settings: Self.box)
        _ = fresh.handle(.started(present: [M.Stick(id: "uuid:B", mountPoint: "/media/B")], lastPlayed: nil))
        #expect(fresh.handle(.stationChanged) == [])
    }

    @Test func theVoiceSaysTheStationsNameAndTheFirstErrorsLine() {
        var announcer = Announcer()
        let said = announcer.handle(.stationChanged(name: "Bedtime"), at: .zero)
        #expect(said.count == 1)
        if case .say(let phrase, let message) = said.first {
            #expect(phrase.map(\.text).joined() == "Bedtime")
            #expect(message == .station)
        }
        let error = announcer.handle(.stickFileError(line: 3), at: .seconds(1))
        if case .say(let phrase, _) = error.first {
            #expect(phrase.map(\.text).joined(separator: " ") == "The stick's settings file has an error on line 3")
        } else {
            Issue.record("nothing said for a broken shufflebox.txt")
        }
        var settings = Announcer.Settings()
        settings.texts[.station] = "Station {name}"
        var replaced = Announcer(settings: settings)
        if case .say(let phrase, _) = replaced.handle(.stationChanged(name: "Rock"), at: .zero).first {
            #expect(phrase.map(\.text).joined(separator: " ") == "Station Rock")
        }
    }
}

/// A playing backend with two stations, recording the choices asked of it.
private struct StationBackend: MPDBackend {
    var names = ["All", "Bedtime"]
    var playing = 1
    var chosen: [StationChoice] = []
    let songs: [Int64: SongInfo] = [
        4: SongInfo(id: 4, path: "Bedtime/a.mp3", title: "A"), 9: SongInfo(id: 9, path: "Bedtime/b.mp3", title: "B"),
    ]

    func snapshot() -> PlayerSnapshot { PlayerSnapshot(state: .playing, tracks: 10) }
    mutating func perform(_ action: PlayerAction) -> MPDError? { nil }
    func search(_ constraints: [SearchConstraint], exact: Bool) throws(MPDError) -> [SongInfo] { [] }
    func queue() -> MPDQueue? { MPDQueue(version: 2, ids: [9, 4], cursor: 0) }
    func song(id: Int64) -> SongInfo? { songs[id] }
    func stations() -> [StationListing] {
        names.enumerated().map { StationListing(name: $1, modified: 86_400, playing: $0 == playing) }
    }
    mutating func chooseStation(_ choice: StationChoice) -> MPDError? {
        guard
            choice.index(in: names.map { Station(name: $0, search: StationSearch(), mode: nil) }, from: playing) != nil
        else { return MPDError(.noExist, "No such playlist") }
        chosen.append(choice)
        return nil
    }
}

@Suite struct MPDStationCommandsTests {
    private func run(_ line: String, _ backend: inout StationBackend) -> String {
        var session = MPDSession()
        return session.receive(line: Array(line.utf8), backend: &backend).text
    }

    @Test func listplaylistsListsTheStationsWithTheFilesTime() {
        var backend = StationBackend()
        #expect(
            run("listplaylists", &backend)
                == "playlist: All\nLast-Modified: 1970-01-02T00:00:00Z\nplaylist: Bedtime\nLast-Modified: 1970-01-02T00:00:00Z\nOK\n"
        )
    }

    @Test func loadAndShuffleboxStationChooseAndAnUnknownNameIsNoSuchPlaylist() {
        var backend = StationBackend()
        #expect(run("load Bedtime", &backend) == "OK\n")
        #expect(run("load \"All\" 0:3", &backend) == "OK\n")
        #expect(run("shufflebox_station next", &backend) == "OK\n")
        #expect(run("load Jazz", &backend) == "ACK [50@0] {load} No such playlist\n")
        #expect(backend.chosen == [.named("Bedtime"), .named("All"), .next])
    }

    @Test func listplaylistListsThePlayingStationsQueueAndRefusesAnother() {
        var backend = StationBackend()
        #expect(run("listplaylist Bedtime", &backend) == "file: Bedtime/b.mp3\nfile: Bedtime/a.mp3\nOK\n")
        #expect(run("listplaylistinfo Bedtime", &backend).hasPrefix("file: Bedtime/b.mp3\nTitle: B\n"))
        #expect(run("listplaylist All", &backend).hasPrefix("ACK [50@0] {listplaylist} the songs of station 'All'"))
        #expect(run("listplaylist Jazz", &backend) == "ACK [50@0] {listplaylist} No such playlist\n")
    }

    @Test func aStationsQueueLengthIsThePlaylistLength() {
        var snapshot = PlayerSnapshot(state: .playing, tracks: 10)
        snapshot.queueLength = 2
        #expect(MPDCommands.status(snapshot).contains("playlistlength: 2\n"))
    }
}
