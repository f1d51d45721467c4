// libmosquitto (Debian's libmosquitto1), loaded with dlopen(3) when the OwnTracks sink starts, as libcurl is in
// loader.c: an agent without MQTT maps neither it nor its OpenSSL.
#include "CUplink.h"

#include <dlfcn.h>
#include <pthread.h>

struct waymark_mosquitto_library {
    int (*lib_init)(void);
    struct mosquitto *(*create)(const char *id, bool clean_session, void *context);
    void (*destroy)(struct mosquitto *client);
    void (*user_data_set)(struct mosquitto *client, void *context);
    int (*int_option)(struct mosquitto *client, enum mosq_opt_t option, int value);
    int (*username_pw_set)(struct mosquitto *client, const char *username, const char *password);
    int (*will_set)(struct mosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain);
    int (*tls_set)(struct mosquitto *client, const char *ca_file, const char *ca_path, const char *cert_file,
                   const char *key_file, int (*password)(char *, int, int, void *));
    int (*reconnect_delay_set)(struct mosquitto *client, unsigned int delay, unsigned int delay_max, bool exponential);
    int (*max_inflight_messages_set)(struct mosquitto *client, unsigned int count);
    int (*connect_async)(struct mosquitto *client, const char *host, int port, int keepalive);
    int (*disconnect)(struct mosquitto *client);
    int (*loop_start)(struct mosquitto *client);
    int (*loop_stop)(struct mosquitto *client, bool force);
    int (*publish)(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload, int qos,
                   bool retain);
    void (*connect_callback_set)(struct mosquitto *client, void (*callback)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *client, void (*callback)(struct mosquitto *, void *, int));
    void (*publish_callback_set)(struct mosquitto *client, void (*callback)(struct mosquitto *, void *, int));
    void (*log_callback_set)(struct mosquitto *client, void (*callback)(struct mosquitto *, void *, int, const char *));
    const char *(*strerror)(int code);
    const char *(*connack_string)(int code);
    int (*subscribe)(struct mosquitto *client, int *mid, const char *pattern, int qos);
    void (*message_callback_set)(struct mosquitto *client,
                                 void (*callback)(struct mosquitto *, void *, const struct mosquitto_message *));
    const char *failure;
};

static struct waymark_mosquitto_library library;
static pthread_once_t library_once = PTHREAD_ONCE_INIT;

#define FIND(handle, field, name)                                                                                  \
    do {                                                                                                           \
        *(void **)(&library.field) = dlsym(handle, name);                                                          \
        if (library.field == NULL) {                                                                               \
            library.failure = "a function is missing from libmosquitto.so.1: " name;                             \
            return;                                                                                                \
        }                                                                                                          \
    } while (0)

static void load(void) {
    void *handle = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        library.failure = "libmosquitto.so.1 cannot be loaded (apt install libmosquitto1)";
        return;
    }
    FIND(handle, lib_init, "mosquitto_lib_init");
    FIND(handle, create, "mosquitto_new");
    FIND(handle, destroy, "mosquitto_destroy");
    FIND(handle, user_data_set, "mosquitto_user_data_set");
    FIND(handle, int_option, "mosquitto_int_option");
    FIND(handle, username_pw_set, "mosquitto_username_pw_set");
    FIND(handle, will_set, "mosquitto_will_set");
    FIND(handle, tls_set, "mosquitto_tls_set");
    FIND(handle, reconnect_delay_set, "mosquitto_reconnect_delay_set");
    FIND(handle, max_inflight_messages_set, "mosquitto_max_inflight_messages_set");
    FIND(handle, connect_async, "mosquitto_connect_async");
    FIND(handle, disconnect, "mosquitto_disconnect");
    FIND(handle, loop_start, "mosquitto_loop_start");
    FIND(handle, loop_stop, "mosquitto_loop_stop");
    FIND(handle, publish, "mosquitto_publish");
    FIND(handle, connect_callback_set, "mosquitto_connect_callback_set");
    FIND(handle, disconnect_callback_set, "mosquitto_disconnect_callback_set");
    FIND(handle, publish_callback_set, "mosquitto_publish_callback_set");
    FIND(handle, log_callback_set, "mosquitto_log_callback_set");
    FIND(handle, strerror, "mosquitto_strerror");
    FIND(handle, connack_string, "mosquitto_connack_string");
    FIND(handle, subscribe, "mosquitto_subscribe");
    FIND(handle, message_callback_set, "mosquitto_message_callback_set");
    // Once per process, before any client: pthread_once makes the first caller do it.
    library.lib_init();
    library.failure = NULL;
}

