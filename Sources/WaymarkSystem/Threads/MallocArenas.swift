import CLinux

/// glibc's malloc arenas: by default up to eight per core, one more for each thread that meets another in
/// `malloc`, each keeping the memory its threads freed. The agent's few threads allocate little and seldom at the
/// same time; a single arena keeps what a board cannot reclaim (anonymous memory) to what is in use.
public enum MallocArenas {
    /// Caps the arenas at `count` for the threads that allocate from now on; call it before starting threads.
    /// Returns whether glibc took it.
    @discardableResult
    public static func limit(to count: Int32) -> Bool { waymark_limit_malloc_arenas(count) == 1 }
}
