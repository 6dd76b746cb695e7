import ShuffleCore
import Testing

/// The profile for children's decisions: lock, sleep fade, volume floor and start level.
@Suite struct ChildProfileTests {
    /// (locked before, action, decision, locked after).
    static let lockTable: [(Bool, ButtonAction, ButtonLock.Decision, Bool)] = [
        (false, .playPause, .perform(.playPause), false),
        (false, .volumeUp, .perform(.volumeUp), false),
        (false, .lock, .changed(locked: true), true),
        (true, .playPause, .refuse(.playPause), true),
        (true, .volumeUp, .refuse(.volumeUp), true),
        (true, .next, .refuse(.next), true),
        (true, .sleep, .refuse(.sleep), true),
        (true, .seekForward, .refuse(.seekForward), true),
        // The on/off switch works whoever presses it, as the plug does.
        (true, .powerOff, .perform(.powerOff), true),
        (false, .powerOff, .perform(.powerOff), false),
        // So does a battery board's low-battery line: the box saves before the battery gives out.
        (true, .batteryLow, .perform(.batteryLow), true),
        (true, .lock, .changed(locked: false), false),
    ]

    @Test(arguments: lockTable)
    func theLockRefusesEveryActionButItsOwnChordAndThePowerButton(
        before: Bool, action: ButtonAction, decision: ButtonLock.Decision, after: Bool
    ) {
        var lock = ButtonLock(locked: before)
        #expect(lock.decide(action) == decision)
        #expect(lock.locked == after)
    }

    @Test(arguments: [
        ("locked\n", true), ("locked", true), ("unlocked\n", false), ("", false), ("garbage", false),
        ("locked extra\n", true),
    ] as [(String, Bool)])
    func theStoredLockReadsBack(text: String, locked: Bool) {
        #expect(ButtonLock(fileText: text).locked == locked)
        #expect(ButtonLock(fileText: ButtonLock(locked: locked).fileText).locked == locked)
    }

    @Test func noLockFileMeansUnlocked() {
        #expect(!ButtonLock(fileText: nil).locked)
    }

    @Test func theFadeStepsDownOneStepAtATimeEvenlyToSilence() {
        let steps = SleepFade.steps(from: 10, over: .seconds(30))
        #expect(steps.map(\.step) == Array((0...9).reversed()))
        #expect(steps.map(\.at) == (1...10).map { Duration.seconds(3 * $0) })
        #expect(SleepFade.steps(from: 1, over: .seconds(30)) == [SleepFade.Step(at: .seconds(30), step: 0)])
        #expect(SleepFade.steps(from: 0, over: .seconds(30)).isEmpty)
        let instant = SleepFade.steps(from: 3, over: .zero)
        #expect(instant.map(\.step) == [2, 1, 0] && instant.allSatisfy { $0.at == .zero })
    }

    typealias M = DaemonMachine
    static let stick = M.Stick(id: "uuid:A", mountPoint: "/media/A", known: true, storedLevel: 1)

    /// (floor, asked step) → the step the machine sets (cap 12).
    @Test(arguments: [(4, 0, 4), (4, 3, 4), (4, 9, 9), (4, 30, 12), (0, 0, 0), (15, 0, 12)] as [(Int, Int, Int)])
    func theFloorHoldsWhateverIsAsked(floor: Int, asked: Int, result: Int) {
        var machine = M(
            settings: M.Settings(startVolume: 8, maxVolume: 12, volumeSteps: 20, resumePaused: false, minVolume: floor))
        _ = machine.handle(.started(present: [Self.stick], lastPlayed: nil))
        _ = machine.handle(.action(.setVolume(asked)))
        #expect(machine.volume == result)
    }

    @Test func volumeDownStopsAtTheFloor() {
        var machine = M(
            settings: M.Settings(startVolume: 6, maxVolume: 12, volumeSteps: 20, resumePaused: false, minVolume: 5))
        _ = machine.handle(.started(present: [Self.stick], lastPlayed: nil))
        #expect(machine.volume == 5, "a stick stored at 1 starts at the floor")
        _ = machine.handle(.action(.changeVolume(-1)))
        #expect(machine.volume == 5)
        _ = machine.handle(.action(.changeVolume(3)))
        #expect(machine.volume == 8)
    }

