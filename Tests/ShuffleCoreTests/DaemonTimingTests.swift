import ShuffleCore
import Testing

/// The daemon's small decisions over time: the idle power-off, the shuffle's growth while indexing, a held
/// button's presses, the play time, and the station fallback.
@Suite struct DaemonTimingTests {
    static let t0: Duration = .seconds(50)

    @Test func theIdleDeadlineIsSetOnceOnBecomingIdleAndGoesWhenBusy() {
        var idle = IdlePowerOff()
        /// (state, seconds after t0, whether the deadline changed, the deadline after, in seconds after t0).
        let steps: [(DaemonState, Int, Bool, Int?)] = [
            (.paused, 0, true, 60),
            // Still idle later (another idle state): the deadline stays where it was.
            (.noLibrary, 30, false, 60),
            (.playing, 40, true, nil),
            (.paused, 45, true, 105),
        ]
        for (state, at, changes, deadline) in steps {
            let changed = idle.update(state: state, now: Self.t0 + .seconds(at), seconds: 60)
            #expect(changed == changes)
            #expect(idle.deadline == deadline.map { Self.t0 + .seconds($0) })
        }
    }

    @Test func theIdlePowerOffIsDueOnlyAtItsDeadlineAndOnce() {
        var idle = IdlePowerOff()
        idle.update(state: .paused, now: Self.t0, seconds: 10)
        var due: [Bool] = []
        for at in [9, 10, 11] { due.append(idle.isDue(now: Self.t0 + .seconds(at))) }
        #expect(due == [false, true, false])
    }

    @Test(arguments: [DaemonState.paused, .noLibrary, .playing, .indexing, .error("x")])
    func offMeansNoDeadlineInAnyState(state: DaemonState) {
        var idle = IdlePowerOff()
        idle.update(state: state, now: Self.t0, seconds: 0)
        #expect(idle.deadline == nil)
    }

    @Test func theShuffleGrowsAtMostEveryInterval() {
        var growth = GrowthThrottle(interval: .seconds(3))
        let times: [Int] = [0, 1, 2, 3, 4, 6, 7, 9]
        var grew: [Bool] = []
        for time in times { grew.append(growth.mayGrow(at: Self.t0 + .seconds(time))) }
        #expect(grew == [true, false, false, true, false, true, false, true])
    }

    @Test func aHeldButtonsRepeatsAreOnePressAndAPauseStartsAnother() {
        var grouping = PressGrouping(window: .milliseconds(400))
        let times: [Int] = [0, 150, 300, 450, 1_000, 1_150, 2_000]
        var presses: [UInt64] = []
        for time in times { presses.append(grouping.press(at: Self.t0 + .milliseconds(time))) }
        #expect(presses == [1, 1, 1, 1, 2, 2, 3])
    }

    @Test func thePlayTimeCountsOnlyStretchesOfPlaying() {
        var time = PlayTime()
        time.update(playing: true, now: Self.t0)
        #expect(time.total(now: Self.t0 + .seconds(5)) == .seconds(5))
        time.update(playing: false, now: Self.t0 + .seconds(10))
        time.update(playing: false, now: Self.t0 + .seconds(20))
        #expect(time.total(now: Self.t0 + .seconds(30)) == .seconds(10))
        time.update(playing: true, now: Self.t0 + .seconds(40))
        time.update(playing: true, now: Self.t0 + .seconds(41))
        #expect(time.total(now: Self.t0 + .seconds(42)) == .seconds(12))
    }

    @Test(arguments: [(0, nil), (1, 0), (5, 0)] as [(Int, Int?)])
    func anEmptyStationFallsBackToTheWholeStick(current: Int, instead: Int?) {
        #expect(StationFallback.instead(of: current) == instead)
    }
}
