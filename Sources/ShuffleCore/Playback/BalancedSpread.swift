/// The balanced shuffle's arrangement of one cycle: uniformly random among the orders in which no two
/// tracks by the same artist are within `artistGap` places and none of the same album within `albumGap`
/// places, wherever the library allows it.
///
/// How: a pair of tracks too close is a *conflict*. Starting from a uniform shuffle, a repair pass swaps
/// conflicting tracks with random others until no conflict is left (or none can be removed); then a
/// Metropolis walk proposes swaps of two uniformly chosen places and keeps each one that adds no conflict.
/// The proposal is symmetric, so among the orders without conflicts the walk's stationary distribution is
/// uniform: every constrained order equally likely (`BalancedShuffleTests` checks it with a chi-square
/// over many seeds). Where the rules cannot all hold, the walk settles among the orders with the fewest
/// conflicts, so the spread degrades gracefully.
///
/// Relaxing for a dominant artist or album: with `c` of the cycle's `n` tracks, the rule for that artist
/// is at most `(n − 1) / (c − 1) − 1` places (the widest spacing its tracks can all keep in one cycle),
/// but never less than 1: an artist with half the stick alternates with everything else, one with more
/// than half is never next to itself more often than it has to be.
///
/// `context` is what was played just before (the end of the previous cycle, or the played part when
/// tracks arrive): those stay where they are but count as neighbours, so a cycle's first tracks are also
/// kept apart from the last ones heard.
public struct BalancedSpread: Sendable {
    private var ids: [TrackID]
    /// Dense artist and album numbers per place (-1: unknown, kept apart from nothing).
    private var artist: [Int32]
    private var album: [Int32]
    private var artistGap: [Int] = []
    private var albumGap: [Int] = []
    /// Places before `fixed` are the context.
    private let fixed: Int
    /// The widest gap of any artist or album: how far a place looks on each side.
    private var window = 0

    /// Prepares `tracks` (in the order given) to be arranged after `context`.
    public init(_ tracks: [TrackID], after context: [TrackID], groups: ShuffleGroups, settings: ShuffleSettings) {
        ids = context + tracks
        fixed = context.count
        artist = []
        album = []
        artist.reserveCapacity(ids.count)
        album.reserveCapacity(ids.count)
        var artistIndex: [UInt32: Int32] = [:]
        var albumIndex: [UInt32: Int32] = [:]
        var artistCount: [Int] = []
        var albumCount: [Int] = []
        let traits = ids.map { groups[$0] }
        // `ShuffleGroups` numbers artists and albums from 1 up: those numbers index the counts directly (a
        // dictionary lookup per track and trait cost more than the rest of a 100,000-track batch's set-up).
        // Numbers set by hand far beyond the tracks' count go through the dictionaries.
        let largest = traits.reduce(UInt32(0)) { max($0, $1.artist, $1.album) }
        if Int(largest) <= 4 * ids.count + 1024 {
            artistCount = Array(repeating: 0, count: Int(largest))
            albumCount = artistCount
            for (place, trait) in traits.enumerated() {
                let a = Int32(trait.artist) - 1
                let b = Int32(trait.album) - 1
                artist.append(a)
                album.append(b)
                guard place >= fixed else { continue }
                if a >= 0 { artistCount[Int(a)] += 1 }
                if b >= 0 { albumCount[Int(b)] += 1 }
            }
        } else {
            for (place, trait) in traits.enumerated() {
                artist.append(Self.dense(trait.artist, &artistIndex, &artistCount, counting: place >= fixed))
                album.append(Self.dense(trait.album, &albumIndex, &albumCount, counting: place >= fixed))
            }
        }
        let n = tracks.count
        artistGap = artistCount.map { Self.gap(rule: settings.artistGap, count: $0, of: n) }
        albumGap = albumCount.map { Self.gap(rule: settings.albumGap, count: $0, of: n) }
        window = max(artistGap.max() ?? 0, albumGap.max() ?? 0)
    }

    /// The rule for a group with `count` of the `n` tracks (see the type's notes).
    public static func gap(rule: Int, count: Int, of n: Int) -> Int {
        guard rule > 0 else { return 0 }
        guard count > 1 else { return rule }
        return max(1, min(rule, (n - 1) / (count - 1) - 1))
    }

