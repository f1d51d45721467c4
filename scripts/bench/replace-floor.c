// The kernel's floor for one rewrite of a textfile as the agent's ReplacedFile does it, on a tmpfs: the spare's
// name checked (fstatat), the new text written into it (pwrite), the two names exchanged (renameat2
// RENAME_EXCHANGE), with nothing in the caches, as after 15 s of driving: 32 MB are touched and the CPU idles
// 200 ms before each write. Prints the median and the mean of the writes' thread CPU time.
//
//   cc -O2 -o replace-floor replace-floor.c && ./replace-floor [WRITES] [BYTES]     (defaults: 60 and 7000)
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long thread_cpu_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int ascending(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int writes = argc > 1 ? atoi(argv[1]) : 60;
    size_t bytes = argc > 2 ? (size_t)atol(argv[2]) : 7000;
    if (writes < 1 || writes > 10000 || bytes < 1) return 2;
    char directory_path[] = "/dev/shm/replace-floor-XXXXXX";
    if (!mkdtemp(directory_path)) return perror("mkdtemp"), 1;
    int directory = open(directory_path, O_PATH | O_DIRECTORY);
    int file = openat(directory, "m.prom", O_RDWR | O_CREAT, 0644);
    int spare = openat(directory, "m.prom.spare", O_RDWR | O_CREAT, 0644);
    char *text = malloc(bytes);
    volatile char *cache = malloc(32 << 20);  // volatile: the compiler keeps the stores that empty the caches
    long long *cost = malloc(sizeof *cost * (size_t)writes), total = 0;
    if (directory < 0 || file < 0 || spare < 0 || !text || !cache || !cost) return perror("setup"), 1;
    memset(text, 'x', bytes);
    for (size_t k = 0; k < (32 << 20); k++) cache[k] = 0;
    for (int i = 0; i < writes; i++) {
        for (size_t k = 0; k < (32 << 20); k += 64) cache[k] += 1;
        usleep(200000);
        long long start = thread_cpu_ns();
        struct stat status;
        if (fstatat(directory, "m.prom.spare", &status, AT_SYMLINK_NOFOLLOW) != 0 ||
            pwrite(spare, text, bytes, 0) != (ssize_t)bytes ||
            renameat2(directory, "m.prom.spare", directory, "m.prom", RENAME_EXCHANGE) != 0)
            return perror("write"), 1;
        cost[i] = thread_cpu_ns() - start;
        total += cost[i];
        int swap = file;
        file = spare;
        spare = swap;
    }
    qsort(cost, (size_t)writes, sizeof *cost, ascending);
    printf("kernel floor of one atomic rewrite of %zu bytes on a tmpfs, caches cold: median %.1f µs, mean %.1f µs "
           "over %d writes\n", bytes, cost[writes / 2] / 1000.0, total / 1000.0 / writes, writes);
    unlinkat(directory, "m.prom", 0);
    unlinkat(directory, "m.prom.spare", 0);
    rmdir(directory_path);
    return 0;
}
