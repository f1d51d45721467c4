// zstd for request bodies: dlopen(3) of libzstd.so.1 when a sink first codes a body with it, and the typed doors to
// the few functions Waymark calls (CUplink.h).
#include "CUplink.h"

#include <dlfcn.h>
#include <pthread.h>
#include <zstd_errors.h>

/// The functions Waymark calls, found in libzstd.so.1 (all in zstd's stable API since 1.4).
struct waymark_zstd_library {
    ZSTD_CCtx *(*create)(void);
    size_t (*free)(ZSTD_CCtx *context);
    size_t (*set)(ZSTD_CCtx *context, ZSTD_cParameter parameter, int value);
    size_t (*compress)(ZSTD_CCtx *context, void *output, size_t capacity, const void *bytes, size_t length);
    size_t (*bound)(size_t length);
    unsigned (*is_error)(size_t code);
    const char *(*error_name)(size_t code);
    /// Why the library could not be loaded; NULL once it is.
    const char *failure;
};

static struct waymark_zstd_library waymark_zstd_loaded;
static pthread_once_t waymark_zstd_once = PTHREAD_ONCE_INIT;

static void waymark_zstd_load(void) {
    void *zstd = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (zstd == NULL) {
        waymark_zstd_loaded.failure = "libzstd.so.1 cannot be loaded (apt install libzstd1)";
        return;
    }
    *(void **)(&waymark_zstd_loaded.create) = dlsym(zstd, "ZSTD_createCCtx");
    *(void **)(&waymark_zstd_loaded.free) = dlsym(zstd, "ZSTD_freeCCtx");
    *(void **)(&waymark_zstd_loaded.set) = dlsym(zstd, "ZSTD_CCtx_setParameter");
    *(void **)(&waymark_zstd_loaded.compress) = dlsym(zstd, "ZSTD_compress2");
    *(void **)(&waymark_zstd_loaded.bound) = dlsym(zstd, "ZSTD_compressBound");
    *(void **)(&waymark_zstd_loaded.is_error) = dlsym(zstd, "ZSTD_isError");
    *(void **)(&waymark_zstd_loaded.error_name) = dlsym(zstd, "ZSTD_getErrorName");
    if (waymark_zstd_loaded.create == NULL || waymark_zstd_loaded.free == NULL || waymark_zstd_loaded.set == NULL ||
        waymark_zstd_loaded.compress == NULL || waymark_zstd_loaded.bound == NULL ||
        waymark_zstd_loaded.is_error == NULL || waymark_zstd_loaded.error_name == NULL) {
        waymark_zstd_loaded.failure = "a function is missing from libzstd.so.1";
        return;
    }
    waymark_zstd_loaded.failure = NULL;
}

const char *waymark_zstd_open(void) {
    pthread_once(&waymark_zstd_once, waymark_zstd_load);
    return waymark_zstd_loaded.failure;
}

size_t waymark_zstd_bound(size_t length) { return waymark_zstd_loaded.bound(length); }

/// The window and match tables of every level are capped: a 64 KB window (a 5-minute deferral window of locations
/// at 1 Hz is about 70 KB of JSON Lines), 32 K hash and 64 K chain entries. Level 15's own tables, sized for a
/// 256 KB body, take 8.9 MB and for a 1 MB one 16.5 MB; capped, any body takes about 1.1 MB, for 0.6 % more bytes
/// (libzstd 1.5.4's ZSTD_sizeof_CCtx on the Regensburg drive's events).
size_t waymark_zstd_compress(void *output, size_t capacity, const void *bytes, size_t length, int level) {
    ZSTD_CCtx *context = waymark_zstd_loaded.create();
    if (context == NULL) return (size_t)-ZSTD_error_memory_allocation;
    size_t result = waymark_zstd_loaded.set(context, ZSTD_c_compressionLevel, level);
    if (!waymark_zstd_loaded.is_error(result)) result = waymark_zstd_loaded.set(context, ZSTD_c_windowLog, 16);
    if (!waymark_zstd_loaded.is_error(result)) result = waymark_zstd_loaded.set(context, ZSTD_c_hashLog, 15);
    if (!waymark_zstd_loaded.is_error(result)) result = waymark_zstd_loaded.set(context, ZSTD_c_chainLog, 16);
    if (!waymark_zstd_loaded.is_error(result)) {
        result = waymark_zstd_loaded.compress(context, output, capacity, bytes, length);
    }
    waymark_zstd_loaded.free(context);
    return result;
}

unsigned waymark_zstd_is_error(size_t code) { return waymark_zstd_loaded.is_error(code); }

const char *waymark_zstd_error_name(size_t code) { return waymark_zstd_loaded.error_name(code); }
