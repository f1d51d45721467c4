// zstd for request bodies: dlopen(3) of libzstd.so.1 when a sink first codes a body with it, and the typed doors to
// the few functions Waymark calls (CUplink.h).
#include "CUplink.h"

#include <dlfcn.h>
#include <pthread.h>

/// The functions Waymark calls, found in libzstd.so.1.
struct waymark_zstd_library {
    size_t (*compress)(void *output, size_t capacity, const void *bytes, size_t length, int level);
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
    *(void **)(&waymark_zstd_loaded.compress) = dlsym(zstd, "ZSTD_compress");
    *(void **)(&waymark_zstd_loaded.bound) = dlsym(zstd, "ZSTD_compressBound");
    *(void **)(&waymark_zstd_loaded.is_error) = dlsym(zstd, "ZSTD_isError");
    *(void **)(&waymark_zstd_loaded.error_name) = dlsym(zstd, "ZSTD_getErrorName");
    if (waymark_zstd_loaded.compress == NULL || waymark_zstd_loaded.bound == NULL ||
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

size_t waymark_zstd_compress(void *output, size_t capacity, const void *bytes, size_t length, int level) {
    return waymark_zstd_loaded.compress(output, capacity, bytes, length, level);
}

unsigned waymark_zstd_is_error(size_t code) { return waymark_zstd_loaded.is_error(code); }

const char *waymark_zstd_error_name(size_t code) { return waymark_zstd_loaded.error_name(code); }
