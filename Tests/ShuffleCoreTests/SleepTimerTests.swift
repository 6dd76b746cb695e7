import ShuffleCore
import Testing

/// The sleep timer: counting, the fade step by step, the pause after it, and everything that cancels it.
@Suite struct SleepTimerTests {
    static let t0: Duration = .seconds(100)

    /// A timer set for 60 s at `t0`.
    static func counting() -> SleepTimer {
        var timer = SleepTimer()
        _ = timer.set(seconds: 60, now: t0)
        return timer
    }

    @Test func settingItCountsDownAndSaysTheMinutes() {
        var timer = SleepTimer()
        let effects = timer.set(seconds: 90, now: Self.t0)
        #expect(effects == [.log(.notice, "sleep timer: the music fades out in 90 s"), .announce(minutes: 2)])
        #expect(timer.phase == .counting(until: Self.t0 + .seconds(90)))
        #expect(timer.deadline == Self.t0 + .seconds(90))
    }

    @Test func theFadeStepsTheLevelDownEvenlyThenPausesOnceSilent() {
        var timer = Self.counting()
        let end = Self.t0 + .seconds(60)
        // Level 3 over 30 s: steps 2, 1, 0 at 10, 20 and 30 s into the fade.
        #expect(
            timer.due(now: end, playing: true, level: 3, fade: .seconds(30), powerOff: false) == [
                .log(.notice, "sleep timer: fading out over 30.0 seconds")
            ])
        #expect(timer.deadline == end + .seconds(10))
        var heard: [SleepTimer.Effect] = []
        for second in [10, 20, 30] {
            heard += timer.due(
                now: end + .seconds(second), playing: true, level: 3, fade: .seconds(30), powerOff: false)
        }
        #expect(heard == [.setLevel(2), .setLevel(1), .setLevel(0)])
        #expect(timer.deadline == end + .seconds(30) + SleepTimer.pauseDelay)
        let last = timer.due(
            now: end + .seconds(30) + SleepTimer.pauseDelay, playing: true, level: 3, fade: .seconds(30),
            powerOff: false)
        #expect(last == [.log(.notice, "sleep timer: paused"), .pause, .restoreLevel])
        #expect(!timer.isRunning && timer.deadline == nil)
    }

    @Test func aLateCallCatchesUpEveryStepDueInOrder() {
        var timer = Self.counting()
        let end = Self.t0 + .seconds(60)
        // The fade starts when the countdown's deadline is handled, from the level then.
        #expect(timer.due(now: end, playing: true, level: 2, fade: .seconds(10), powerOff: true).count == 1)
        let effects = timer.due(now: end + .seconds(100), playing: true, level: 2, fade: .seconds(10), powerOff: true)
        #expect(
            effects == [
                .setLevel(1), .setLevel(0), .log(.notice, "sleep timer: paused"), .pause, .restoreLevel, .powerOff,
            ])
    }

    @Test func aPausedBoxHasNothingToFadeAndTheTimerEnds() {
        var timer = Self.counting()
        #expect(
            timer.due(now: Self.t0 + .seconds(60), playing: false, level: 5, fade: .seconds(30), powerOff: true) == [])
        #expect(!timer.isRunning)
    }

    @Test func atLevelZeroItPausesAfterThePlayOutDelay() {
        var timer = Self.counting()
        _ = timer.due(now: Self.t0 + .seconds(60), playing: true, level: 0, fade: .seconds(30), powerOff: false)
        #expect(timer.phase == .pausing(at: Self.t0 + .seconds(60) + SleepTimer.pauseDelay))
    }

    @Test func nothingHappensBeforeTheDeadline() {
        var timer = Self.counting()
        #expect(
            timer.due(now: Self.t0 + .seconds(59), playing: true, level: 5, fade: .seconds(30), powerOff: true) == [])
        #expect(timer.phase == .counting(until: Self.t0 + .seconds(60)))
    }

    /// (what happens while fading, effects, running after).
    @Test func anActionDuringTheFadeGivesTheLevelBackAndEndsIt() {
        var timer = Self.counting()
        _ = timer.due(now: Self.t0 + .seconds(60), playing: true, level: 4, fade: .seconds(8), powerOff: false)
        #expect(timer.interrupted() == [.restoreLevel, .log(.notice, "sleep timer: fade cancelled")])
        #expect(!timer.isRunning)
        // Counting, an action leaves it alone.
        var counting = Self.counting()
        #expect(counting.interrupted() == [])
        #expect(counting.isRunning)
    }

    @Test func anActionWhileThePauseIsPendingGivesTheLevelBack() {
        var timer = Self.counting()
        _ = timer.due(now: Self.t0 + .seconds(60), playing: true, level: 0, fade: .seconds(8), powerOff: false)
        #expect(timer.interrupted() == [.restoreLevel])
        #expect(!timer.isRunning)
    }

    @Test func theButtonTogglesAndCancellingIsSaid() {
        var timer = SleepTimer()
        #expect(timer.toggle(seconds: 600, now: Self.t0).contains(.announce(minutes: 10)))
        #expect(
            timer.toggle(seconds: 600, now: Self.t0) == [
                .log(.notice, "sleep timer cancelled"), .announce(minutes: nil),
            ])
        #expect(!timer.isRunning)
        // Cancelling a timer that does not run says nothing.
        #expect(timer.set(seconds: 0, now: Self.t0) == [])
    }

    @Test func settingItAgainDuringTheFadeCancelsTheFadeAndCountsAnew() {
        var timer = Self.counting()
        _ = timer.due(now: Self.t0 + .seconds(60), playing: true, level: 4, fade: .seconds(8), powerOff: false)
        let effects = timer.set(seconds: 120, now: Self.t0 + .seconds(61))
        #expect(effects.prefix(2) == [.restoreLevel, .log(.notice, "sleep timer: fade cancelled")])
        #expect(timer.phase == .counting(until: Self.t0 + .seconds(181)))
    }
}
