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
}