    private static func dense(
        _ key: UInt32, _ index: inout [UInt32: Int32], _ counts: inout [Int], counting: Bool
    ) -> Int32 {
        guard key != 0 else { return -1 }
        let number: Int32
        if let known = index[key] {
            number = known
        } else {
            number = Int32(counts.count)
            index[key] = number
            counts.append(0)
        }
        if counting { counts[Int(number)] += 1 }
        return number
    }

    /// The tracks as arranged (without the context).
    public var arranged: [TrackID] { Array(ids[fixed...]) }

    /// How many pairs of places are too close (the context's own pairs included).
    public var conflicts: Int {
        var total = 0
        for place in ids.indices { total += conflicts(at: place) }
        return total / 2
    }

    // MARK: - Arranging

    /// A full arrangement: a uniform shuffle, the repair, then `standardSteps` of the walk.
    public static func arrange(
        _ tracks: [TrackID], after context: [TrackID], groups: ShuffleGroups, settings: ShuffleSettings,
        using random: inout SplitMix64
    ) -> [TrackID] {
        let start = BalancedSpread(tracks, after: context, groups: groups, settings: settings)
        // A repair can end in a local minimum of a tight library; a few fresh starts (more for a short
        // cycle, where they cost nothing) keep the one with the fewest conflicts. Only the start is chosen:
        // the walk that follows is what makes the result uniform.
        var best: BalancedSpread?
        var bestConflicts = Int.max
        for _ in 0..<(tracks.count <= 200 ? 12 : 2) {
            var spread = start
            spread.shuffle(using: &random)
            spread.repair(using: &random)
            let conflicts = spread.conflicts
            if conflicts < bestConflicts {
                best = spread
                bestConflicts = conflicts
            }
            if conflicts == 0 { break }
        }
        var spread = best ?? start
        spread.walk(steps: standardSteps(tracks.count), using: &random)
        return spread.arranged
    }

    /// The walk's length for `n` tracks: a few times n·log₂n proposals (random transpositions mix a
    /// permutation in about ½·n·ln n), at least 256.
    public static func standardSteps(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        let log2 = Int.bitWidth - (n - 1).leadingZeroBitCount
        return max(256, 3 * n * log2)
    }

    /// Shuffles the tracks (not the context) uniformly.
    public mutating func shuffle(using random: inout SplitMix64) {
        guard ids.count - fixed > 1 else { return }
        for place in stride(from: ids.count - 1, to: fixed, by: -1) {
            swapPlaces(place, Int.random(in: fixed...place, using: &random))
        }
    }

    /// Moves conflicting tracks: each one is tried against up to `tries` other places (from a random one on,
    /// so every place when the cycle is short) and swapped with the first that lowers the conflicts, else
    /// with the first that keeps them equal (to leave a plateau); a few passes.
    public mutating func repair(using random: inout SplitMix64, passes: Int = 6, tries: Int = 64) {
        let free = ids.count - fixed
        guard free > 1, window > 0 else { return }
        var remaining = conflicts
        for _ in 0..<passes where remaining > 0 {
            for place in fixed..<ids.count where conflicts(at: place) > 0 {
                let offset = Int.random(in: 0..<free, using: &random)
                var sideways: Int?
                var improved = false
                for step in 0..<min(tries, free) {
                    let other = fixed + (offset + step) % free
                    guard other != place else { continue }
                    let change = swapChange(place, other)
                    if change < 0 {
                        swapPlaces(place, other)
                        improved = true
                        break
                    }
                    if change == 0 && sideways == nil { sideways = other }
                }
                if !improved, let sideways { swapPlaces(place, sideways) }
            }
            // A pass that removed nothing will not be followed by one that does much: the rest are forced
            // (a dominant artist) or need the walk.
            let now = conflicts
            if now >= remaining { return }
            remaining = now
        }
    }

