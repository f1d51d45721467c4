// Waymark's view of libcurl (Debian's libcurl4-openssl-dev), zlib, zstd (libzstd-dev) and libmosquitto
// (libmosquitto-dev), loaded when a network sink first needs them rather than linked: libcurl brings some thirty
// libraries (OpenSSL, nghttp2, Kerberos, LDAP, ...) that an agent without uplinks would otherwise map and relocate
// at every start. The headers give the types; the functions come from dlopen(3) of the runtime libraries' sonames
// (loader.c, zstd.c, mosquitto.c).
//
// Swift cannot call variadic C functions (curl_easy_setopt, curl_easy_getinfo): the typed helpers do.
#ifndef WAYMARK_CUPLINK_H
#define WAYMARK_CUPLINK_H

#include <curl/curl.h>
#include <mosquitto.h>
#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>
#include <zstd.h>

/// Loads libcurl.so.4 and libz.so.1 once, and initializes libcurl; NULL when they are ready, else why not.
/// Thread-safe.
const char *waymark_uplink_library_open(void);

// Each call below needs waymark_uplink_library_open() to have returned NULL.

CURL *waymark_curl_init(void);
void waymark_curl_cleanup(CURL *handle);
CURLcode waymark_curl_perform(CURL *handle);
const char *waymark_curl_strerror(CURLcode code);
CURLcode waymark_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode waymark_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode waymark_curl_set_pointer(CURL *handle, CURLoption option, void *value);
/// A request body of `length` bytes at `bytes`, which must stay valid through the transfer.
CURLcode waymark_curl_set_body(CURL *handle, const void *bytes, long length);

/// A callback that takes the bytes of a response (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*waymark_curl_receiver)(char *bytes, size_t size, size_t count, void *context);
CURLcode waymark_curl_set_receiver(CURL *handle, CURLoption option, waymark_curl_receiver receiver);

/// A callback libcurl calls about once a second during a transfer; non-zero aborts it (CURLOPT_XFERINFOFUNCTION).
typedef int (*waymark_curl_progress)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                     curl_off_t upload_total, curl_off_t uploaded);
CURLcode waymark_curl_set_progress(CURL *handle, waymark_curl_progress progress, void *context);

CURLcode waymark_curl_set_headers(CURL *handle, struct curl_slist *headers);
struct curl_slist *waymark_curl_list_append(struct curl_slist *list, const char *text);
void waymark_curl_list_free(struct curl_slist *list);

/// The HTTP status of the last response, 0 when none came.
long waymark_curl_status(CURL *handle);
/// Bytes the last transfer sent and received, headers included.
void waymark_curl_wire_bytes(CURL *handle, long *sent, long *received);

/// gzip's framing around deflate (RFC 1952), at `level` (1 to 9).
int waymark_gzip_init(z_streamp stream, int level);
int waymark_gzip_deflate(z_streamp stream, int flush);
int waymark_gzip_end(z_streamp stream);

// zstd (zstd.c), for request bodies coded `Content-Encoding: zstd` (RFC 8878). Each call below but the first needs
// waymark_zstd_open() to have returned NULL.

/// Loads libzstd.so.1 once; NULL when it is ready, else why not. Thread-safe; needed only by a sink that codes its
/// bodies with zstd, so a board without libzstd1 runs every other coding.
const char *waymark_zstd_open(void);
/// The most `ZSTD_compress` writes for `length` bytes of input.
size_t waymark_zstd_bound(size_t length);
/// One zstd frame of `length` bytes at `bytes`, at `level` (1 to 19) with a 64 KB window and capped tables (about
/// 1.1 MB of memory whatever the level and the length), into `output` of `capacity` bytes: the frame's size, or an error code that waymark_zstd_is_error tells and waymark_zstd_error_name names.
size_t waymark_zstd_compress(void *output, size_t capacity, const void *bytes, size_t length, int level);
unsigned waymark_zstd_is_error(size_t code);
const char *waymark_zstd_error_name(size_t code);

// libmosquitto (mosquitto.c). Each call below but the first needs waymark_mosquitto_open() to have returned NULL.

/// Loads libmosquitto.so.1 once and initializes it; NULL when it is ready, else why not. Thread-safe.
const char *waymark_mosquitto_open(void);

/// A callback with a status or a message id: on_connect (CONNACK's code), on_disconnect (0 when asked for),
/// on_publish (the message's id, once its QoS flow completed).
typedef void (*waymark_mosquitto_status)(struct mosquitto *client, void *context, int value);
/// A callback with one line of libmosquitto's log (its level, the text).
typedef void (*waymark_mosquitto_log)(struct mosquitto *client, void *context, int level, const char *text);

struct mosquitto *waymark_mosquitto_new(const char *id, bool clean_session, void *context);
void waymark_mosquitto_destroy(struct mosquitto *client);
/// The pointer every callback gets as its `context`.
void waymark_mosquitto_set_context(struct mosquitto *client, void *context);
int waymark_mosquitto_use_mqtt311(struct mosquitto *client);
int waymark_mosquitto_credentials(struct mosquitto *client, const char *username, const char *password);
int waymark_mosquitto_will(struct mosquitto *client, const char *topic, int length, const void *payload, int qos,
                           bool retain);
int waymark_mosquitto_tls(struct mosquitto *client, const char *ca_file, const char *cert_file, const char *key_file);
int waymark_mosquitto_reconnect_delay(struct mosquitto *client, unsigned int delay, unsigned int delay_max);
int waymark_mosquitto_max_inflight(struct mosquitto *client, unsigned int count);
/// Starts connecting; the loop thread (waymark_mosquitto_loop_start) finishes it and reconnects after a loss.
int waymark_mosquitto_connect(struct mosquitto *client, const char *host, int port, int keepalive);
int waymark_mosquitto_disconnect(struct mosquitto *client);
int waymark_mosquitto_loop_start(struct mosquitto *client);
/// Ends the loop thread: after a DISCONNECT it ends by itself; `force` cancels it (a connect that hangs).
int waymark_mosquitto_loop_stop(struct mosquitto *client, bool force);
int waymark_mosquitto_publish(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload,
                              int qos, bool retain);
void waymark_mosquitto_callbacks(struct mosquitto *client, waymark_mosquitto_status on_connect,
                                 waymark_mosquitto_status on_disconnect, waymark_mosquitto_status on_publish,
                                 waymark_mosquitto_log on_log);
const char *waymark_mosquitto_strerror(int code);
const char *waymark_mosquitto_connack_string(int code);
/// A callback with one message received: its topic, payload and length, and whether it was retained.
typedef void (*waymark_mosquitto_message)(struct mosquitto *client, void *context, const char *topic,
                                          const void *payload, int length, bool retained);
/// Sets the message callback of `client` (one per process: the context tells clients apart).
void waymark_mosquitto_on_message(struct mosquitto *client, waymark_mosquitto_message on_message);
int waymark_mosquitto_subscribe(struct mosquitto *client, int *mid, const char *pattern, int qos);

#endif
