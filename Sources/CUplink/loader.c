// The loader behind CUplink.h: dlopen(3) of libcurl and zlib at the first network sink, and the typed doors to
// their functions.
#include "CUplink.h"

#include <dlfcn.h>
#include <pthread.h>

/// The functions Waymark calls, found in the loaded libraries.
struct waymark_uplink_library {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *handle);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    int (*deflate_init2)(z_streamp stream, int level, int method, int window_bits, int memory_level, int strategy,
                         const char *version, int stream_size);
    int (*deflate)(z_streamp stream, int flush);
    int (*deflate_end)(z_streamp stream);
    /// Why the libraries could not be loaded; NULL once they are.
    const char *failure;
};

static struct waymark_uplink_library waymark_uplink_library_loaded;
static pthread_once_t waymark_uplink_library_once = PTHREAD_ONCE_INIT;

#define WAYMARK_FIND(handle, field, name)                                                                       \
    do {                                                                                                          \
        *(void **)(&waymark_uplink_library_loaded.field) = dlsym(handle, name);                                   \
        if (waymark_uplink_library_loaded.field == NULL) {                                                        \
            waymark_uplink_library_loaded.failure = "a function is missing from libcurl.so.4 or libz.so.1";       \
            return;                                                                                               \
        }                                                                                                         \
    } while (0)

static void waymark_uplink_library_load(void) {
    void *curl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (curl == NULL) {
        waymark_uplink_library_loaded.failure = "libcurl.so.4 cannot be loaded (apt install libcurl4)";
        return;
    }
    void *zlib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (zlib == NULL) {
        waymark_uplink_library_loaded.failure = "libz.so.1 cannot be loaded (apt install zlib1g)";
        return;
    }
    WAYMARK_FIND(curl, global_init, "curl_global_init");
    WAYMARK_FIND(curl, easy_init, "curl_easy_init");
    WAYMARK_FIND(curl, easy_setopt, "curl_easy_setopt");
    WAYMARK_FIND(curl, easy_getinfo, "curl_easy_getinfo");
    WAYMARK_FIND(curl, easy_perform, "curl_easy_perform");
    WAYMARK_FIND(curl, easy_cleanup, "curl_easy_cleanup");
    WAYMARK_FIND(curl, easy_strerror, "curl_easy_strerror");
    WAYMARK_FIND(curl, slist_append, "curl_slist_append");
    WAYMARK_FIND(curl, slist_free_all, "curl_slist_free_all");
    WAYMARK_FIND(zlib, deflate_init2, "deflateInit2_");
    WAYMARK_FIND(zlib, deflate, "deflate");
    WAYMARK_FIND(zlib, deflate_end, "deflateEnd");
    // Once, before any handle and before other threads use libcurl (curl_global_init is not thread-safe in
    // libcurl 7.88); pthread_once makes the first caller do it.
    CURLcode code = waymark_uplink_library_loaded.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        waymark_uplink_library_loaded.failure = "curl_global_init failed";
        return;
    }
    waymark_uplink_library_loaded.failure = NULL;
}

#undef WAYMARK_FIND

const char *waymark_uplink_library_open(void) {
    pthread_once(&waymark_uplink_library_once, waymark_uplink_library_load);
    return waymark_uplink_library_loaded.failure;
}

CURL *waymark_curl_init(void) { return waymark_uplink_library_loaded.easy_init(); }

void waymark_curl_cleanup(CURL *handle) { waymark_uplink_library_loaded.easy_cleanup(handle); }

CURLcode waymark_curl_perform(CURL *handle) { return waymark_uplink_library_loaded.easy_perform(handle); }

const char *waymark_curl_strerror(CURLcode code) {
    return waymark_uplink_library_loaded.easy_strerror(code);
}

CURLcode waymark_curl_set_long(CURL *handle, CURLoption option, long value) {
    return waymark_uplink_library_loaded.easy_setopt(handle, option, value);
}

CURLcode waymark_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return waymark_uplink_library_loaded.easy_setopt(handle, option, value);
}

CURLcode waymark_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return waymark_uplink_library_loaded.easy_setopt(handle, option, value);
}

/// A request body of `length` bytes at `bytes`, which must stay valid through the transfer.
CURLcode waymark_curl_set_body(CURL *handle, const void *bytes, long length) {
    CURLcode code = waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_POSTFIELDS, bytes);
}

CURLcode waymark_curl_set_receiver(CURL *handle, CURLoption option, waymark_curl_receiver receiver) {
    return waymark_uplink_library_loaded.easy_setopt(handle, option, receiver);
}

CURLcode waymark_curl_set_progress(CURL *handle, waymark_curl_progress progress, void *context) {
    CURLcode code = waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
    if (code != CURLE_OK) return code;
    code = waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    if (code != CURLE_OK) return code;
    return waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

CURLcode waymark_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return waymark_uplink_library_loaded.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

struct curl_slist *waymark_curl_list_append(struct curl_slist *list, const char *text) {
    return waymark_uplink_library_loaded.slist_append(list, text);
}

void waymark_curl_list_free(struct curl_slist *list) { waymark_uplink_library_loaded.slist_free_all(list); }

/// The HTTP status of the last response, 0 when none came.
long waymark_curl_status(CURL *handle) {
    long status = 0;
    waymark_uplink_library_loaded.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

/// Bytes the last transfer sent and received, headers included.
void waymark_curl_wire_bytes(CURL *handle, long *sent, long *received) {
    curl_off_t upload = 0;
    long request = 0, header = 0;
    curl_off_t download = 0;
    waymark_uplink_library_loaded.easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &upload);
    waymark_uplink_library_loaded.easy_getinfo(handle, CURLINFO_REQUEST_SIZE, &request);
    waymark_uplink_library_loaded.easy_getinfo(handle, CURLINFO_HEADER_SIZE, &header);
    waymark_uplink_library_loaded.easy_getinfo(handle, CURLINFO_SIZE_DOWNLOAD_T, &download);
    *sent = (long)upload + request;
    *received = (long)download + header;
}

/// gzip's framing around deflate (RFC 1952), at `level` (1 to 9).
int waymark_gzip_init(z_streamp stream, int level) {
    return waymark_uplink_library_loaded.deflate_init2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                                       ZLIB_VERSION, (int)sizeof(z_stream));
}

int waymark_gzip_deflate(z_streamp stream, int flush) {
    return waymark_uplink_library_loaded.deflate(stream, flush);
}

int waymark_gzip_end(z_streamp stream) { return waymark_uplink_library_loaded.deflate_end(stream); }

