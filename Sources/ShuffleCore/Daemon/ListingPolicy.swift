/// When the daemon reads a stick's listing (every playable song's tags, for clients: 2 MiB at 10,000 songs)
/// into memory. The rules keep it off the player's way and never hold two listings of one stick at once:
/// - read once the stick's first samples are out, not before: the player's own start-up reads come first
///   (a known stick resumes within ~200 ms), unless it starts paused;
/// - a known stick being indexed is read once its index run ends: the run holds what the database knew of
///   the stick's files while it looks them over, and the two are never in memory together;
/// - read again when an index run wrote to the index, or refined the lengths; not when it wrote nothing and
///   the listing is in memory or on its way;
/// - a stick that goes away lets go of its listing (it is read again when it is back).
public struct ListingPolicy: Sendable, Equatable {
    /// What the daemon does.
    public enum Effect: Sendable, Equatable {
        /// Read this stick's listing again, in the background; call `read(stick:)` once it is in.
        case read(String)
        /// Let go of this stick's listing (and of any read of it under way).
        case forget(String)
        /// A listing came in: tell clients the database and the queue changed.
        case notifyClients
    }

    /// The stick whose listing is read once its first track starts.
    public private(set) var wanted: String?
    /// The stick whose listing is read when its index run ends.
    public private(set) var afterIndex: String?
    /// The sticks whose listing is being read now.
    public private(set) var underWay: Set<String> = []

    /// Creates a policy with nothing pending.
    public init() {}

    /// `stick` started playing (`paused`: it starts paused, so no samples come to wait for).
    public mutating func playbackStarted(stick: String, paused: Bool) -> [Effect] {
        wanted = stick
        return paused ? read(stick) : []
    }

    /// The first samples of a track are out. `indexingKnown(stick)`: whether that stick is a known one whose
    /// index run is under way.
    public mutating func trackStarted(indexingKnown: (String) -> Bool) -> [Effect] {
        guard let stick = wanted else { return [] }
        wanted = nil
        if indexingKnown(stick) {
            afterIndex = stick
            return []
        }
        return read(stick)
    }

    /// `stick`'s index run ended; `changed`: it wrote to the index; `playing`: the stick is the one playing;
    /// `inMemory`: its listing is in memory.
    public mutating func indexFinished(stick: String, changed: Bool, playing: Bool, inMemory: Bool) -> [Effect] {
        guard playing else { return [] }
        let coming = wanted == stick || underWay.contains(stick)
        if afterIndex == stick {
            afterIndex = nil
            return read(stick)
        }
        return changed || (!coming && !inMemory) ? read(stick) : []
    }

    /// `stick`'s index run failed: a listing waiting for it is read now.
    public mutating func indexFailed(stick: String) -> [Effect] {
        guard afterIndex == stick else { return [] }
        afterIndex = nil
        return read(stick)
    }

    /// The lengths of `stick`'s songs were refined: clients see them once the listing is read again.
    public mutating func lengthsRefined(stick: String, playing: Bool) -> [Effect] {
        playing ? read(stick) : []
    }

    /// `stick` went away.
    public mutating func stickGone(_ stick: String) -> [Effect] {
        if afterIndex == stick { afterIndex = nil }
        return [.forget(stick)]
    }

    /// The read of `stick`'s listing is over.
    public mutating func read(stick: String) -> [Effect] {
        underWay.remove(stick)
        return [.notifyClients]
    }

    private mutating func read(_ stick: String) -> [Effect] {
        underWay.insert(stick)
        return [.read(stick)]
    }
}
