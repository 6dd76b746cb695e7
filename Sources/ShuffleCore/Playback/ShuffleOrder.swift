/// The shuffle order of one library: every track once per cycle.
///
/// Rules (DESIGN.md, issues 3 and 13):
/// - a cycle is, by `settings.mode`: a uniform Fisher–Yates shuffle of every track (`shuffle`); uniform
///   among the orders that keep artists and albums apart (`balanced`, `BalancedSpread`; with no tags known
///   it is the plain shuffle); random albums, each in disc and track order (`albums`); path order
///   (`in-order`);
/// - the next cycle never begins with the track that just ended;
/// - tracks added later join the *unplayed* part of the order (after the cursor) at uniformly random places;
/// - removed tracks leave the order; the cycle never restarts because the library changed.
public struct ShuffleOrder: Sendable, Equatable {
    /// The order of the current cycle.
    public private(set) var order: [TrackID]
    /// Index of the current track in `order`; `order.count` means the cycle is over.
    public private(set) var cursor: Int
    private var random: SplitMix64
    /// The mode and the balanced shuffle's gaps.
    public let settings: ShuffleSettings
    /// Each track's artist, album and numbers, for every mode but `shuffle`.
    public private(set) var groups: ShuffleGroups

    /// Starts a fresh cycle over `tracks`.
    public init(
        tracks: [TrackID], random: SplitMix64, settings: ShuffleSettings = ShuffleSettings(),
        groups: ShuffleGroups = ShuffleGroups()
    ) {
        self.random = random
        self.settings = settings
        self.groups = groups
        order = []
        cursor = 0
        startNewCycle(over: tracks, avoidingFirst: nil)
    }

    /// Continues a stored cycle, brought in line with the library as it is now: tracks no longer there leave
    /// the order, new ones join its unplayed part. A stored cycle that was over (or empty) starts a new one.
    public init(
        restoring order: [TrackID], cursor: Int, library: [TrackID], random: SplitMix64,
        settings: ShuffleSettings = ShuffleSettings(), groups: ShuffleGroups = ShuffleGroups()
    ) {
        self.random = random
        self.settings = settings
        self.groups = groups
        self.order = order
        self.cursor = min(max(0, cursor), order.count)
        reconcile(with: library)
        if self.order.isEmpty || self.cursor >= self.order.count {
            let last = order.indices.contains(cursor - 1) ? order[cursor - 1] : nil
            startNewCycle(over: library, avoidingFirst: last)
        }
    }

    /// The current track, or nil when the cycle is over or the library is empty.
    public var current: TrackID? { order.indices.contains(cursor) ? order[cursor] : nil }

    /// The track after the current one in this cycle, or nil at the end of the cycle.
    public var upcoming: TrackID? { order.indices.contains(cursor + 1) ? order[cursor + 1] : nil }

    /// Whether the current track is the last of the cycle.
    public var isLastOfCycle: Bool { cursor >= order.count - 1 }

    // MARK: - Moving

    /// Moves to the next track of the cycle. Returns nil (and leaves the cursor after the end) when the
    /// cycle is over; `startNewCycle` then begins the next one.
    @discardableResult
    public mutating func advance() -> TrackID? {
        if cursor < order.count { cursor += 1 }
        return current
    }

    /// Moves back one track (staying on the first track of the cycle) and returns the current track.
    @discardableResult
    public mutating func back() -> TrackID? {
        if cursor > 0 { cursor -= 1 }
        return current
    }

    /// Moves to `position` of the cycle (a client's `play POS`); false when there is no such place.
    public mutating func jump(to position: Int) -> Bool {
        guard order.indices.contains(position) else { return false }
        cursor = position
        return true
    }

    /// Begins a new cycle: a fresh uniform shuffle of every track. When it would begin with `last` (the track
    /// that just ended) and there is another track, the first place is swapped with a uniformly chosen other
    /// place, which keeps the order uniform among those not beginning with `last`.
    public mutating func startNewCycle(avoidingFirst last: TrackID?) {
        startNewCycle(over: order, avoidingFirst: last)
    }

    private mutating func startNewCycle(over tracks: [TrackID], avoidingFirst last: TrackID?) {
        cursor = 0
        switch mode {
        case .shuffle:
            order = tracks
            order.shuffle(using: &random)
        case .balanced:
            var context: [TrackID] = []
            if let last, let end = order.firstIndex(of: last) {
                context = Array(order[max(0, end + 1 - spreadWindow)...end])
            }
            order = BalancedSpread.arrange(tracks, after: context, groups: groups, settings: settings, using: &random)
        case .albums:
            order = AlbumOrder.albums(tracks, groups: groups, avoiding: last, using: &random)
            return
        case .inOrder:
            order = AlbumOrder.inOrder(tracks, groups: groups)
            return
        }
        if order.count > 1, order[0] == last {
            let other = Int.random(in: 1..<order.count, using: &random)
            order.swapAt(0, other)
        }
    }