    @Test func theStartLevelIsNeverAboveTheConfiguredStartWhateverTheStickStored() {
        var loud = Self.stick
        loud.storedLevel = 12
        var machine = M(settings: M.Settings(startVolume: 6, maxVolume: 12, volumeSteps: 20, resumePaused: false))
        let effects = machine.handle(.started(present: [loud], lastPlayed: nil))
        #expect(effects.contains(.startPlayback(loud, paused: false, level: 6, rampIn: true)))
    }

    @Test func sleepIsTheShellsTimerNotAMachineDecision() {
        var machine = M(settings: M.Settings(startVolume: 6, maxVolume: 12, volumeSteps: 20, resumePaused: false))
        _ = machine.handle(.started(present: [Self.stick], lastPlayed: nil))
        #expect(machine.handle(.action(.sleep(seconds: 60))) == [])
    }

    @Test(arguments: [
        (["ctl", "sleep", "20"], ControlOptions.Action.sleep(seconds: 1200)),
        (["ctl", "sleep", "0"], .sleep(seconds: 0)),
        (["ctl", "sleep", "45s"], .sleep(seconds: 45)),
    ])
    func ctlSleepTakesMinutesOrSeconds(arguments: [String], action: ControlOptions.Action) throws {
        #expect(try Command.parse(arguments) == .ctl(.init(action: action)))
    }

    @Test(arguments: [["ctl", "sleep", "soon"], ["ctl", "sleep", "-5"], ["ctl", "sleep", "2000"], ["ctl", "sleep"]])
    func ctlSleepRefusesOtherWords(arguments: [String]) {
        #expect(throws: UsageError.self) { try Command.parse(arguments) }
    }

    @Test(arguments: [
        (DaemonState.paused, true), (.noLibrary, true), (.playing, false), (.indexing, false), (.error("x"), false),
    ])
    func theIdlePowerOffStandsOnlyPausedOrWithoutAStick(state: DaemonState, idle: Bool) {
        #expect(IdlePowerOff.isIdle(state) == idle)
    }

    @Test func theConfigurationReadsThePowerOffSettings() throws {
        let config = try ConfigParser.parse(
            "idle-power-off = 20\nsleep-power-off = yes\npower-off-command = /bin/echo off now\n", file: "f")
        #expect(config.idlePowerOffSeconds == 1200 && config.sleepPowerOff)
        #expect(config.powerOffCommand == ["/bin/echo", "off", "now"])
        #expect(try ConfigParser.parse("idle-power-off = 45s\n", file: "f").idlePowerOffSeconds == 45)
        #expect(try ConfigParser.parse("idle-power-off = off\n", file: "f").idlePowerOffSeconds == 0)
        #expect(DaemonConfig().idlePowerOffSeconds == 0, "off unless the parent turns it on")
        #expect(throws: ConfigError.self) { try ConfigParser.parse("power-off-command = poweroff\n", file: "f") }
    }

    @Test func theConfigurationReadsTheFloorAndTheSleepSettingsAndRefusesAFloorAboveTheCap() throws {
        let config = try ConfigParser.parse(
            "min-volume = 3\nsleep-minutes = 20\nsleep-fade = 10\nmax-volume = 12\n", file: "f")
        #expect(config.minVolume == 3 && config.sleepMinutes == 20 && config.sleepFadeSeconds == 10)
        #expect(M.Settings(config).minVolume == 3)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("min-volume = 13\nmax-volume = 12\n", file: "f") }
    }

    @Test func theResumePointIsSavedEveryThirtySecondsUnlessTheConfigurationSaysOtherwise() throws {
        #expect(DaemonConfig().resumeSaveSeconds == 30)
        #expect(try ConfigParser.parse("resume-save = 5\n", file: "f").resumeSaveSeconds == 5)
        for refused in ["1", "601", "often"] {
            #expect(throws: ConfigError.self) { try ConfigParser.parse("resume-save = \(refused)\n", file: "f") }
        }
    }
}
