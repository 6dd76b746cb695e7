import ShuffleCore
import Testing

/// Paused or playing, after every event in every order (issue 14): the player machine follows one rule,
/// the audio thread (as the `start`/`pauseOutput`/`resumeOutput` effects leave it) agrees with the machine,
/// and the daemon's machine agrees with the player it drives.
@Suite struct PlayPauseAgreementTests {
    static let ids = (1...6).map { TrackID(Int64($0)) }

    /// One event of the player, with what it does to paused/playing by the rule.
    struct Step: Sendable, CustomStringConvertible {
        var name: String
        var event: @Sendable (PlayerMachine) -> PlayerEvent
        /// Paused afterwards, given paused before.
        var rule: @Sendable (Bool) -> Bool
        var description: String { name }
    }

    static let steps: [Step] = [
        Step(name: "play", event: { _ in .play }, rule: { _ in false }),
        Step(name: "pause", event: { _ in .pause }, rule: { _ in true }),
        Step(name: "toggle", event: { _ in .playPause }, rule: { !$0 }),
        Step(name: "next", event: { _ in .next }, rule: { _ in false }),
        Step(name: "previous (early)", event: { _ in .previous(positionMs: 500) }, rule: { _ in false }),
        Step(name: "previous (late)", event: { _ in .previous(positionMs: 9_000) }, rule: { _ in false }),
        Step(
            name: "seek +5 s", event: { _ in .seek(positionMs: 10_000, byMs: 5_000, durationMs: 60_000) }, rule: { $0 }),
        Step(
            name: "seek past the end", event: { _ in .seek(positionMs: 58_000, byMs: 5_000, durationMs: 60_000) },
            rule: { $0 }),
        Step(name: "mute or unmute", event: { .mute(!$0.muted) }, rule: { $0 }),
        Step(name: "volume up", event: { _ in .volumeUp }, rule: { $0 }),
        Step(name: "volume down", event: { _ in .volumeDown }, rule: { $0 }),
        Step(name: "track end", event: { _ in .trackEnded(continued: false) }, rule: { $0 }),
        Step(name: "gapless track end", event: { _ in .trackEnded(continued: true) }, rule: { $0 }),
        Step(
            name: "track failed", event: { .trackFailed($0.order.current ?? TrackID(1), reason: "broken") },
            rule: { $0 }),
        Step(
            name: "library lost the track",
            event: { machine in
                .libraryChanged(machine.order.order.filter { $0 != machine.order.current })
            }, rule: { $0 }),
    ]

    /// A machine that has begun, playing or paused, with a long cycle so no triple runs out of tracks.
    static func begun(paused: Bool) -> (PlayerMachine, audioPaused: Bool) {
        let many = (1...40).map { TrackID(Int64($0)) }
        var machine = PlayerMachine(
            order: ShuffleOrder(restoring: many, cursor: 5, library: many, random: SplitMix64(seed: 3)), volume: 10,
            scale: VolumeScale(), once: false)
        var audio = true
        audio = Self.audio(after: machine.handle(.begin(positionMs: 0, paused: false)), was: audio)
        if paused { audio = Self.audio(after: machine.handle(.pause), was: audio) }
        return (machine, audio)
    }

    /// What the audio thread's output is after carrying out `effects` in order.
    static func audio(after effects: [PlayerEffect], was paused: Bool) -> Bool {
        var paused = paused
        for effect in effects {
            switch effect {
            case .start(_, _, let held): paused = held
            case .pauseOutput: paused = true
            case .resumeOutput: paused = false
            default: break
            }
        }
        return paused
    }

