import ShuffleCore

/// One library root in the database: a USB stick, a card or a folder.
public struct VolumeRef: Hashable, Sendable {
    /// The row id.
    public let id: Int64
    /// The identity: a filesystem UUID, or "path:/absolute/root".
    public let key: String
    /// Where it was last seen.
    public let root: PathBytes

    /// Creates a reference.
    public init(id: Int64, key: String, root: PathBytes) {
        self.id = id
        self.key = key
        self.root = root
    }

    /// The key for a folder without a filesystem UUID: `path:` and its absolute real path.
    public static func pathKey(for absoluteRoot: PathBytes) -> String { "path:" + absoluteRoot.display }
}

/// Whether a file of the library plays.
public enum FileStatus: String, Sendable, Equatable {
    /// Playable: it has a track row.
    case ok
    /// Meant as audio but cannot be played; `reason` says why.
    case unplayable
    /// Sniffed and found not to be audio: remembered so a rescan does not read it again, never listed.
    case ignored
}

/// One row of `shufflebox list`: a file with its status and, when playable, its tags and duration.
public struct LibraryEntry: Equatable, Sendable {
    /// The track (file) id.
    public var id: TrackID
    /// The path relative to the volume root.
    public var path: PathBytes
    /// `ok` or `unplayable`.
    public var status: FileStatus
    /// Why the file is unplayable.
    public var reason: String?
    /// The tags (all nil when unplayable).
    public var tags: TagInfo
    /// The duration in milliseconds, when playable.
    public var durationMs: Int64?
    /// The stream's format, rate, channels, bit depth and length, when playable.
    public var stream: StreamInfo?
    /// The background scan's EBU R128 measurement, once made (`LibraryDatabase.setLoudness`).
    public var loudness: TrackLoudness?
    /// The file's modification time when indexed, in nanoseconds since 1970 (MPD's `Last-Modified`).
    public var modifiedNs: Int64?

    /// Creates an entry.
    public init(
        id: TrackID, path: PathBytes, status: FileStatus, reason: String?, tags: TagInfo, durationMs: Int64?,
        stream: StreamInfo? = nil, loudness: TrackLoudness? = nil, modifiedNs: Int64? = nil
    ) {
        self.id = id
        self.path = path
        self.status = status
        self.reason = reason
        self.tags = tags
        self.durationMs = durationMs
        self.stream = stream
        self.loudness = loudness
        self.modifiedNs = modifiedNs
    }
}

/// What one index run did.
public struct IndexSummary: Equatable, Sendable {
    /// Files seen by the walk (before ignoring by extension).
    public var filesSeen = 0
    /// New files now in the library (playable or unplayable).
    public var added = 0
    /// Known files whose size or modification time changed, read again.
    public var changed = 0
    /// Files found under a new path with the same size and time as a vanished one: kept their id.
    public var moved = 0
    /// Files gone from the tree, removed from the library.
    public var removed = 0
    /// Files read in this run (new, changed and moved ones).
    public var probed = 0
    /// Playable tracks in the library after the run.
    public var tracks = 0
    /// Unplayable files in the library after the run.
    public var unplayable = 0
    /// Whether the run wrote anything to the database.
    public var wroteAnything: Bool { added + changed + moved + removed > 0 || ignoredChanges > 0 }
    /// Non-audio files newly remembered or forgotten.
    public var ignoredChanges = 0
    /// Whether the run saw the whole tree and ran to its end. Anything else (the stick went away, a folder
    /// could not be read to its end, the run was cancelled) means nothing was removed from the index:
    /// what was added or changed is kept, and the next complete run brings the rest in step.
    public var outcome = WalkOutcome.complete
    /// Whether `outcome` is `.complete`.
    public var isComplete: Bool { outcome.isComplete }

    /// Creates an empty summary.
    public init() {}
}

/// Live counters while indexing, for a progress line.
public struct IndexProgress: Equatable, Sendable {
    /// Files seen by the walk so far.
    public var filesSeen: Int
    /// Files read (probed) and written so far.
    public var filesProbed: Int
    /// Files to read in total (known once the walk is done; 0 before).
    public var filesToProbe: Int
    /// Playable tracks in the library so far.
    public var tracks: Int
    /// Unplayable files so far.
    public var unplayable: Int

    /// Creates counters.
    public init(filesSeen: Int = 0, filesProbed: Int = 0, filesToProbe: Int = 0, tracks: Int = 0, unplayable: Int = 0) {
        self.filesSeen = filesSeen
        self.filesProbed = filesProbed
        self.filesToProbe = filesToProbe
        self.tracks = tracks
        self.unplayable = unplayable
    }
}
