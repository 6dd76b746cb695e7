import ShuffleCore
import Testing

/// A library described by artist and album numbers (1-based; 0 unknown), track ids 1...n.
struct ShapedLibrary {
    var ids: [TrackID] = []
    var groups = ShuffleGroups()

    mutating func add(artist: UInt32, album: UInt32, place: UInt32 = 0) {
        let id = TrackID(Int64(ids.count + 1))
        ids.append(id)
        groups.set(id, ShuffleTraits(artist: artist, album: album, albumPlace: place, pathRank: UInt32(ids.count)))
    }

    /// `shape`: one string per track, "A1" = artist A, album 1 (album numbers are per artist).
    init(_ shape: [String]) {
        for item in shape {
            let artist = UInt32(item.unicodeScalars.first!.value)
            let album = artist * 100 + (UInt32(item.dropFirst()) ?? 0)
            add(artist: artist, album: album)
        }
    }

    init() {}

    /// The issue's skewed library: 2,000 tracks on 200 albums of 10; one artist has 80 albums (40 %), the
    /// other 120 albums belong to 60 artists, two each.
    static func skewed() -> ShapedLibrary {
        var library = ShapedLibrary()
        for album in 0..<200 {
            let artist: UInt32 = album < 80 ? 1 : UInt32(2 + (album - 80) / 2)
            for track in 0..<10 { library.add(artist: artist, album: UInt32(album + 1), place: UInt32(track + 1)) }
        }
        return library
    }

    /// Pairs of tracks by the same artist closer than `artistGap` + 1 places, and of the same album
    /// closer than `albumGap` + 1, in `order` (checked here independently of `BalancedSpread`).
    func conflicts(_ order: [TrackID], artistGap: Int, albumGap: Int) -> Int {
        var total = 0
        for (i, a) in order.enumerated() {
            for j in (i + 1)..<min(order.count, i + 1 + max(artistGap, albumGap)) {
                let d = j - i
                let x = groups[a]
                let y = groups[order[j]]
                if x.artist != 0 && x.artist == y.artist && d <= artistGap { total += 1 }
                if x.album != 0 && x.album == y.album && d <= albumGap { total += 1 }
            }
        }
        return total
    }

    /// Neighbouring tracks by the same artist.
    func artistAdjacencies(_ order: [TrackID]) -> Int {
        zip(order, order.dropFirst()).filter { groups[$0.0].artist == groups[$0.1].artist }.count
    }

    /// The fewest same-artist neighbours any order can have: only an artist with more than half can be
    /// forced next to itself, `2c − n − 1` times.
    func minimumArtistAdjacencies() -> Int {
        var counts: [UInt32: Int] = [:]
        for id in ids { counts[groups[id].artist, default: 0] += 1 }
        return counts.values.map { max(0, 2 * $0 - ids.count - 1) }.max() ?? 0
    }
}

@Suite struct BalancedShuffleTests {
    func cycles(_ library: ShapedLibrary, _ settings: ShuffleSettings, seed: UInt64, count: Int) -> [[TrackID]] {
        var order = ShuffleOrder(
            tracks: library.ids, random: SplitMix64(seed: seed), settings: settings, groups: library.groups)
        var result: [[TrackID]] = []
        for _ in 0..<count {
            result.append(order.order)
            order.startNewCycle(avoidingFirst: order.order.last)
        }
        return result
    }

    /// (shape, artist gap, album gap): libraries where every rule can hold.
    static let feasible: [([String], Int, Int)] = [
        (["A1", "A1", "B1", "B1", "C1", "C1"], 1, 1),
        (["A1", "A1", "A2", "B1", "B1", "C1", "D1", "E1"], 2, 3),
        (["A1", "A1", "A1", "B1", "B1", "B1", "C1", "C1", "C1"], 2, 2),
        (["A1", "A2", "A3", "A4", "B1", "C1", "D1", "E1"], 1, 0),
        ((0..<40).map { "\(["A", "B", "C", "D", "E", "F", "G", "H"][$0 % 8])\($0 % 3)" }, 3, 6),
    ]