    /// The repair after tracks joined an arranged order: only the tracks at `places` (places in `arranged`)
    /// are moved, each tried against up to `tries` random places. Inserting a track only ever moves the others
    /// apart, so every new conflict involves a new track: the cost grows with the tracks that joined, not with
    /// the length of the order (the full `repair` counts the conflicts of every place on each pass).
    public mutating func repair(joined places: [Int], using random: inout SplitMix64, passes: Int = 6, tries: Int = 64)
    {
        let free = ids.count - fixed
        guard free > 1, window > 0 else { return }
        var moving = places.map { fixed + $0 }
        for _ in 0..<passes {
            var moved = false
            for index in moving.indices where conflicts(at: moving[index]) > 0 {
                let place = moving[index]
                let offset = Int.random(in: 0..<free, using: &random)
                var sideways: Int?
                var target: Int?
                for step in 0..<min(tries, free) {
                    let other = fixed + (offset + step) % free
                    guard other != place else { continue }
                    let change = swapChange(place, other)
                    if change < 0 {
                        target = other
                        break
                    }
                    if change == 0 && sideways == nil { sideways = other }
                }
                guard let other = target ?? sideways else { continue }
                swapPlaces(place, other)
                moved = moved || target != nil
                // The new track is at `other` now; a new track that was there (swapped in place) is at `place`.
                if let at = moving.firstIndex(of: other) { moving[at] = place }
                moving[index] = other
            }
            if !moved { return }
        }
    }

    /// How the conflicts would change if `first` and `second` swapped (nothing is changed).
    private mutating func swapChange(_ first: Int, _ second: Int) -> Int {
        if artist[first] == artist[second] && album[first] == album[second] { return 0 }
        let near = (first > second ? first - second : second - first) <= window
        let shared = near ? pairConflicts(first, second) : 0
        let before = conflicts(at: first) + conflicts(at: second) - shared
        swapPlaces(first, second)
        let after = conflicts(at: first) + conflicts(at: second) - shared
        swapPlaces(first, second)
        return after - before
    }

    /// `steps` proposals of the Metropolis walk: two uniformly chosen places swap unless that adds conflicts.
    public mutating func walk(steps: Int, using random: inout SplitMix64) {
        let free = ids.count - fixed
        guard free > 1 else { return }
        for _ in 0..<steps {
            let first = fixed + Int.random(in: 0..<free, using: &random)
            var second = fixed + Int.random(in: 0..<(free - 1), using: &random)
            if second >= first { second += 1 }
            _ = trySwap(first, second, keepEqual: true)
        }
    }

    // MARK: - Conflicts

    private func conflicts(at place: Int) -> Int {
        guard window > 0 else { return 0 }
        let ownArtist = artist[place]
        let ownAlbum = album[place]
        var total = 0
        let low = max(0, place - window)
        let high = min(ids.count - 1, place + window)
        for other in low...high where other != place {
            let distance = other > place ? other - place : place - other
            if ownArtist >= 0 && artist[other] == ownArtist && distance <= artistGap[Int(ownArtist)] { total += 1 }
            if ownAlbum >= 0 && album[other] == ownAlbum && distance <= albumGap[Int(ownAlbum)] { total += 1 }
        }
        return total
    }

    private func pairConflicts(_ first: Int, _ second: Int) -> Int {
        let distance = first > second ? first - second : second - first
        var total = 0
        let a = artist[first]
        if a >= 0 && artist[second] == a && distance <= artistGap[Int(a)] { total += 1 }
        let b = album[first]
        if b >= 0 && album[second] == b && distance <= albumGap[Int(b)] { total += 1 }
        return total
    }

    /// Swaps two places when that lowers the conflicts (or, with `keepEqual`, keeps them equal); returns
    /// whether it swapped.
    private mutating func trySwap(_ first: Int, _ second: Int, keepEqual: Bool) -> Bool {
        if artist[first] == artist[second] && album[first] == album[second] {
            if keepEqual { ids.swapAt(first, second) }  // same neighbours either way: no conflict changes
            return keepEqual
        }
        let near = (first > second ? first - second : second - first) <= window
        let shared = near ? pairConflicts(first, second) : 0
        let before = conflicts(at: first) + conflicts(at: second) - shared
        swapPlaces(first, second)
        let after = conflicts(at: first) + conflicts(at: second) - shared
        if after < before || (keepEqual && after == before) { return true }
        swapPlaces(first, second)
        return false
    }

    private mutating func swapPlaces(_ first: Int, _ second: Int) {
        ids.swapAt(first, second)
        artist.swapAt(first, second)
        album.swapAt(first, second)
    }
}
