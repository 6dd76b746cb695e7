/// Writes the song-list lines of each place of `ids` that has a track, as `MPDBackend.writeSongs` does, from
/// a listing taken when the list was asked for.
public typealias MPDSongWriter = @Sendable (_ ids: ArraySlice<Int64>, _ tags: [MPDTag], _ out: inout MPDWriter) -> Void

/// A long song list sent a part at a time as the client reads it: a 100,000-track `playlistinfo` (some 28 MB
/// of lines) never sits in memory whole, its first bytes leave at once, and the event loop answers other
/// clients between the parts. The queue and the listing are the ones of the moment it was asked for, so the
/// places and ids agree with each other however the order changes meanwhile. `OK` follows the last song.
public struct MPDSongStream: Sendable, Equatable {
    /// The queue's ids (shared with the queue, not copied).
    public let ids: [Int64]
    /// The places still to send.
    public private(set) var remaining: Range<Int>
    let tags: [MPDTag]
    let write: MPDSongWriter

    /// The songs at `range` of `ids`.
    public init(ids: [Int64], range: Range<Int>, tags: [MPDTag], write: @escaping MPDSongWriter) {
        self.ids = ids
        remaining = range.clamped(to: ids.indices)
        self.tags = tags
        self.write = write
    }

    /// Whether every song has been written.
    public var isFinished: Bool { remaining.isEmpty }

    /// Writes the next songs into `out` until it holds at least `bytes` or the list is done.
    public mutating func write(into out: inout MPDWriter, upTo bytes: Int) {
        while !remaining.isEmpty && out.bytes.count < bytes {
            let part = remaining.lowerBound..<min(remaining.upperBound, remaining.lowerBound + 32)
            write(ids[part], tags, &out)
            remaining = part.upperBound..<remaining.upperBound
        }
    }

    /// The same list from the same place, with the same tags (the writer is not compared).
    public static func == (left: MPDSongStream, right: MPDSongStream) -> Bool {
        left.ids == right.ids && left.remaining == right.remaining && left.tags == right.tags
    }
}