    @Test(arguments: feasible)
    func everyCycleHoldsEveryTrackOnceAndNoConflict(shape: [String], artistGap: Int, albumGap: Int) {
        let library = ShapedLibrary(shape)
        let settings = ShuffleSettings(mode: .balanced, artistGap: artistGap, albumGap: albumGap)
        let window = max(artistGap, albumGap)
        for seed in 0..<20 as Range<UInt64> {
            let all = cycles(library, settings, seed: seed, count: 3)
            #expect(library.conflicts(all[0], artistGap: artistGap, albumGap: albumGap) == 0, "seed \(seed)")
            for (earlier, cycle) in zip(all, all.dropFirst()) {
                #expect(cycle.sorted() == library.ids)
                // A later cycle also keeps apart from the end of the one before: a tight library may then
                // need one conflict, within the cycle or across the join.
                let context = Array(earlier.suffix(window))
                let added =
                    library.conflicts(context + cycle, artistGap: artistGap, albumGap: albumGap)
                    - library.conflicts(context, artistGap: artistGap, albumGap: albumGap)
                #expect(added <= 1, "seed \(seed)")
            }
        }
    }

    @Test func aNewCycleKeepsItsFirstTracksApartFromTheLastOnesHeard() {
        let library = ShapedLibrary(["A1", "A1", "B1", "B1", "C1", "C1", "D1", "D1"])
        for seed in 0..<30 as Range<UInt64> {
            let both = cycles(library, ShuffleSettings(mode: .balanced, artistGap: 2, albumGap: 0), seed: seed, count: 4)
            for (earlier, later) in zip(both, both.dropFirst()) {
                #expect(library.conflicts(earlier + later, artistGap: 2, albumGap: 0) == 0, "seed \(seed)")
                #expect(later.first != earlier.last)
            }
        }
    }

    @Test func anArtistWithHalfTheStickAlternatesAndOneWithMoreIsNextToItselfOnlyAsOftenAsItMust() {
        let half = ShapedLibrary(["A1", "A1", "A2", "A2", "A3", "B1", "C1", "D1", "E1", "F1"])
        let more = ShapedLibrary(["A1", "A1", "A2", "A2", "A3", "A3", "A4", "B1", "C1", "D1"])
        for seed in 0..<20 as Range<UInt64> {
            let settings = ShuffleSettings(mode: .balanced, artistGap: 3, albumGap: 0)
            for cycle in cycles(half, settings, seed: seed, count: 2) {
                #expect(half.artistAdjacencies(cycle) == 0)
            }
            // The first cycle reaches the minimum; a later one may give one place more to keep its first
            // track apart from the last one heard.
            let both = cycles(more, settings, seed: seed, count: 2)
            #expect(more.artistAdjacencies(both[0]) == more.minimumArtistAdjacencies())
            #expect(more.artistAdjacencies(both[1]) <= more.minimumArtistAdjacencies() + 1)
        }
        #expect(more.minimumArtistAdjacencies() == 3)
    }

    @Test func theGapOfADominantGroupIsRelaxedToWhatItsShareAllows() {
        #expect(BalancedSpread.gap(rule: 2, count: 800, of: 2000) == 1)
        #expect(BalancedSpread.gap(rule: 2, count: 10, of: 2000) == 2)
        #expect(BalancedSpread.gap(rule: 5, count: 3, of: 12) == 4)
        #expect(BalancedSpread.gap(rule: 3, count: 7, of: 10) == 1)
        #expect(BalancedSpread.gap(rule: 0, count: 1, of: 10) == 0)
    }

    @Test func everyConstrainedOrderIsAboutEquallyLikely() {
        // 7 tracks, no artist twice within 2 places, no album twice in a row: brute force finds every
        // valid order, then 60 draws per order on average (fixed seeds, so this is deterministic).
        let library = ShapedLibrary(["A1", "A1", "A2", "B1", "B1", "C1", "D1"])
        let settings = ShuffleSettings(mode: .balanced, artistGap: 2, albumGap: 1)
        var valid: Set<[TrackID]> = []
        func permute(_ prefix: [TrackID], _ rest: [TrackID]) {
            if rest.isEmpty {
                if library.conflicts(prefix, artistGap: 2, albumGap: 1) == 0 { valid.insert(prefix) }
                return
            }
            for (i, track) in rest.enumerated() {
                var others = rest
                others.remove(at: i)
                permute(prefix + [track], others)
            }
        }
        permute([], library.ids)
        #expect(valid.count > 50)
        let draws = 60 * valid.count
        var counts: [[TrackID]: Int] = [:]
        for seed in 0..<UInt64(draws) {
            let order = ShuffleOrder(
                tracks: library.ids, random: SplitMix64(seed: seed &* 0x9E37_79B9 &+ 11), settings: settings,
                groups: library.groups)
            counts[order.order, default: 0] += 1
        }
        #expect(Set(counts.keys).subtracting(valid).isEmpty, "nothing but valid orders")
        #expect(valid.subtracting(counts.keys).isEmpty, "every valid order drawn")
        let expected = Double(draws) / Double(valid.count)
        let chiSquare = valid.map { order in
            let seen = Double(counts[order] ?? 0)
            return (seen - expected) * (seen - expected) / expected
        }.reduce(0, +)
        let freedom = Double(valid.count - 1)
        print("uniformity: \(valid.count) valid orders, \(draws) draws, chi-square \(chiSquare) (df \(Int(freedom)))")
        // Mean df, standard deviation sqrt(2 df): 6 deviations is generous.
        #expect(chiSquare < freedom + 6 * (2 * freedom).squareRoot())
    }