    /// The mode in effect: `balanced` with no tags known is the plain shuffle.
    private var mode: ShuffleMode {
        settings.mode == .balanced && groups.isEmpty ? .shuffle : settings.mode
    }

    /// How many tracks before a place the balanced shuffle looks at.
    private var spreadWindow: Int { max(settings.artistGap, settings.albumGap) }

    /// Replaces the tracks' traits (after a rescan); the order changes only as tracks join or leave it.
    public mutating func updateGroups(_ groups: ShuffleGroups) { self.groups = groups }

    // MARK: - Library changes

    /// Adds tracks the order does not hold yet, each at a uniformly random place after the cursor
    /// (inserting one at a time into the growing tail gives every interleaving the same chance).
    ///
    /// `balanced`: a batch at least a quarter of the unplayed part is arranged anew with it (the played tracks
    /// just before as neighbours); a smaller one joins at random places, then conflicts are repaired and the
    /// unplayed part walked a little, so tracks arriving while indexing keep the spread where they can. The
    /// repair moves only the tracks that joined (`BalancedSpread.repair(joined:using:)`), and the walk after it
    /// takes 4·k·log₂n proposals for k tracks joining n: it stirs the places around the new tracks, where
    /// mixing the whole order would take n·log n whatever k is (`ShuffleboxBench shuffle` measures both).
    /// `albums` and `in-order`: see `AlbumOrder`.
    public mutating func insert(_ tracks: [TrackID]) {
        var known = Set(order)
        let new = tracks.filter { known.insert($0).inserted }
        guard !new.isEmpty else { return }
        switch mode {
        case .shuffle:
            insertAtRandom(new)
        case .balanced:
            let start = min(cursor + 1, order.count)
            let context = Array(order[max(0, start - spreadWindow)..<start])
            let unplayed = Array(order[start...])
            if new.count * 4 >= unplayed.count + new.count {
                order =
                    Array(order[..<start])
                    + BalancedSpread.arrange(
                        unplayed + new, after: context, groups: groups, settings: settings, using: &random)
            } else {
                insertAtRandom(new)
                let joined = Set(new)
                let places = order[start...].indices.filter { joined.contains(order[$0]) }.map { $0 - start }
                var spread = BalancedSpread(
                    Array(order[start...]), after: context, groups: groups, settings: settings)
                spread.repair(joined: places, using: &random)
                let log2 = Int.bitWidth - max(1, order.count - start).leadingZeroBitCount
                spread.walk(steps: 4 * new.count * log2, using: &random)
                order = Array(order[..<start]) + spread.arranged
            }
        case .albums:
            AlbumOrder.insertAlbums(new, into: &order, cursor: cursor, groups: groups, using: &random)
        case .inOrder:
            AlbumOrder.insertInOrder(new, into: &order, cursor: cursor, groups: groups)
        }
    }

    private mutating func insertAtRandom(_ new: [TrackID]) {
        for track in new {
            let first = min(cursor + 1, order.count)
            let place = Int.random(in: first...order.count, using: &random)
            order.insert(track, at: place)
        }
    }

    /// Removes `tracks` from the order. When the current track is removed, the cursor then points at the
    /// track that followed it (or past the end). Returns whether the current track was among them.
    @discardableResult
    public mutating func remove(_ tracks: Set<TrackID>) -> Bool {
        guard !tracks.isEmpty else { return false }
        let currentRemoved = current.map { tracks.contains($0) } ?? false
        let before = order[..<min(cursor, order.count)].filter { tracks.contains($0) }.count
        order.removeAll { tracks.contains($0) }
        cursor = min(cursor - before, order.count)
        return currentRemoved
    }

    /// Brings the order in line with `library`: missing tracks leave, new ones join the unplayed part.
    /// Returns whether the current track left.
    @discardableResult
    public mutating func reconcile(with library: [TrackID]) -> Bool {
        let present = Set(library)
        let gone = Set(order.filter { !present.contains($0) })
        let removedCurrent = remove(gone)
        let inOrder = Set(order)  // once, not per track: this runs on every rescan of a 10,000-track stick
        insert(library.filter { !inOrder.contains($0) })
        return removedCurrent
    }
}
