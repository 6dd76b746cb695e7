import ShuffleCore
import Testing

@Suite struct ShuffleOrderTests {
    let tracks = (1...12).map { TrackID(Int64($0)) }

    /// Plays `order` to the end of its cycle and returns the tracks in the order they came.
    func playCycle(_ order: inout ShuffleOrder) -> [TrackID] {
        var played: [TrackID] = []
        while let track = order.current {
            played.append(track)
            order.advance()
        }
        return played
    }

    @Test(arguments: [0, 1, 2, 99, 12345] as [UInt64])
    func everyCyclePlaysEveryTrackExactlyOnce(seed: UInt64) {
        var order = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: seed))
        for _ in 0..<20 {
            let played = playCycle(&order)
            #expect(played.sorted() == tracks)
            order.startNewCycle(avoidingFirst: played.last)
        }
    }

    @Test func theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
        let first = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: 42)).order
        let again = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: 42)).order
        let other = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: 43)).order
        #expect(first == again)
        #expect(first != other)
        #expect(first != tracks, "shuffled, not the library order")
    }

    @Test func theNextCycleNeverBeginsWithTheTrackThatJustEnded() {
        for seed in 0..<500 as Range<UInt64> {
            var order = ShuffleOrder(tracks: Array(tracks.prefix(3)), random: SplitMix64(seed: seed))
            let played = playCycle(&order)
            order.startNewCycle(avoidingFirst: played.last)
            #expect(order.current != played.last)
            #expect(order.order.sorted() == Array(tracks.prefix(3)))
        }
    }

    @Test func aOneTrackLibraryRepeatsItsOnlyTrack() {
        var order = ShuffleOrder(tracks: [TrackID(7)], random: SplitMix64(seed: 1))
        order.advance()
        order.startNewCycle(avoidingFirst: TrackID(7))
        #expect(order.current == TrackID(7))
    }

    @Test func eachTrackIsEquallyLikelyInEachPlace() {
        // 3 tracks, 30 000 shuffles: every (place, track) count near 10 000. Deterministic (fixed seed).
        var counts = [[Int]](repeating: [0, 0, 0], count: 3)
        var random = SplitMix64(seed: 2024)
        for _ in 0..<30_000 {
            let order = ShuffleOrder(tracks: Array(tracks.prefix(3)), random: SplitMix64(seed: random.next())).order
            for (place, track) in order.enumerated() { counts[place][Int(track.rawValue) - 1] += 1 }
        }
        for row in counts { for count in row { #expect((9_500...10_500).contains(count), "\(counts)") } }
    }

    @Test func tracksAddedMidCycleJoinOnlyTheUnplayedPartAndEveryTrackStillPlaysOnce() {
        for seed in 0..<50 as Range<UInt64> {
            var order = ShuffleOrder(tracks: Array(tracks.prefix(6)), random: SplitMix64(seed: seed))
            var played = [order.current!]
            played.append(order.advance()!)
            played.append(order.advance()!)
            let added = Array(tracks.suffix(6))
            order.insert(added)
            #expect(Array(order.order.prefix(3)) == played, "the played part is untouched")
            #expect(order.current == played.last, "the current track stays current")
            order.advance()
            played += playCycle(&order)
            #expect(played.sorted() == tracks)
        }
    }

    @Test func newTracksLandAnywhereInTheUnplayedPartIncludingNextAndLast() {
        var firstPlaces = Set<Int>()
        for seed in 0..<200 as Range<UInt64> {
            var order = ShuffleOrder(tracks: Array(tracks.prefix(4)), random: SplitMix64(seed: seed))
            order.advance()
            order.insert([TrackID(99)])
            firstPlaces.insert(order.order.firstIndex(of: TrackID(99))!)
        }
        #expect(firstPlaces == Set(2...4))
    }

    @Test func removedTracksLeaveTheOrderAndTheCursorStaysOnTheCurrentTrack() {
        var order = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: 8))
        order.advance()
        order.advance()
        let current = order.current!
        let before = Set(order.order.prefix(2))
        let removedCurrent = order.remove(before)
        #expect(!removedCurrent)
        #expect(order.current == current)
        #expect(order.order.count == tracks.count - 2)
    }

    @Test func removingTheCurrentTrackMovesToTheOneAfterIt() {
        var order = ShuffleOrder(tracks: tracks, random: SplitMix64(seed: 8))
        order.advance()
        let following = order.upcoming
        let removed = order.remove([order.current!])
        #expect(removed)
        #expect(order.current == following)
    }

    @Test func restoringReconcilesWithTheLibraryWithoutRestartingTheCycle() {
        let stored: [TrackID] = [5, 3, 9, 1].map { TrackID(Int64($0)) }
        let library: [TrackID] = [1, 3, 5, 7, 8].map { TrackID(Int64($0)) }
        let order = ShuffleOrder(restoring: stored, cursor: 1, library: library, random: SplitMix64(seed: 3))
        #expect(order.current == TrackID(3))
        #expect(Array(order.order.prefix(2)) == [TrackID(5), TrackID(3)])
        #expect(order.order.sorted() == library)
    }

    @Test func restoringAFinishedCycleStartsANewOneNotBeginningWithTheLastTrack() {
        let stored: [TrackID] = [2, 1].map { TrackID(Int64($0)) }
        for seed in 0..<50 as Range<UInt64> {
            let order = ShuffleOrder(restoring: stored, cursor: 2, library: stored, random: SplitMix64(seed: seed))
            #expect(order.cursor == 0)
            #expect(order.current == TrackID(2))
        }
    }
}
