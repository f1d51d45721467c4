// The Linux system calls Waymark uses that Swift's Glibc module does not declare (glibc declares them only
// under _GNU_SOURCE), small helpers over Linux calls (a thread's name, the clock's synchronization), and the
// Swift runtime's global-executor hooks. Nothing to link: they are in libc and the Swift runtime. WaymarkSystem
// is their Swift face.
#ifndef WAYMARK_CLINUX_SHIM_H
#define WAYMARK_CLINUX_SHIM_H

#include <fcntl.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <sys/timex.h>

/// `O_PATH`: a directory opened for the `*at` calls only, which needs no read permission on it. glibc's own
/// name for it is there without _GNU_SOURCE; its value on x86 and ARM otherwise.
#ifdef __O_PATH
#define WAYMARK_O_PATH __O_PATH
#else
#define WAYMARK_O_PATH 010000000
#endif

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// Swaps the files `first` and `second` of `directory` (a descriptor) atomically: `renameat2` with
/// `RENAME_EXCHANGE` (Linux 3.15 on; ext4, tmpfs, btrfs, xfs, f2fs), after which each name holds the other's
/// inode. 0 on success, else -1 and `errno` (EINVAL where the file system cannot, ENOENT when either is missing).
static inline int waymark_exchange(int directory, const char *first, const char *second) {
    return renameat2(directory, first, directory, second, 1 << 1);
}

/// Whether the kernel considers the system clock synchronized (NTP, PTP or a GPS time source has set it):
/// what `timedatectl` reports as "System clock synchronized". Reads only; never adjusts the clock.
static inline bool waymark_wall_clock_synchronized(void) {
    struct timex state;
    memset(&state, 0, sizeof state);
    int result = adjtimex(&state);
    return result != -1 && result != TIME_ERROR && (state.status & STA_UNSYNC) == 0;
}

/// Names the calling thread (Linux keeps 15 bytes), so `top -H` and /proc show what it is.
static inline void waymark_name_current_thread(const char *name) {
#ifdef PR_SET_NAME
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}

/// Caps glibc's malloc arenas at `count` (`mallopt(M_ARENA_MAX)`): 1 when the call succeeded, else 0.
static inline int waymark_limit_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

/// The Swift concurrency runtime's hook for its global executor: a function pointer the runtime calls, with
/// Swift's calling convention, with each global job instead of handing it to libdispatch; nil (the runtime's
/// start) leaves them to libdispatch. libswift_Concurrency exports it (shared and static alike) and no header
/// declares it; declared here as a plain pointer, set once to WaymarkSystem's `GlobalExecutor`'s thin Swift
/// function before the first job.
extern void *swift_task_enqueueGlobal_hook;

static inline void waymark_set_global_enqueue_hook(void *hook) {
    swift_task_enqueueGlobal_hook = hook;
}

#endif
