import Glibc
import LibLinux
import ShuffleCore
import ShuffleTestSupport
import Testing

@testable import ShuffleDaemon

/// The appliance's services and router in-process (`ApplianceHarness`): a manual clock, fakes at the ports,
/// no root, no sound, no sleeps.
@Suite struct ApplianceTests {
    @Test func theServicesStartInListOrderAndStopInReverse() throws {
        let box = try ApplianceHarness()
        #expect(
            box.appliance.services == [
                "signals", "mounts", "control socket", "voice", "light", "buttons", "outputs", "stations", "stories",
                "listings",
                "sleep timer", "power", "systemd",
            ])
        #expect(access(box.scratch.path + "/socket", F_OK) == 0)
        box.appliance.terminate(signal: SIGTERM)
        #expect(box.appliance.services.isEmpty)
        #expect(box.library.isClosed)
        // The control socket is gone with its service.
        #expect(access(box.scratch.path + "/socket", F_OK) != 0)
    }

    @Test func aStickPlaysAtItsFirstPlayableTrackAndItsListingIsReadOnceItsFirstSampleIsOut() throws {
        let box = try ApplianceHarness()
        #expect(box.state == .noLibrary)
        try box.plug("A")
        #expect(box.library.calls == ["index \(box.stickID("A"))"])
        #expect(box.state == .indexing)
        box.index("A", .firstPlayable)
        // The outputs service chose the one output (`device`) as the daemon started.
        #expect(box.player.take() == ["device default", "start \(box.stickID("A")) - level 10"])
        #expect(!box.library.calls.contains("listing \(box.stickID("A"))"))
        box.playerSays(.trackStarted(at: .now))
        #expect(box.state == .playing)
        #expect(box.library.calls.last == "listing \(box.stickID("A"))")
    }

    @Test func aSecondStickTakesOverAndTheFirstComesBackWhenItIsPulled() throws {
        let box = try ApplianceHarness()
        try box.playing("A")
        _ = box.player.take()
        try box.plug("B")
        box.index("B", .firstPlayable)
        #expect(box.player.take().contains("start \(box.stickID("B")) - level 10"))
        try box.pull("B")
        #expect(box.library.calls.contains("stop \(box.stickID("B"))"))
        #expect(box.library.calls.contains("forget \(box.stickID("B"))"))
        #expect(box.player.take().contains { $0.hasPrefix("start \(box.stickID("A"))") })
    }

    /// The player is told the cap in force, the box's or a stick's lower one, as it changes: it owns none.
    @Test func thePlayerIsToldTheCapInForce() throws {
        let box = try ApplianceHarness()
        try box.playing("A")
        let own = box.appliance.machine.settings.maxVolume
        #expect(box.player.cap == own)
        try box.plug("Quiet", stationFile: "max-volume = 3\n")
        box.index("Quiet", .firstPlayable)
        #expect(box.player.cap == 3 && own > 3)
        try box.pull("Quiet")
        #expect(box.player.cap == own)
    }

    @Test func theShuffleGrowsAtMostEveryThreeSecondsWhileIndexing() throws {
        let box = try ApplianceHarness()
        try box.playing("A")
        _ = box.player.take()
        for _ in 0..<10 {
            box.index("A", .progress(playable: 10))
            box.advance(by: .milliseconds(500))
        }
        // 5 s of reports every 0.5 s: at 0, 3 s.
        #expect(box.player.take().filter { $0 == "grow" }.count == 2)
        box.index("A", .finished(playable: 10, changed: true))
        #expect(box.player.take() == ["grow"])
    }

    @Test func theSleepTimerFadesStepByStepThenPauses() throws {
        let box = try ApplianceHarness { $0.sleepFadeSeconds = 10 }
        try box.playing("A")
        _ = box.player.take()
        #expect(box.appliance.perform(.sleep(seconds: 60)) == nil)
        box.advance(by: .seconds(59))
        #expect(box.player.take().isEmpty)
        box.advance(by: .seconds(1))
        // Level 10 over 10 s: one step a second.
        box.advance(by: .seconds(10))
        #expect(box.player.take() == (0..<10).reversed().map { "level \($0)" })
        #expect(box.state == .playing)
        box.advance(by: SleepTimer.pauseDelay)
        #expect(box.player.take() == ["pause", "level 10"])
        #expect(box.state == .paused)
        #expect(!box.appliance.sleep.isRunning)
    }

    @Test func aButtonDuringTheFadeGivesTheMusicItsLevelBack() throws {
        let box = try ApplianceHarness { $0.sleepFadeSeconds = 10 }
        try box.playing("A")
        _ = box.appliance.perform(.sleep(seconds: 1))
        box.advance(by: .seconds(4))
        _ = box.player.take()
        box.appliance.buttons.pressed(.volumeDown)
        #expect(box.player.take() == ["level 10", "level 9"])
        box.advance(by: .seconds(60))
        #expect(box.player.take().isEmpty)
        #expect(box.state == .playing)
    }

    @Test func theLockRefusesButtonsAndIsStoredAcrossARestart() throws {
        let state = try TemporaryDirectory(prefix: "appliance-lock")
        do {
            let box = try ApplianceHarness(state: state)
            try box.playing("A")
            _ = box.player.take()
            box.appliance.buttons.pressed(.lock)
            box.appliance.buttons.pressed(.playPause)
            box.appliance.buttons.pressed(.next)
            #expect(box.player.take().isEmpty)
            #expect(box.state == .playing)
            let stored = try FileSystem.contents(of: state.path + "/buttons.lock", limit: 64)
            #expect(String(decoding: stored, as: UTF8.self) == "locked\n")
            box.appliance.terminate(signal: SIGTERM)
        }
        let again = try ApplianceHarness(state: state)
        try again.playing("A")
        _ = again.player.take()
        again.appliance.buttons.pressed(.playPause)
        #expect(again.player.take().isEmpty)
        again.appliance.buttons.pressed(.lock)
        again.appliance.buttons.pressed(.playPause)
        #expect(again.player.take() == ["pause"])
    }

    @Test func aPausedBoxPowersOffAfterTheIdleTimeAndNotBefore() throws {
        let box = try ApplianceHarness { $0.idlePowerOffSeconds = 60 }
        let marker = box.scratch.path + "/powered-off"
        // No stick is idle too: the deadline stands from the start.
        try box.playing("A")
        #expect(box.loop.deadline(of: .idlePowerOff) == nil)
        _ = box.appliance.perform(.pause)
        box.advance(by: .seconds(30))
        _ = box.appliance.perform(.play)
        #expect(box.loop.deadline(of: .idlePowerOff) == nil)
        _ = box.appliance.perform(.pause)
        box.advance(by: .seconds(59))
        #expect(access(marker, F_OK) != 0)
        box.advance(by: .seconds(1))
        #expect(access(marker, F_OK) == 0)
        // Once: the deadline is used up until the box is busy and idle again.
        box.advance(by: .seconds(600))
        let runs = try FileSystem.contents(of: marker, limit: 100)
        #expect(String(decoding: runs, as: UTF8.self) == "off\n")
    }

    /// The power button switches the box off once, even with the buttons locked (with the voice off, at once;
    /// with it, once "Goodbye" has been heard, at most `PowerService.sayingBound` later).
    /// The power button, and a battery board's low-battery line: either switches the box off, locked or not.
    @Test(arguments: [ButtonAction.powerOff, .batteryLow])
    func thePowerButtonSwitchesTheBoxOffEvenWhenLocked(_ action: ButtonAction) throws {
        let box = try ApplianceHarness()
        let marker = box.scratch.path + "/powered-off"
        try box.playing("A")
        box.appliance.buttons.pressed(.lock)
        box.appliance.buttons.pressed(.next)
        #expect(access(marker, F_OK) != 0)
        box.appliance.buttons.pressed(action)
        box.settle()
        let runs = try FileSystem.contents(of: marker, limit: 100)
        #expect(String(decoding: runs, as: UTF8.self) == "off\n")
        #expect(box.loop.deadline(of: .powerOff) == nil)
    }

    @Test func aStationIsChosenStoredAndFallsBackToTheWholeStickWhenItFindsNoSong() throws {
        let box = try ApplianceHarness()
        try box.playing("A", stationFile: "station = Calm\nsearch = calm\n")
        _ = box.player.take()
        #expect(box.appliance.stations().map(\.name) == ["All", "Calm"])
        #expect(box.appliance.chooseStation(.next) == nil)
        #expect(box.player.take().contains { $0.hasPrefix("start \(box.stickID("A")) Calm") })
        #expect(box.library.calls.contains("station Calm \(box.stickID("A"))"))
        box.playerSays(.stationEmpty("Calm"))
        #expect(box.player.take().contains { $0.hasPrefix("start \(box.stickID("A")) -") })
        #expect(box.library.calls.last == "station - \(box.stickID("A"))")
    }

    @Test func aPulledStickStopsThePlayerAndTheBoxWaits() throws {
        let box = try ApplianceHarness()
        try box.playing("A")
        _ = box.player.take()
        try box.pull("A")
        #expect(box.player.take() == ["stop"])
        #expect(box.state == .noLibrary)
    }
}
