#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random access to the bytes of one file, from memory or through `pread(2)` on an open descriptor.
///
/// Reads are clamped to the end of the file and to `maxRead`, and never trap: a read past the end
/// (or longer than `maxRead`) yields fewer bytes (or none). Every length a reader takes from the file
/// is untrusted, and a sparse file can be as large as it claims, so `maxRead` is what bounds the
/// memory one probe can take, whatever the file says. File reads go through a small block cache, so
/// walking MPEG frame headers costs one system call per block rather than one per frame.
final class ByteSource {
    /// Where the bytes come from.
    private enum Backing {
        case memory([UInt8])
        case file(fd: Int32)
    }

    /// Size of one cached block of a file.
    private static let blockSize = 32 * 1024
    /// The most bytes one read returns (the biggest text frame or tag prefix a reader wants).
    static let maxRead = 1024 * 1024

    private let backing: Backing
    /// Total size in bytes.
    let count: Int
    /// The first I/O error met (an `errno` value), if any; reads after one return short.
    private(set) var ioError: Int32?
    /// Two cached blocks, the one used last first: a probe goes back and forth between the head of a file and
    /// its tail (tags at both ends, a Xing header and the last frames), and one block would be read again
    /// at every turn.
    private var cacheStarts = [-1, -1]
    private var caches: [[UInt8]] = [[], []]
    /// The block holding the last position asked for.
    private var cacheStart: Int { cacheStarts[0] }
    private var cache: [UInt8] { caches[0] }
    /// The longest read asked of the file or memory so far, after clamping (for tests).
    private(set) var largestRead = 0
    /// Bytes fetched from the file (or copied from memory) so far (for tests).
    private(set) var totalRead = 0
    /// The most bytes of a stream a frame walk reads before it estimates the rest from what it counted
    /// (`MPEGStreamScanner`, `ADTSProbe`). The index's first probe keeps it small, so that no file holds the
    /// indexer for long; the background pass that refines estimates lifts it (`MediaProbe.probeInFull`).
    var walkBudget = ByteSource.defaultWalkBudget
    /// A 10-minute 192 kbit/s MP3 is 14 MB: walked in full at the first probe.
    static let defaultWalkBudget = 24 * 1024 * 1024
    /// Asked before every read from the file; once it answers true, reads return nothing (as after an I/O
    /// error) and `wasCancelled` is set, so a long walk stops within one block.
    var isCancelled: (() -> Bool)?
    /// Whether a read was refused because `isCancelled` said stop.
    private(set) var wasCancelled = false

    /// Wraps bytes in memory.
    init(bytes: [UInt8]) {
        backing = .memory(bytes)
        count = bytes.count
    }

    /// Wraps an open descriptor of a file holding `size` bytes (the caller keeps ownership of `fd`).
    init(fd: Int32, size: Int) {
        backing = .file(fd: fd)
        count = max(0, size)
    }

    /// Up to `length` bytes starting at `offset`; fewer at the end of the file, on an I/O error, or
    /// when `length` is over `maxRead`.
    func bytes(at offset: Int, count length: Int) -> [UInt8] {
        guard offset >= 0, length > 0, offset < count else { return [] }
        let end = offset + min(length, count - offset, Self.maxRead)
        largestRead = max(largestRead, end - offset)
        switch backing {
        case .memory(let all):
            totalRead += end - offset
            return Array(all[offset..<end])
        case .file(let fd):
            if end - offset > Self.blockSize { return readDirect(fd: fd, offset: offset, length: end - offset) }
            var out: [UInt8] = []
            out.reserveCapacity(end - offset)
            var position = offset
            while position < end {
                guard fill(fd: fd, containing: position) else { break }
                let available = min(end, cacheStart + cache.count)
                if available <= position { break }
                out.append(contentsOf: cache[(position - cacheStart)..<(available - cacheStart)])
                position = available
            }
            return out
        }
    }

    /// One byte at `offset`, or nil past the end.
    func byte(at offset: Int) -> UInt8? {
        let one = bytes(at: offset, count: 1)
        return one.first
    }

    /// A big-endian 32-bit value at `offset`, or nil when fewer than 4 bytes remain.
    func uint32BE(at offset: Int) -> UInt32? {
        let four = bytes(at: offset, count: 4)
        guard four.count == 4 else { return nil }
        return UInt32(four[0]) << 24 | UInt32(four[1]) << 16 | UInt32(four[2]) << 8 | UInt32(four[3])
    }

    /// Makes the cache hold the block containing `position`; false on an I/O error or at the end.
    private func fill(fd: Int32, containing position: Int) -> Bool {
        for slot in 0..<2 where cacheStarts[slot] >= 0 {
            guard position >= cacheStarts[slot], position < cacheStarts[slot] + caches[slot].count else { continue }
            if slot == 1 {
                cacheStarts.swapAt(0, 1)
                caches.swapAt(0, 1)
            }
            return true
        }
        let start = position - position % Self.blockSize
        let block = readDirect(fd: fd, offset: start, length: min(Self.blockSize, count - start))
        guard !block.isEmpty else { return false }
        cacheStarts = [start, cacheStarts[0]]
        caches = [block, caches[0]]
        return position < start + block.count
    }

    /// Reads with `pread`, retrying on EINTR and short reads; stops at the end or on an error.
    private func readDirect(fd: Int32, offset: Int, length: Int) -> [UInt8] {
        guard ioError == nil, !wasCancelled else { return [] }
        if let isCancelled, isCancelled() {
            wasCancelled = true
            return []
        }
        var out = [UInt8](repeating: 0, count: length)
        var done = 0
        out.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while done < length {
                let n = pread(fd, base + done, length - done, off_t(offset + done))
                if n > 0 {
                    done += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    ioError = errno
                    break
                }
            }
        }
        if done < length { out.removeSubrange(done...) }
        totalRead += done
        return out
    }
}
