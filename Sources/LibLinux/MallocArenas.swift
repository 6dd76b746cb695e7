internal import CLinux

/// Process-wide limits on glibc's allocator.
public enum MallocArenas {
    /// Caps the number of malloc arenas (wraps `mallopt(M_ARENA_MAX, count)`); returns whether glibc took it.
    ///
    /// glibc gives threads that allocate at the same time arenas of their own (up to 8 per core), and
    /// memory freed in an arena stays with it. The indexer's probe threads each leave a few hundred KiB
    /// behind that way. Call it early, before those threads exist; arenas already made are kept.
    @discardableResult
    public static func limit(to count: Int32) -> Bool { mallopt(M_ARENA_MAX, count) == 1 }

    /// Gives every block of `bytes` or more a mapping of its own, for good (wraps
    /// `mallopt(M_MMAP_THRESHOLD, bytes)`); returns whether glibc took it.
    ///
    /// glibc starts at 128 KiB but raises the threshold to the size of each mapped block freed (up to
    /// 32 MiB), so after the first big array is freed (a catalog read, a dictionary of the voice) the next
    /// ones are carved out of the heap, where freeing them leaves holes the heap never gives back. Set,
    /// the threshold stays put: a big block freed goes back to the kernel at once.
    @discardableResult
    public static func mapBlocks(atLeast bytes: Int32) -> Bool { mallopt(M_MMAP_THRESHOLD, bytes) == 1 }

    /// Hands the free pages inside the heap back to the kernel (wraps `malloc_trim(0)`), not only those at
    /// its top as `free` does: for after a large structure was replaced by another built beside it. Walks the
    /// heap, a millisecond or so; returns whether any memory was released.
    @discardableResult
    public static func releaseFreePages() -> Bool { malloc_trim(0) == 1 }
}
