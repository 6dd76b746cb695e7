import ShuffleCore
import Testing

@Suite struct PlayerMachineTests {
    let ids = (1...4).map { TrackID(Int64($0)) }

    func machine(once: Bool = false, volume: Int = 10, cap: Int? = nil, cursor: Int = 0) -> PlayerMachine {
        let order = ShuffleOrder(restoring: ids, cursor: cursor, library: ids, random: SplitMix64(seed: 1))
        var machine = PlayerMachine(order: order, volume: volume, scale: VolumeScale(cap: cap), once: once)
        _ = machine.handle(.begin(positionMs: 0, paused: false))
        return machine
    }

    @Test func beginStartsTheCurrentTrackAtTheStoredPosition() {
        let order = ShuffleOrder(restoring: ids, cursor: 2, library: ids, random: SplitMix64(seed: 1))
        var machine = PlayerMachine(order: order, volume: 10, scale: VolumeScale(), once: false)
        let effects = machine.handle(.begin(positionMs: 61_500, paused: false))
        #expect(effects.contains(.start(TrackID(3), positionMs: 61_500)))
        #expect(effects.contains(.queue(TrackID(4))))
        #expect(effects.last == .saveState)
    }

    /// The daemon's machine decides paused before a player exists (resume-paused, a stick taking over a paused
    /// box): the player begins in that state, its first track opened and held, not played and then paused.
    @Test func beginPausedHoldsTheTrackFromTheStart() {
        let order = ShuffleOrder(restoring: ids, cursor: 1, library: ids, random: SplitMix64(seed: 1))
        var machine = PlayerMachine(order: order, volume: 10, scale: VolumeScale(), once: false)
        let effects = machine.handle(.begin(positionMs: 4_000, paused: true))
        #expect(effects.contains(.start(TrackID(2), positionMs: 4_000, paused: true)))
        #expect(!effects.contains { if case .start(_, _, false) = $0 { true } else { false } })
        #expect(machine.paused && machine.state(positionMs: 4_000).paused)
        #expect(machine.handle(.pause).isEmpty, "already paused")
        #expect(machine.handle(.play) == [.resumeOutput, .saveState])
    }

    struct PreviousCase: Sendable, CustomTestStringConvertible {
        var cursor: Int
        var positionMs: Int64
        var expected: TrackID
        var testDescription: String { "cursor \(cursor) at \(positionMs) ms → track \(expected)" }
    }

    @Test(arguments: [
        PreviousCase(cursor: 2, positionMs: 0, expected: TrackID(2)),
        PreviousCase(cursor: 2, positionMs: 2_999, expected: TrackID(2)),
        PreviousCase(cursor: 2, positionMs: 3_000, expected: TrackID(3)),
        PreviousCase(cursor: 2, positionMs: 95_000, expected: TrackID(3)),
        PreviousCase(cursor: 0, positionMs: 500, expected: TrackID(1)),
    ])
    func previousGoesBackWithinThreeSecondsAndRestartsLater(_ row: PreviousCase) {
        var player = machine(cursor: row.cursor)
        let effects = player.handle(.previous(positionMs: row.positionMs))
        #expect(effects.contains(.start(row.expected, positionMs: 0)))
        #expect(player.order.current == row.expected)
    }

    struct SeekCase: Sendable, CustomTestStringConvertible {
        var positionMs: Int64
        var byMs: Int64
        var expected: PlayerEffect
        var testDescription: String { "at \(positionMs) ms seek \(byMs) ms in a 60 s track → \(expected)" }
    }

    @Test(arguments: [
        SeekCase(positionMs: 10_000, byMs: 5_000, expected: .start(TrackID(2), positionMs: 15_000)),
        SeekCase(positionMs: 10_000, byMs: -5_000, expected: .start(TrackID(2), positionMs: 5_000)),
        SeekCase(positionMs: 3_000, byMs: -5_000, expected: .start(TrackID(2), positionMs: 0)),
        SeekCase(positionMs: 54_999, byMs: 5_000, expected: .start(TrackID(2), positionMs: 59_999)),
        SeekCase(positionMs: 55_000, byMs: 5_000, expected: .start(TrackID(3), positionMs: 0)),
    ])
    func seekStaysInTheTrackAndPastTheEndGoesOn(_ row: SeekCase) {
        var player = machine(cursor: 1)
        let effects = player.handle(.seek(positionMs: row.positionMs, byMs: row.byMs, durationMs: 60_000))
        #expect(effects.contains(row.expected))
        #expect(effects.last == .saveState)
        // Paused, the same seek lands in the same place and stays paused (as in MPD).
        var paused = machine(cursor: 1)
        _ = paused.handle(.pause)
        let held = paused.handle(.seek(positionMs: row.positionMs, byMs: row.byMs, durationMs: 60_000))
        guard case .start(let track, let position, _) = row.expected else { return }
        #expect(held.contains(.start(track, positionMs: position, paused: true)))
        #expect(paused.paused, "a seek keeps the pause")
    }

