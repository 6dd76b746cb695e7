/// How a walk of a library tree (and an index run built on it) ended.
///
/// Only a complete walk may remove files from the index: a tree that was not fully read (a stick pulled
/// out mid-walk, I/O errors, a cancelled run) says nothing about the files it did not reach.
public enum WalkOutcome: Equatable, Sendable {
    /// Every folder entered was read to its end and the root is still the same folder on the same device.
    case complete
    /// The tree was not fully read; `reason` names the path and what failed, for a person.
    case incomplete(reason: String)
    /// The run was cancelled (the daemon saw the stick go) before it ended.
    case cancelled

    /// Whether this is `.complete`.
    public var isComplete: Bool { self == .complete }

    /// Keeps the first reason a run stopped short: a later problem is usually a consequence of the first.
    mutating func record(_ other: WalkOutcome) {
        if self == .complete { self = other }
    }
}