    @Test func theSkewedLibraryHasNoSameArtistNeighboursBalancedAndManyPlain() {
        let library = ShapedLibrary.skewed()
        let minimum = library.minimumArtistAdjacencies()
        var plain: [Int] = []
        var balanced: [Int] = []
        var balancedConflicts: [Int] = []
        for seed in 1...2 as ClosedRange<UInt64> {
            for cycle in cycles(library, ShuffleSettings(mode: .shuffle), seed: seed, count: 2) {
                plain.append(library.artistAdjacencies(cycle))
            }
            for cycle in cycles(library, .standard, seed: seed, count: 2) {
                #expect(cycle.sorted() == library.ids)
                balanced.append(library.artistAdjacencies(cycle))
                balancedConflicts.append(library.conflicts(cycle, artistGap: 1, albumGap: 5))
            }
        }
        print(
            "skewed library (2000 tracks, 200 albums, one artist 40 %): same-artist neighbours per cycle: "
                + "plain \(plain), balanced \(balanced), theoretical minimum \(minimum); balanced album "
                + "conflicts within 5 places and artist neighbours: \(balancedConflicts)")
        #expect(balanced.allSatisfy { $0 == minimum })
        #expect(balancedConflicts.allSatisfy { $0 == 0 })
        #expect(plain.allSatisfy { $0 > 250 })
    }

    @Test func tracksArrivingFolderByFolderWhileIndexingStillSpreadOut() {
        // The indexer finds a stick folder by folder (album by album) in batches: the first track plays,
        // then batches arrive. The unplayed part keeps the rules once enough artists are known.
        let library = ShapedLibrary.skewed()
        var order = ShuffleOrder(
            tracks: [library.ids[0]], random: SplitMix64(seed: 5), settings: .standard, groups: library.groups)
        var played: [TrackID] = [library.ids[0]]
        var next = 1
        while next < library.ids.count {
            let batch = Array(library.ids[next..<min(next + 500, library.ids.count)])
            next += batch.count
            order.insert(batch)
            for _ in 0..<30 { if let track = order.advance() { played.append(track) } }
        }
        let rest = Array(order.order[(order.cursor + 1)...])
        #expect((played + rest).sorted() == library.ids)
        #expect(Set(played).count == played.count)
        let conflicts = library.conflicts(rest, artistGap: 1, albumGap: 5)
        print("arrivals: \(rest.count) unplayed tracks after 4 batches, \(conflicts) conflicts")
        #expect(conflicts == 0)
    }

    @Test func aStoredOrderIsRestoredAsItWasAndPreviousGoesBack() {
        let library = ShapedLibrary(["A1", "A1", "B1", "B1", "C1", "C1", "D1", "E1"])
        var order = ShuffleOrder(
            tracks: library.ids, random: SplitMix64(seed: 9), settings: .standard, groups: library.groups)
        order.advance()
        order.advance()
        let restored = ShuffleOrder(
            restoring: order.order, cursor: order.cursor, library: library.ids, random: SplitMix64(seed: 1),
            settings: .standard, groups: library.groups)
        #expect(restored.order == order.order)
        #expect(restored.current == order.current)
        var back = restored
        #expect(back.back() == order.order[1])
    }

    @Test func balancedWithNoTagsKnownIsThePlainShuffle() {
        let ids = (1...30).map { TrackID(Int64($0)) }
        let plain = ShuffleOrder(tracks: ids, random: SplitMix64(seed: 3))
        let balanced = ShuffleOrder(tracks: ids, random: SplitMix64(seed: 3), settings: .standard)
        #expect(plain.order == balanced.order)
    }

    @Test(arguments: [("shuffle", ShuffleMode.shuffle), ("balanced", .balanced), ("albums", .albums),
        ("in-order", .inOrder)])
    func modesParse(text: String, mode: ShuffleMode) {
        #expect(ShuffleMode(parsing: text) == mode)
        #expect(mode.rawValue == text)
    }

    @Test func unknownModesDoNotParse() {
        #expect(ShuffleMode(parsing: "random") == nil)
        #expect(ShuffleMode(parsing: "") == nil)
    }
}