    @Test func seekToGoesToThePositionAndPastTheEndGoesOn() {
        var player = machine(cursor: 1)
        #expect(
            player.handle(.seekTo(positionMs: 42_000, durationMs: 60_000)).contains(
                .start(TrackID(2), positionMs: 42_000)))
        #expect(
            player.handle(.seekTo(positionMs: 60_000, durationMs: 60_000)).contains(.start(TrackID(3), positionMs: 0)))
    }

    @Test func playAndPauseAreIdempotentAndNextAndPreviousPlay() {
        var player = machine()
        #expect(player.handle(.play) == [])
        #expect(player.handle(.pause) == [.pauseOutput, .saveState])
        #expect(player.handle(.pause) == [])
        #expect(player.handle(.next).contains(.start(TrackID(2), positionMs: 0, paused: false)))
        #expect(!player.paused)
        _ = player.handle(.pause)
        #expect(player.handle(.previous(positionMs: 0)).contains(.start(TrackID(1), positionMs: 0, paused: false)))
        #expect(!player.paused)
        _ = player.handle(.pause)
        // The track ending by itself (the audio thread's news crossing a pause) starts the next one paused.
        #expect(player.handle(.trackEnded(continued: false)).contains(.start(TrackID(2), positionMs: 0, paused: true)))
        #expect(player.paused)
    }

    @Test func muteSilencesWithoutChangingTheStepAndUnmuteBringsTheStepBack() {
        var player = machine(volume: 10)
        #expect(player.handle(.mute(true)) == [.setGain(0, ramp: true)])
        #expect(player.handle(.mute(true)) == [])
        #expect(player.handle(.volumeUp) == [.setGain(0, ramp: true), .saveState], "still silent, one step louder")
        #expect(player.volume == 11)
        #expect(player.handle(.mute(false)) == [.setGain(player.scale.gain(11), ramp: true)])
        #expect(!player.muted)
    }

    @Test func playPauseTogglesAndSavesEachTime() {
        var player = machine()
        #expect(player.handle(.playPause) == [.pauseOutput, .saveState])
        #expect(player.paused)
        #expect(player.handle(.playPause) == [.resumeOutput, .saveState])
        #expect(!player.paused)
    }

    struct VolumeCase: Sendable, CustomTestStringConvertible {
        var start: Int
        var cap: Int?
        var events: [PlayerEvent]
        var expected: Int
        var testDescription: String { "start \(start), cap \(cap.map(String.init) ?? "none") → \(expected)" }
    }

    @Test(arguments: [
        VolumeCase(start: 10, cap: nil, events: [.volumeUp, .volumeUp], expected: 12),
        VolumeCase(start: 10, cap: 11, events: [.volumeUp, .volumeUp, .volumeUp], expected: 11),
        VolumeCase(start: 30, cap: 8, events: [], expected: 8),
        VolumeCase(start: 5, cap: 8, events: [.setVolume(1000)], expected: 8),
        VolumeCase(start: 5, cap: nil, events: [.setVolume(-4)], expected: 0),
        VolumeCase(start: 1, cap: nil, events: [.volumeDown, .volumeDown], expected: 0),
        VolumeCase(start: 20, cap: nil, events: [.volumeUp], expected: 20),
    ])
    func theVolumeStaysWithinZeroAndTheCapWhateverIsAsked(_ row: VolumeCase) {
        var player = machine(volume: row.start, cap: row.cap)
        for event in row.events {
            for effect in player.handle(event) {
                if case .setGain(let gain, let ramp) = effect {
                    #expect(ramp)
                    #expect(gain <= player.scale.gain(player.scale.cap))
                }
            }
        }
        #expect(player.volume == row.expected)
    }

    @Test func nextAtTheEndOfTheCycleFinishesWithOnceAndStartsANewCycleWithout() {
        var once = machine(once: true, cursor: 3)
        #expect(once.handle(.next) == [.saveState, .finish(.cycleComplete)])
        var forever = machine(once: false, cursor: 3)
        let effects = forever.handle(.trackEnded(continued: false))
        #expect(forever.order.cursor == 0)
        #expect(forever.order.current != TrackID(4))
        #expect(effects.contains { if case .start = $0 { true } else { false } })
    }

    @Test func aGaplessContinuationAnnouncesWithoutStartingAgain() {
        var player = machine()
        let effects = player.handle(.trackEnded(continued: true))
        #expect(effects == [.announce(TrackID(2)), .queue(TrackID(3)), .saveState])
    }

    @Test func aFailedTrackIsMarkedAndSkippedAndAnEmptyLibraryFinishes() {
        var player = machine(cursor: 3)
        let effects = player.handle(.trackFailed(TrackID(4), reason: "no audio"))
        #expect(effects.first == .markUnplayable(TrackID(4), reason: "no audio"))
        #expect(!player.order.order.contains(TrackID(4)))
        var single = PlayerMachine(
            order: ShuffleOrder(tracks: [TrackID(1)], random: SplitMix64(seed: 1)), volume: 5,
            scale: VolumeScale(), once: false)
        _ = single.handle(.begin(positionMs: 0, paused: false))
        let last = single.handle(.trackFailed(TrackID(1), reason: "broken"))
        #expect(last.last == .finish(.nothingPlayable))
    }

    @Test func theStoredStateCarriesOrderCursorPositionAndVolume() {
        var player = machine(volume: 7, cursor: 1)
        _ = player.handle(.playPause)
        let state = player.state(positionMs: 4_200)
        #expect(state == PlaybackState(order: ids, cursor: 1, positionMs: 4_200, volume: 7, paused: true))
    }
}
