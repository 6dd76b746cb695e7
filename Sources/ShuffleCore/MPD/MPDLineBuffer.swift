/// Splits a client's byte stream into request lines, refusing a line longer than `maxLength`.
public struct MPDLineBuffer: Sendable {
    /// MPD's own limit is a few KiB; a request longer than this is hostile or broken.
    public static let defaultMaxLength = 4096

    /// The longest line accepted, in bytes without the newline.
    public let maxLength: Int
    private var pending: [UInt8] = []

    /// Creates an empty buffer.
    public init(maxLength: Int = MPDLineBuffer.defaultMaxLength) {
        self.maxLength = maxLength
    }

    /// What the bytes received so far hold.
    public enum Chunk: Equatable, Sendable {
        /// A complete line, without its newline.
        case line([UInt8])
        /// A line grew past `maxLength`: answer with an error and close.
        case oversized
    }

    /// Appends `bytes` and returns every complete line, or `.oversized` (after which nothing more is returned).
    public mutating func append(_ bytes: some Collection<UInt8>) -> [Chunk] {
        pending.append(contentsOf: bytes)
        var chunks: [Chunk] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > maxLength {
                pending.removeAll()
                return chunks + [.oversized]
            }
            chunks.append(.line(Array(pending[start..<newline])))
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > maxLength {
            pending.removeAll()
            chunks.append(.oversized)
        }
        return chunks
    }
}
