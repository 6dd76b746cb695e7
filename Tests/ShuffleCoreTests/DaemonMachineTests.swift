import ShuffleCore
import Testing

@Suite struct DaemonMachineTests {
    typealias M = DaemonMachine
    static let settings = M.Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false)
    static let a = M.Stick(id: "uuid:A", mountPoint: "/media/A", known: true, storedLevel: 11)
    static let b = M.Stick(id: "uuid:B", mountPoint: "/media/B")

    /// Only the effects that act (logs dropped), for compact tables.
    private func acts(_ effects: [M.Effect]) -> [M.Effect] {
        effects.filter { if case .log = $0 { false } else { true } }
    }

    @Test func startUpWithoutSticksWaits() {
        var machine = M(settings: Self.settings)
        #expect(acts(machine.handle(.started(present: [], lastPlayed: nil))) == [])
        #expect(machine.state == .noLibrary)
    }

    @Test func startUpResumesLastPlayedPresentStickRampedAndNeverAboveStart() {
        var machine = M(settings: Self.settings)
        let effects = machine.handle(.started(present: [Self.a, Self.b], lastPlayed: "uuid:A"))
        #expect(
            acts(effects) == [
                .startIndexing(Self.a), .startIndexing(Self.b),
                .startPlayback(Self.a, paused: false, level: 8, rampIn: true),
            ])
        #expect(machine.state == .playing)
        #expect(machine.active == Self.a)
    }

    @Test func startUpPausedWhenConfigured() {
        var settings = Self.settings
        settings.resumePaused = true
        var machine = M(settings: settings)
        var quiet = Self.a
        quiet.storedLevel = 3
        let effects = machine.handle(.started(present: [quiet], lastPlayed: nil))
        #expect(acts(effects).last == .startPlayback(quiet, paused: true, level: 3, rampIn: true))
        #expect(machine.state == .paused)
    }

    @Test func newStickIsIndexedAndPlaysAtTheFirstPlayableTrack() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        #expect(
            acts(machine.handle(.mounted(Self.b))) == [
                .startIndexing(Self.b), .notify([.database, .player, .update, .playlist]),
            ])
        #expect(machine.state == .indexing)
        #expect(machine.handle(.action(.next)) == [])
        let first = machine.handle(.firstPlayable(volumeID: "uuid:B"))
        #expect(
            first == [.startPlayback(Self.b, paused: false, level: 8, rampIn: false), .notify([.database, .player])])
        #expect(machine.state == .playing)
        #expect(machine.handle(.firstPlayable(volumeID: "uuid:B")) == [])
        #expect(machine.handle(.indexed(volumeID: "uuid:B", playable: 40)) == [.notify([.database, .update])])
        #expect(machine.indexing.isEmpty)
    }

    /// A new stick whose first indexed tracks all fail to decode: the player ends, and the box would stay
    /// silent until the stick is plugged again if the tracks indexed next were not tried.
    @Test func aPlayerThatFoundNothingPlayableWhileIndexingStartsAgainWithTheNextTracksFound() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        _ = machine.handle(.mounted(Self.b))
        let start: M.Effect = .startPlayback(Self.b, paused: false, level: 8, rampIn: false)
        #expect(acts(machine.handle(.firstPlayable(volumeID: "uuid:B"))).first == start)
        #expect(acts(machine.handle(.nothingPlayable(volumeID: "uuid:B"))) == [.stopPlayback, .notify([.player])])
        #expect(machine.state == .indexing, "looking for music, not playing")
        #expect(machine.active == Self.b)
        #expect(machine.handle(.nothingPlayable(volumeID: "uuid:B")) == [], "reported once per player")
        #expect(machine.handle(.action(.next)) == [], "no player to skip")
        #expect(acts(machine.handle(.morePlayable(volumeID: "uuid:B"))) == [start, .notify([.database, .player])])
        #expect(machine.state == .playing)
        // Playing again, more tracks found change nothing.
        #expect(machine.handle(.morePlayable(volumeID: "uuid:B")) == [])
    }

    @Test func theLastTracksOfTheRunAreTriedWhenNoneBeforeThemPlayed() {
        var machine = playingNewStickB()
        _ = machine.handle(.nothingPlayable(volumeID: "uuid:B"))
        #expect(
            acts(machine.handle(.indexed(volumeID: "uuid:B", playable: 30))) == [
                .notify([.database, .update]), .startPlayback(Self.b, paused: false, level: 8, rampIn: false),
                .notify([.player]),
            ])
        #expect(machine.state == .playing)
        // None of those plays either, and the index is done: the stick has no music; another stick plays.
        let effects = machine.handle(.nothingPlayable(volumeID: "uuid:B"))
        #expect(acts(effects) == [.stopPlayback, .notify([.player])])
        #expect(effects.contains { if case .log(.notice, let line) = $0 { line.contains("uuid:B") } else { false } })
        #expect(machine.state == .noLibrary)
        #expect(machine.active == nil)
    }

    @Test func aStickWithNothingPlayableHandsOverToAnotherThatPlays() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        _ = machine.handle(.indexed(volumeID: "uuid:A", playable: 10))
        _ = machine.handle(.mounted(Self.b))
        _ = machine.handle(.firstPlayable(volumeID: "uuid:B"))
        _ = machine.handle(.indexed(volumeID: "uuid:B", playable: 3))
        // The first end comes after the run's last tracks were found: they are tried once more.
        #expect(acts(machine.handle(.nothingPlayable(volumeID: "uuid:B"))).last == .notify([.player]))
        #expect(machine.active == Self.b)
        let effects = acts(machine.handle(.nothingPlayable(volumeID: "uuid:B")))
        #expect(effects.first == .stopPlayback)
        #expect(effects.contains { if case .startPlayback(Self.a, _, _, _) = $0 { true } else { false } })
        #expect(machine.active == Self.a)
    }

    /// The index's last tracks may reach the loop just before the player's end, which then never heard of
    /// them: the player is started once more to try them, and only a player that saw them all gives up.
    @Test func tracksFoundWhileThePlayerRanAreTriedBeforeGivingUp() {
        var machine = playingNewStickB()
        _ = machine.handle(.indexed(volumeID: "uuid:B", playable: 30))
        let start: M.Effect = .startPlayback(Self.b, paused: false, level: 8, rampIn: false)
        let ended = acts(machine.handle(.nothingPlayable(volumeID: "uuid:B")))
        #expect(ended == [.stopPlayback, start, .notify([.player])])
        #expect(machine.state == .playing)
        #expect(acts(machine.handle(.nothingPlayable(volumeID: "uuid:B"))) == [.stopPlayback, .notify([.player])])
        #expect(machine.state == .noLibrary)
        // A player that was stopped (another stick, an unplug) reports nothing the machine acts on.
        #expect(machine.handle(.nothingPlayable(volumeID: "uuid:B")) == [])
        #expect(machine.handle(.nothingPlayable(volumeID: "uuid:Z")) == [])
    }

    /// A machine playing the new stick B from its first playable track, its index run still going.
    private func playingNewStickB() -> M {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        _ = machine.handle(.mounted(Self.b))
        _ = machine.handle(.firstPlayable(volumeID: "uuid:B"))
        return machine
    }

    @Test func unplugStopsSavesAndWaits() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        let effects = acts(machine.handle(.unmounted(mountPoint: "/media/A")))
        #expect(
            effects == [
                .stopIndexing(volumeID: "uuid:A"), .stopPlayback, .notify([.database, .player]),
            ])
        #expect(machine.state == .noLibrary)
        #expect(machine.handle(.unmounted(mountPoint: "/media/A")) == [])
        // Plugged back in: a known stick resumes at once with its own volume.
        let again = acts(machine.handle(.mounted(Self.a)))
        #expect(
            again == [
                .startIndexing(Self.a), .startPlayback(Self.a, paused: false, level: 11, rampIn: false),
                .notify([.database, .player, .update, .playlist]),
            ])
    }

    /// The stick's loudness scan runs on after its index run has reported, and a lazily unmounted file system
    /// stays readable: the stick's work is stopped whenever it goes, or the scan keeps the partition busy
    /// (found in image/test: the USB-drive switch could not hand the card's MUSIC to the computer for as long
    /// as the scan was measuring).
    @Test func aStickThatGoesAfterItsIndexRunStillHasItsBackgroundWorkStopped() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        _ = machine.handle(.mounted(Self.b))
        _ = machine.handle(.firstPlayable(volumeID: "uuid:B"))
        _ = machine.handle(.indexed(volumeID: "uuid:B", playable: 40))
        #expect(machine.indexing.isEmpty)
        let effects = acts(machine.handle(.unmounted(mountPoint: "/media/B")))
        #expect(effects.first == .stopIndexing(volumeID: "uuid:B"))
        #expect(effects.contains(.stopPlayback))
    }

    @Test func newestStickPlaysAndTheOtherTakesOverWhenItGoes() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        let plugB = acts(machine.handle(.mounted(Self.b)))
        #expect(
            plugB == [
                .stopPlayback, .startIndexing(Self.b),
                .notify([.database, .player, .update, .playlist]),
            ])
        #expect(machine.active == Self.b && machine.state == .indexing)
        let pullB = acts(machine.handle(.unmounted(mountPoint: "/media/B")))
        #expect(
            pullB == [
                .stopIndexing(volumeID: "uuid:B"), .stopPlayback,
                .startPlayback(Self.a, paused: false, level: 11, rampIn: false), .notify([.database, .player]),
            ])
        #expect(machine.active == Self.a)
    }

    @Test func stickWithoutAudioIsDropped() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [], lastPlayed: nil))
        _ = machine.handle(.mounted(Self.b))
        let effects = machine.handle(.indexed(volumeID: "uuid:B", playable: 0))
        #expect(acts(effects) == [.notify([.database, .update]), .stopPlayback, .notify([.player])])
        #expect(machine.state == .noLibrary)
    }

    @Test(arguments: [
        (PlayerAction.toggle, [M.Effect.pause, .notify([.player])], DaemonState.paused),
        (.pause, [.pause, .notify([.player])], .paused),
        (.play, [], .playing),
        (.next, [.next], .playing),
        (.previous, [.previous], .playing),
        (.changeVolume(2), [.setVolume(10), .notify([.mixer])], .playing),
        (.changeVolume(50), [.setVolume(12), .notify([.mixer])], .playing),
        (.setVolume(-3), [.setVolume(0), .notify([.mixer])], .playing),
        (.setVolume(8), [], .playing),
    ])
    func actionsWhilePlaying(_ action: PlayerAction, _ expected: [M.Effect], _ state: DaemonState) {
        var machine = M(settings: Self.settings)
        var stick = Self.a
        stick.storedLevel = nil
        _ = machine.handle(.started(present: [stick], lastPlayed: nil))
        #expect(machine.handle(.action(action)) == expected)
        #expect(machine.state == state)
    }

    @Test func rescanIndexesTheActiveStickOnceAtATimeAndIdleHearsUpdateBothWays() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        _ = machine.handle(.indexed(volumeID: Self.a.id, playable: 5))
        #expect(machine.handle(.action(.rescan)) == [.startIndexing(Self.a), .notify([.update])])
        #expect(machine.handle(.action(.rescan)) == [], "one run at a time")
        #expect(machine.handle(.indexed(volumeID: Self.a.id, playable: 5)).contains(.notify([.database, .update])))
        var empty = M(settings: Self.settings)
        _ = empty.handle(.started(present: [], lastPlayed: nil))
        #expect(empty.handle(.action(.rescan)) == [])
    }

    @Test func disablingTheOutputMutesAndANewPlayerStartsMutedUntilItIsEnabled() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        #expect(machine.handle(.action(.setOutput(enabled: false))) == [.mute(true), .notify([.output, .mixer])])
        #expect(machine.handle(.action(.setOutput(enabled: false))) == [])
        #expect(machine.state == .playing, "muted is not paused")
        // A player started again (here after the sound device came back) starts muted too.
        _ = machine.handle(.deviceFailed("gone"))
        let restarted = acts(machine.handle(.deviceRecovered))
        #expect(restarted.contains(.startPlayback(Self.a, paused: false, level: 8, rampIn: true)), "\(restarted)")
        #expect(restarted.contains(.mute(true)))
        #expect(machine.handle(.action(.setOutput(enabled: true))) == [.mute(false), .notify([.output, .mixer])])
    }

    @Test func volumeCapHoldsAcrossReload() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        _ = machine.handle(.action(.setVolume(12)))
        var lower = Self.settings
        lower.maxVolume = 6
        #expect(acts(machine.handle(.configReloaded(lower))) == [.setVolume(6), .notify([.mixer])])
        #expect(machine.handle(.action(.changeVolume(1))) == [])
        #expect(machine.volume == 6)
    }

    @Test func deviceFailureIsAnErrorStateAndRecoveryRestarts() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        #expect(
            machine.handle(.deviceFailed("hw:1,0 vanished")) == [.log(.error, "hw:1,0 vanished"), .notify([.player])])
        #expect(machine.state == .error("hw:1,0 vanished"))
        #expect(machine.state.name == "error" && machine.state.errorReason == "hw:1,0 vanished")
        #expect(machine.handle(.action(.next)) == [])
        #expect(
            acts(machine.handle(.deviceRecovered)) == [
                .startPlayback(Self.a, paused: false, level: 8, rampIn: true), .notify([.player]),
            ])
        #expect(machine.state == .playing)
    }

    @Test func aStickPluggedOrPulledDuringADeviceErrorStillStartsAPlayerThatTriesTheDevice() {
        var machine = M(settings: Self.settings)
        _ = machine.handle(.started(present: [Self.a], lastPlayed: nil))
        _ = machine.handle(.deviceFailed("cannot open ALSA device 'x': No such file or directory"))
        // Pulling the only stick leaves nothing using the device: no library, not a stale error.
        _ = machine.handle(.unmounted(mountPoint: Self.a.mountPoint))
        #expect(machine.state == .noLibrary)
        // A stick plugged in after that gets a player (which reports the device again if it is still gone).
        let effects = acts(machine.handle(.mounted(Self.a)))
        #expect(effects.contains(.startPlayback(Self.a, paused: false, level: 11, rampIn: false)), "\(effects)")
        _ = machine.handle(.deviceFailed("cannot open ALSA device 'x': No such file or directory"))
        #expect(machine.state.name == "error")
        // Another stick plugged in meanwhile replaces the failing player with a new one.
        var b = Self.b
        b.known = true
        let replaced = acts(machine.handle(.mounted(b)))
        #expect(
            replaced.contains(.stopPlayback)
                && replaced.contains { if case .startPlayback = $0 { true } else { false } })
    }

    @Test func shutdownSavesWhenPlayingOnly() {
        var idle = M(settings: Self.settings)
        _ = idle.handle(.started(present: [], lastPlayed: nil))
        #expect(idle.handle(.shutdown) == [])
        var playing = M(settings: Self.settings)
        _ = playing.handle(.started(present: [Self.a], lastPlayed: nil))
        #expect(playing.handle(.shutdown) == [.stopPlayback])
    }

    @Test func trackChangeSavesAndNotifies() {
        var machine = M(settings: Self.settings)
        #expect(machine.handle(.trackStarted) == [.notify([.player])])
    }
}