    @Test(arguments: [false, true])
    func everyTripleOfEventsLeavesMachineAndAudioAgreeingByTheRule(startPaused: Bool) {
        var checked = 0
        for first in Self.steps {
            for second in Self.steps {
                for third in Self.steps {
                    var (machine, audio) = Self.begun(paused: startPaused)
                    var expected = startPaused
                    var path: [String] = [startPaused ? "paused" : "playing"]
                    for step in [first, second, third] {
                        path.append(step.name)
                        let effects = machine.handle(step.event(machine))
                        audio = Self.audio(after: effects, was: audio)
                        expected = step.rule(expected)
                        #expect(machine.paused == expected, "\(path.joined(separator: ", "))")
                        #expect(audio == machine.paused, "audio disagrees: \(path.joined(separator: ", "))")
                        #expect(machine.state(positionMs: 0).paused == machine.paused)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == Self.steps.count * Self.steps.count * Self.steps.count * 3)
    }

    // MARK: - The daemon and its player

    static let settings = DaemonMachine.Settings(startVolume: 8, maxVolume: 20, volumeSteps: 20, resumePaused: false)
    static let stick = DaemonMachine.Stick(id: "uuid:A", mountPoint: "/media/a", known: true)

    /// The daemon machine driving a player machine the way `PlayerBridge` does: begun in the daemon's state,
    /// then explicit play and pause.
    struct Box {
        var daemon = DaemonMachine(settings: PlayPauseAgreementTests.settings)
        var player: PlayerMachine?

        mutating func carryOut(_ effects: [DaemonMachine.Effect]) {
            for effect in effects {
                switch effect {
                case .startPlayback(_, let paused, let level, _):
                    var machine = PlayerMachine(
                        order: ShuffleOrder(tracks: PlayPauseAgreementTests.ids, random: SplitMix64(seed: 1)),
                        volume: level, scale: VolumeScale(), once: false)
                    _ = machine.handle(.begin(positionMs: 0, paused: paused))
                    player = machine
                case .stopPlayback: player = nil
                case .pause: _ = player?.handle(.pause)
                case .resume: _ = player?.handle(.play)
                case .next: _ = player?.handle(.next)
                case .previous: _ = player?.handle(.previous(positionMs: 0))
                case .seek(let milliseconds):
                    _ = player?.handle(.seek(positionMs: 1_000, byMs: milliseconds, durationMs: 60_000))
                case .setVolume(let level): _ = player?.handle(.setVolume(level))
                default: break
                }
            }
        }
    }

    enum Input: Sendable, CustomStringConvertible {
        case action(PlayerAction)
        case trackEnded
        var description: String {
            switch self {
            case .action(let action): "\(action)"
            case .trackEnded: "track end"
            }
        }
    }

    static let inputs: [Input] = [
        .action(.play), .action(.pause), .action(.toggle), .action(.next), .action(.previous),
        .action(.seek(byMs: 5_000)), .action(.changeVolume(1)), .trackEnded,
    ]

    @Test(arguments: [false, true])
    func everyTripleOfClientActionsLeavesTheDaemonAndThePlayerAgreeing(startPaused: Bool) {
        for first in Self.inputs {
            for second in Self.inputs {
                for third in Self.inputs {
                    var box = Box()
                    box.carryOut(box.daemon.handle(.started(present: [Self.stick], lastPlayed: nil)))
                    if startPaused { box.carryOut(box.daemon.handle(.action(.pause))) }
                    var path: [String] = [startPaused ? "paused" : "playing"]
                    for input in [first, second, third] {
                        path.append(input.description)
                        switch input {
                        case .action(let action):
                            box.carryOut(box.daemon.handle(.action(action)))
                        case .trackEnded:
                            _ = box.player?.handle(.trackEnded(continued: false))
                            box.carryOut(box.daemon.handle(.trackStarted))
                        }
                        let player = box.player
                        #expect(player != nil)
                        let reported = box.daemon.state
                        #expect(
                            reported == (player?.paused == true ? .paused : .playing),
                            "\(path.joined(separator: ", ")): daemon \(reported), player paused \(player?.paused ?? false)"
                        )
                    }
                }
            }
        }
    }
}
