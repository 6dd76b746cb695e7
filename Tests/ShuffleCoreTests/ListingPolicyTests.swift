import ShuffleCore
import Testing

/// When a stick's listing is read and let go: never before the first samples, never two at once.
@Suite struct ListingPolicyTests {
    @Test func aStickPlayingIsReadOnceItsFirstSamplesAreOut() {
        var policy = ListingPolicy()
        #expect(policy.playbackStarted(stick: "A", paused: false) == [])
        #expect(policy.trackStarted { _ in false } == [.read("A")])
        // Later tracks read nothing more.
        #expect(policy.trackStarted { _ in false } == [])
        #expect(policy.read(stick: "A") == [.notifyClients])
        #expect(policy.underWay.isEmpty)
    }

    @Test func aStickStartingPausedIsReadAtOnce() {
        var policy = ListingPolicy()
        #expect(policy.playbackStarted(stick: "A", paused: true) == [.read("A")])
        #expect(policy.underWay == ["A"])
    }

    @Test func aKnownStickBeingIndexedIsReadWhenItsRunEnds() {
        var policy = ListingPolicy()
        _ = policy.playbackStarted(stick: "A", paused: false)
        #expect(policy.trackStarted { $0 == "A" } == [])
        #expect(policy.afterIndex == "A")
        // Even a run that wrote nothing reads it then.
        #expect(policy.indexFinished(stick: "A", changed: false, playing: true, inMemory: false) == [.read("A")])
        #expect(policy.afterIndex == nil)
    }

    @Test func aFailedRunStillReadsTheListingThatWaitedForIt() {
        var policy = ListingPolicy()
        _ = policy.playbackStarted(stick: "A", paused: false)
        _ = policy.trackStarted { _ in true }
        #expect(policy.indexFailed(stick: "B") == [])
        #expect(policy.indexFailed(stick: "A") == [.read("A")])
    }

    /// (changed, a read is coming, in memory, reads).
    @Test(arguments: [
        (true, false, true, true), (true, true, true, true), (false, false, false, true), (false, false, true, false),
        (false, true, false, false),
    ])
    func aFinishedRunReadsOnlyWhatItChangedOrWhatIsMissing(changed: Bool, coming: Bool, inMemory: Bool, reads: Bool) {
        var policy = ListingPolicy()
        if coming { _ = policy.playbackStarted(stick: "A", paused: false) }
        let effects = policy.indexFinished(stick: "A", changed: changed, playing: true, inMemory: inMemory)
        #expect(effects == (reads ? [.read("A")] : []))
    }

    @Test func aStickNotPlayingIsNeverRead() {
        var policy = ListingPolicy()
        #expect(policy.indexFinished(stick: "B", changed: true, playing: false, inMemory: false) == [])
        #expect(policy.lengthsRefined(stick: "B", playing: false) == [])
        #expect(policy.lengthsRefined(stick: "A", playing: true) == [.read("A")])
    }

    @Test func aStickThatGoesLetsGoOfItsListingAndOfTheReadWaitingForItsRun() {
        var policy = ListingPolicy()
        _ = policy.playbackStarted(stick: "A", paused: false)
        _ = policy.trackStarted { _ in true }
        #expect(policy.stickGone("A") == [.forget("A")])
        #expect(policy.afterIndex == nil)
        #expect(policy.indexFailed(stick: "A") == [])
    }
}