#undef FIND

const char *waymark_mosquitto_open(void) {
    pthread_once(&library_once, load);
    return library.failure;
}

struct mosquitto *waymark_mosquitto_new(const char *id, bool clean_session, void *context) {
    return library.create(id, clean_session, context);
}

void waymark_mosquitto_destroy(struct mosquitto *client) { library.destroy(client); }

void waymark_mosquitto_set_context(struct mosquitto *client, void *context) { library.user_data_set(client, context); }

int waymark_mosquitto_use_mqtt311(struct mosquitto *client) {
    return library.int_option(client, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
}

int waymark_mosquitto_credentials(struct mosquitto *client, const char *username, const char *password) {
    return library.username_pw_set(client, username, password);
}

int waymark_mosquitto_will(struct mosquitto *client, const char *topic, int length, const void *payload, int qos,
                           bool retain) {
    return library.will_set(client, topic, length, payload, qos, retain);
}

int waymark_mosquitto_tls(struct mosquitto *client, const char *ca_file, const char *cert_file, const char *key_file) {
    return library.tls_set(client, ca_file, NULL, cert_file, key_file, NULL);
}

int waymark_mosquitto_reconnect_delay(struct mosquitto *client, unsigned int delay, unsigned int delay_max) {
    return library.reconnect_delay_set(client, delay, delay_max, true);
}

int waymark_mosquitto_max_inflight(struct mosquitto *client, unsigned int count) {
    return library.max_inflight_messages_set(client, count);
}

int waymark_mosquitto_connect(struct mosquitto *client, const char *host, int port, int keepalive) {
    return library.connect_async(client, host, port, keepalive);
}

int waymark_mosquitto_disconnect(struct mosquitto *client) { return library.disconnect(client); }

int waymark_mosquitto_loop_start(struct mosquitto *client) { return library.loop_start(client); }

int waymark_mosquitto_loop_stop(struct mosquitto *client, bool force) { return library.loop_stop(client, force); }

int waymark_mosquitto_publish(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload,
                              int qos, bool retain) {
    return library.publish(client, mid, topic, length, payload, qos, retain);
}

void waymark_mosquitto_callbacks(struct mosquitto *client, waymark_mosquitto_status on_connect,
                                 waymark_mosquitto_status on_disconnect, waymark_mosquitto_status on_publish,
                                 waymark_mosquitto_log on_log) {
    library.connect_callback_set(client, on_connect);
    library.disconnect_callback_set(client, on_disconnect);
    library.publish_callback_set(client, on_publish);
    library.log_callback_set(client, on_log);
}

const char *waymark_mosquitto_strerror(int code) { return library.strerror(code); }

const char *waymark_mosquitto_connack_string(int code) { return library.connack_string(code); }

int waymark_mosquitto_subscribe(struct mosquitto *client, int *mid, const char *pattern, int qos) {
    return library.subscribe(client, mid, pattern, qos);
}

/// The one message handler (Swift's), called by the trampoline below with the message's parts.
static waymark_mosquitto_message message_handler;

static void on_message(struct mosquitto *client, void *context, const struct mosquitto_message *message) {
    waymark_mosquitto_message handler = __atomic_load_n(&message_handler, __ATOMIC_ACQUIRE);
    if (handler != NULL && message != NULL) {
        handler(client, context, message->topic, message->payload, message->payloadlen, message->retain);
    }
}

void waymark_mosquitto_on_message(struct mosquitto *client, waymark_mosquitto_message handler) {
    __atomic_store_n(&message_handler, handler, __ATOMIC_RELEASE);
    library.message_callback_set(client, on_message);
}
