// The beacon source's side of D-Bus, behind CBlueZ.h: libsystemd's sd-bus loaded with dlopen(3), BlueZ's
// ObjectManager and Properties signals read into flat events the Swift side takes one by one.
#include "CBlueZ.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

/// The functions used, found in libsystemd.so.0.
static struct {
    int (*open_system)(sd_bus **bus);
    int (*new_bus)(sd_bus **bus);
    int (*set_address)(sd_bus *bus, const char *address);
    int (*set_bus_client)(sd_bus *bus, int b);
    int (*start)(sd_bus *bus);
    sd_bus *(*flush_close_unref)(sd_bus *bus);
    int (*get_fd)(sd_bus *bus);
    int (*get_events)(sd_bus *bus);
    int (*process)(sd_bus *bus, sd_bus_message **message);
    int (*add_match)(sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback,
                     void *userdata);
    int (*call_method)(sd_bus *bus, const char *destination, const char *path, const char *interface,
                       const char *member, sd_bus_error *error, sd_bus_message **reply, const char *types, ...);
    sd_bus_message *(*message_unref)(sd_bus_message *message);
    int (*read_basic)(sd_bus_message *message, char type, void *value);
    int (*read_array)(sd_bus_message *message, char type, const void **pointer, size_t *size);
    int (*skip)(sd_bus_message *message, const char *types);
    int (*enter_container)(sd_bus_message *message, char type, const char *contents);
    int (*exit_container)(sd_bus_message *message);
    int (*peek_type)(sd_bus_message *message, char *type, const char **contents);
    const char *(*get_sender)(sd_bus_message *message);
    const char *(*get_path)(sd_bus_message *message);
    void (*error_free)(sd_bus_error *error);
    int (*add_object_vtable)(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                             const sd_bus_vtable *vtable, void *userdata);
    int (*append_basic)(sd_bus_message *message, char type, const void *value);
    int (*open_container)(sd_bus_message *message, char type, const char *contents);
    int (*close_container)(sd_bus_message *message);
    int (*append_array)(sd_bus_message *message, char type, const void *pointer, size_t size);
    int (*reply_method_return)(sd_bus_message *call, const char *types, ...);
    int (*new_method_call)(sd_bus *bus, sd_bus_message **message, const char *destination, const char *path,
                           const char *interface, const char *member);
    int (*call)(sd_bus *bus, sd_bus_message *message, uint64_t usec, sd_bus_error *error, sd_bus_message **reply);
    int (*call_async)(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *message, sd_bus_message_handler_t callback,
                      void *userdata, uint64_t usec);
    const sd_bus_error *(*get_error)(sd_bus_message *message);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *slot);
    /// sd-bus's vtable format marker (systemd 246 on), which SD_BUS_VTABLE_START would take from the link.
    const unsigned *vtable_format;
    const char *failure;
} waymark_sd;

static pthread_once_t waymark_sd_once = PTHREAD_ONCE_INIT;

#define WAYMARK_FIND(handle, field, name)                                                                       \
    do {                                                                                                          \
        *(void **)(&waymark_sd.field) = dlsym(handle, name);                                                      \
        if (waymark_sd.field == NULL) {                                                                           \
            waymark_sd.failure = "libsystemd.so.0 has no " name " (systemd 221 or later is needed)";              \
            return;                                                                                               \
        }                                                                                                         \
    } while (0)

static void waymark_sd_load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        waymark_sd.failure = "libsystemd.so.0 cannot be loaded (apt install libsystemd0)";
        return;
    }
    WAYMARK_FIND(library, open_system, "sd_bus_open_system");
    WAYMARK_FIND(library, new_bus, "sd_bus_new");
    WAYMARK_FIND(library, set_address, "sd_bus_set_address");
    WAYMARK_FIND(library, set_bus_client, "sd_bus_set_bus_client");
    WAYMARK_FIND(library, start, "sd_bus_start");
    WAYMARK_FIND(library, flush_close_unref, "sd_bus_flush_close_unref");
    WAYMARK_FIND(library, get_fd, "sd_bus_get_fd");
    WAYMARK_FIND(library, get_events, "sd_bus_get_events");
    WAYMARK_FIND(library, process, "sd_bus_process");
    WAYMARK_FIND(library, add_match, "sd_bus_add_match");
    WAYMARK_FIND(library, call_method, "sd_bus_call_method");
    WAYMARK_FIND(library, message_unref, "sd_bus_message_unref");
    WAYMARK_FIND(library, read_basic, "sd_bus_message_read_basic");
    WAYMARK_FIND(library, read_array, "sd_bus_message_read_array");
    WAYMARK_FIND(library, skip, "sd_bus_message_skip");
    WAYMARK_FIND(library, enter_container, "sd_bus_message_enter_container");
    WAYMARK_FIND(library, exit_container, "sd_bus_message_exit_container");
    WAYMARK_FIND(library, peek_type, "sd_bus_message_peek_type");
    WAYMARK_FIND(library, get_sender, "sd_bus_message_get_sender");
    WAYMARK_FIND(library, get_path, "sd_bus_message_get_path");
    WAYMARK_FIND(library, error_free, "sd_bus_error_free");
    WAYMARK_FIND(library, add_object_vtable, "sd_bus_add_object_vtable");
    WAYMARK_FIND(library, append_basic, "sd_bus_message_append_basic");
    WAYMARK_FIND(library, open_container, "sd_bus_message_open_container");
    WAYMARK_FIND(library, close_container, "sd_bus_message_close_container");
    WAYMARK_FIND(library, append_array, "sd_bus_message_append_array");
    WAYMARK_FIND(library, reply_method_return, "sd_bus_reply_method_return");
    WAYMARK_FIND(library, new_method_call, "sd_bus_message_new_method_call");
    WAYMARK_FIND(library, call, "sd_bus_call");
    WAYMARK_FIND(library, call_async, "sd_bus_call_async");
    WAYMARK_FIND(library, get_error, "sd_bus_message_get_error");
    WAYMARK_FIND(library, slot_unref, "sd_bus_slot_unref");
    // Optional: an older sd-bus reads a table without it as its own format.
    waymark_sd.vtable_format = dlsym(library, "sd_bus_object_vtable_format");
    waymark_sd.failure = NULL;
}

#undef WAYMARK_FIND

const char *waymark_bluez_library_open(void) {
    pthread_once(&waymark_sd_once, waymark_sd_load);
    return waymark_sd.failure;
}

/// The queue stops growing here: a reader this far behind loses the newest events, counted.
#define WAYMARK_QUEUE_LIMIT 65536
/// `waymark_bus_run` returns to its reader once this many events wait.
#define WAYMARK_QUEUE_BATCH 256
/// `waymark_bus_run` handles at most this many messages before it returns.
#define WAYMARK_PROCESS_LIMIT 1024

struct waymark_bus {
    sd_bus *bus;
    /// The unique name that owns `org.bluez` (":1.42"); empty when none does. Signals from any other sender
    /// are ignored.
    char owner[64];
    struct waymark_bluez_event *events;
    size_t head;
    size_t count;
    size_t capacity;
    /// The advertiser's connection: no device events are queued.
    int ignore_devices;
    /// The exported advertisement (`waymark_advert_export`): its object, path and properties.
    sd_bus_slot *advert_object;
    char advert_path[128];
    uint8_t advert_apple[WAYMARK_BLUEZ_APPLE_CAPACITY];
    size_t advert_length;
    uint32_t advert_min_interval;
    uint32_t advert_max_interval;
    char advert_error[512];
};

static struct waymark_bluez_event *waymark_push(waymark_bus *bus, int kind, const char *path) {
    if (bus->head + bus->count == bus->capacity) {
        if (bus->head > 0) {
            memmove(bus->events, bus->events + bus->head, bus->count * sizeof *bus->events);
            bus->head = 0;
        } else {
            size_t capacity = bus->capacity == 0 ? 64 : bus->capacity * 2;
            struct waymark_bluez_event *events =
                capacity > WAYMARK_QUEUE_LIMIT ? NULL : realloc(bus->events, capacity * sizeof *events);
            // A reader this far behind (only BlueZ's answer to GetManagedObjects can hold so many) loses the rest.
            if (events == NULL) return NULL;
            bus->events = events;
            bus->capacity = capacity;
        }
    }
    struct waymark_bluez_event *event = &bus->events[bus->head + bus->count];
    bus->count += 1;
    memset(event, 0, sizeof *event);
    event->kind = kind;
    event->powered = -1;
    event->apple_length = -1;
    snprintf(event->path, sizeof event->path, "%s", path == NULL ? "" : path);
    return event;
}

int waymark_bus_next(waymark_bus *bus, struct waymark_bluez_event *event) {
    if (bus->count == 0) {
        bus->head = 0;
        return 0;
    }
    *event = bus->events[bus->head];
    bus->head += 1;
    bus->count -= 1;
    return 1;
}


static void waymark_set_error(char *error, size_t error_size, const char *what, const sd_bus_error *bus_error,
                              int code) {
    if (error == NULL || error_size == 0) return;
    if (bus_error != NULL && bus_error->name != NULL) {
        snprintf(error, error_size, "%s: %s: %s", what, bus_error->name,
                 bus_error->message != NULL ? bus_error->message : "");
    } else {
        snprintf(error, error_size, "%s: %s", what, strerror(code < 0 ? -code : code));
    }
}

/// Reads a variant holding `ManufacturerData` (`a{qv}` of `ay`): Apple's entry, when there is one, into `event`.
static int waymark_read_manufacturer_data(sd_bus_message *m, struct waymark_bluez_event *event) {
    int r = waymark_sd.enter_container(m, 'v', "a{qv}");
    if (r < 0) return r;
    r = waymark_sd.enter_container(m, 'a', "{qv}");
    if (r < 0) return r;
    while ((r = waymark_sd.enter_container(m, 'e', "qv")) > 0) {
        uint16_t company = 0;
        r = waymark_sd.read_basic(m, 'q', &company);
        if (r < 0) return r;
        char type = 0;
        const char *contents = NULL;
        r = waymark_sd.peek_type(m, &type, &contents);
        if (r < 0) return r;
        if (company == 0x004C && contents != NULL && strcmp(contents, "ay") == 0) {
            r = waymark_sd.enter_container(m, 'v', "ay");
            if (r < 0) return r;
            const void *bytes = NULL;
            size_t size = 0;
            r = waymark_sd.read_array(m, 'y', &bytes, &size);
            if (r < 0) return r;
            if (event != NULL) {
                size_t kept = size < WAYMARK_BLUEZ_APPLE_CAPACITY ? size : WAYMARK_BLUEZ_APPLE_CAPACITY;
                event->apple_length = (int)kept;
                if (kept > 0) memcpy(event->apple, bytes, kept);
            }
            r = waymark_sd.exit_container(m);
        } else {
            r = waymark_sd.skip(m, "v");
        }
        if (r < 0) return r;
        r = waymark_sd.exit_container(m);
        if (r < 0) return r;
    }
    if (r < 0) return r;
    r = waymark_sd.exit_container(m);
    if (r < 0) return r;
    return waymark_sd.exit_container(m);
}

/// Reads an `a{sv}` of an adapter's or a device's properties into `event` (NULL reads past them).
static int waymark_read_properties(sd_bus_message *m, struct waymark_bluez_event *event) {
    int r = waymark_sd.enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = waymark_sd.enter_container(m, 'e', "sv")) > 0) {
        const char *key = NULL;
        r = waymark_sd.read_basic(m, 's', &key);
        if (r < 0) return r;
        char type = 0;
        const char *contents = NULL;
        r = waymark_sd.peek_type(m, &type, &contents);
        if (r < 0) return r;
        // A property of another type than BlueZ documents (a test double's mistake, a future BlueZ) is skipped.
        if (event != NULL && contents != NULL && strcmp(key, "RSSI") == 0 && strcmp(contents, "n") == 0) {
            int16_t rssi = 0;
            r = waymark_sd.enter_container(m, 'v', "n");
            if (r >= 0) r = waymark_sd.read_basic(m, 'n', &rssi);
            if (r >= 0) r = waymark_sd.exit_container(m);
            if (r >= 0) {
                event->has_rssi = 1;
                event->rssi = rssi;
            }
        } else if (event != NULL && contents != NULL && strcmp(key, "ManufacturerData") == 0 &&
                   strcmp(contents, "a{qv}") == 0) {
            r = waymark_read_manufacturer_data(m, event);
        } else if (event != NULL && contents != NULL && strcmp(key, "Powered") == 0 && strcmp(contents, "b") == 0) {
            int powered = 0;
            r = waymark_sd.enter_container(m, 'v', "b");
            if (r >= 0) r = waymark_sd.read_basic(m, 'b', &powered);
            if (r >= 0) r = waymark_sd.exit_container(m);
            if (r >= 0) event->powered = powered ? 1 : 0;
        } else {
            r = waymark_sd.skip(m, "v");
        }
        if (r < 0) return r;
        r = waymark_sd.exit_container(m);
        if (r < 0) return r;
    }
    if (r < 0) return r;
    return waymark_sd.exit_container(m);
}

/// Reads the `a{sa{sv}}` of one object's interfaces: an adapter or a device becomes an event of `device_kind`.
static int waymark_read_interfaces(waymark_bus *bus, sd_bus_message *m, const char *path, int device_kind) {
    int r = waymark_sd.enter_container(m, 'a', "{sa{sv}}");
    if (r < 0) return r;
    while ((r = waymark_sd.enter_container(m, 'e', "sa{sv}")) > 0) {
        const char *interface = NULL;
        r = waymark_sd.read_basic(m, 's', &interface);
        if (r < 0) return r;
        struct waymark_bluez_event *event = NULL;
        if (strcmp(interface, "org.bluez.Adapter1") == 0) {
            event = waymark_push(bus, WAYMARK_BLUEZ_ADAPTER, path);
        } else if (strcmp(interface, "org.bluez.Device1") == 0 && !bus->ignore_devices) {
            event = waymark_push(bus, device_kind, path);
        }
        r = waymark_read_properties(m, event);
        if (r < 0) return r;
        r = waymark_sd.exit_container(m);
        if (r < 0) return r;
    }
    if (r < 0) return r;
    return waymark_sd.exit_container(m);
}

/// Whether a signal comes from the owner of `org.bluez`.
static int waymark_from_bluez(waymark_bus *bus, sd_bus_message *m) {
    const char *sender = waymark_sd.get_sender(m);
    return sender != NULL && bus->owner[0] != 0 && strcmp(sender, bus->owner) == 0;
}

static int waymark_on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    if (!waymark_from_bluez(bus, m)) return 0;
    const char *interface = NULL;
    if (waymark_sd.read_basic(m, 's', &interface) < 0) return 0;
    int kind = 0;
    if (strcmp(interface, "org.bluez.Device1") == 0) {
        kind = WAYMARK_BLUEZ_DEVICE;
    } else if (strcmp(interface, "org.bluez.Adapter1") == 0) {
        kind = WAYMARK_BLUEZ_ADAPTER_POWERED;
    } else {
        return 0;
    }
    struct waymark_bluez_event scratch;
    struct waymark_bluez_event *event = &scratch;
    memset(event, 0, sizeof *event);
    event->powered = -1;
    event->apple_length = -1;
    if (waymark_read_properties(m, event) < 0) return 0;
    if (kind == WAYMARK_BLUEZ_ADAPTER_POWERED && event->powered < 0) return 0;
    if (kind == WAYMARK_BLUEZ_DEVICE && (bus->ignore_devices || (!event->has_rssi && event->apple_length < 0))) {
        return 0;
    }
    struct waymark_bluez_event *queued = waymark_push(bus, kind, NULL);
    if (queued == NULL) return 0;
    scratch.kind = kind;
    snprintf(scratch.path, sizeof scratch.path, "%s", waymark_sd.get_path(m) != NULL ? waymark_sd.get_path(m) : "");
    *queued = scratch;
    return 0;
}

static int waymark_on_interfaces_added(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    if (!waymark_from_bluez(bus, m)) return 0;
    const char *path = NULL;
    if (waymark_sd.read_basic(m, 'o', &path) < 0) return 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", path);
    (void)waymark_read_interfaces(bus, m, copy, WAYMARK_BLUEZ_DEVICE);
    return 0;
}

static int waymark_on_interfaces_removed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    if (!waymark_from_bluez(bus, m)) return 0;
    const char *path = NULL;
    if (waymark_sd.read_basic(m, 'o', &path) < 0) return 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", path);
    if (waymark_sd.enter_container(m, 'a', "s") < 0) return 0;
    const char *interface = NULL;
    while (waymark_sd.read_basic(m, 's', &interface) > 0) {
        if (strcmp(interface, "org.bluez.Adapter1") == 0) {
            waymark_push(bus, WAYMARK_BLUEZ_ADAPTER_REMOVED, copy);
        } else if (strcmp(interface, "org.bluez.Device1") == 0 && !bus->ignore_devices) {
            waymark_push(bus, WAYMARK_BLUEZ_DEVICE_REMOVED, copy);
        }
    }
    return 0;
}

static int waymark_on_name_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (waymark_sd.read_basic(m, 's', &name) < 0 || waymark_sd.read_basic(m, 's', &old_owner) < 0 ||
        waymark_sd.read_basic(m, 's', &new_owner) < 0) {
        return 0;
    }
    if (strcmp(name, "org.bluez") != 0) return 0;
    snprintf(bus->owner, sizeof bus->owner, "%s", new_owner);
    waymark_push(bus, new_owner[0] == 0 ? WAYMARK_BLUEZ_SERVICE_GONE : WAYMARK_BLUEZ_SERVICE_BACK, NULL);
    return 0;
}

int waymark_bus_open(const char *address, int devices, waymark_bus **out, char *error, size_t error_size) {
    *out = NULL;
    const char *failure = waymark_bluez_library_open();
    if (failure != NULL) {
        snprintf(error, error_size, "%s", failure);
        return -ENOSYS;
    }
    sd_bus *connection = NULL;
    int r;
    if (address == NULL) {
        r = waymark_sd.open_system(&connection);
    } else {
        r = waymark_sd.new_bus(&connection);
        if (r >= 0) r = waymark_sd.set_address(connection, address);
        if (r >= 0) r = waymark_sd.set_bus_client(connection, 1);
        if (r >= 0) r = waymark_sd.start(connection);
    }
    if (r < 0) {
        waymark_set_error(error, error_size, "cannot connect to the bus", NULL, r);
        if (connection != NULL) waymark_sd.flush_close_unref(connection);
        return r;
    }
    waymark_bus *bus = calloc(1, sizeof *bus);
    if (bus == NULL) {
        waymark_sd.flush_close_unref(connection);
        snprintf(error, error_size, "out of memory");
        return -ENOMEM;
    }
    bus->bus = connection;
    bus->ignore_devices = !devices;
    // Without devices, bluetoothd's every advertisement heard (a Device1 PropertiesChanged) is not even sent to
    // this connection: the bus filters on the interface, the first argument.
    const char *properties = devices ? "type='signal',interface='org.freedesktop.DBus.Properties',"
                                       "member='PropertiesChanged',path_namespace='/org/bluez'"
                                     : "type='signal',interface='org.freedesktop.DBus.Properties',"
                                       "member='PropertiesChanged',path_namespace='/org/bluez',"
                                       "arg0='org.bluez.Adapter1'";
    const struct {
        const char *rule;
        sd_bus_message_handler_t handler;
    } matches[] = {
        {properties, waymark_on_properties_changed},
        {"type='signal',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesAdded',path='/'",
         waymark_on_interfaces_added},
        {"type='signal',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesRemoved',path='/'",
         waymark_on_interfaces_removed},
        {"type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
         "arg0='org.bluez'",
         waymark_on_name_owner_changed},
    };
    for (size_t index = 0; index < sizeof matches / sizeof matches[0]; index++) {
        r = waymark_sd.add_match(connection, NULL, matches[index].rule, matches[index].handler, bus);
        if (r < 0) {
            waymark_set_error(error, error_size, "cannot subscribe to BlueZ's signals", NULL, r);
            waymark_bus_close(bus);
            return r;
        }
    }
    *out = bus;
    return 0;
}

void waymark_bus_close(waymark_bus *bus) {
    if (bus == NULL) return;
    if (bus->advert_object != NULL) waymark_sd.slot_unref(bus->advert_object);
    if (bus->bus != NULL) waymark_sd.flush_close_unref(bus->bus);
    free(bus->events);
    free(bus);
}

int waymark_bluez_load(waymark_bus *bus, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = waymark_sd.call_method(bus->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                   "org.freedesktop.DBus", "GetNameOwner", &bus_error, &reply, "s", "org.bluez");
    if (r < 0) {
        waymark_set_error(error, error_size, "org.bluez is not on the bus", &bus_error, r);
        waymark_sd.error_free(&bus_error);
        return r;
    }
    const char *owner = NULL;
    r = waymark_sd.read_basic(reply, 's', &owner);
    if (r >= 0) snprintf(bus->owner, sizeof bus->owner, "%s", owner);
    waymark_sd.message_unref(reply);
    reply = NULL;
    r = waymark_sd.call_method(bus->bus, "org.bluez", "/", "org.freedesktop.DBus.ObjectManager",
                               "GetManagedObjects", &bus_error, &reply, "");
    if (r < 0) {
        waymark_set_error(error, error_size, "BlueZ's GetManagedObjects failed", &bus_error, r);
        waymark_sd.error_free(&bus_error);
        return r;
    }
    r = waymark_sd.enter_container(reply, 'a', "{oa{sa{sv}}}");
    while (r >= 0 && (r = waymark_sd.enter_container(reply, 'e', "oa{sa{sv}}")) > 0) {
        const char *path = NULL;
        r = waymark_sd.read_basic(reply, 'o', &path);
        if (r < 0) break;
        char copy[128];
        snprintf(copy, sizeof copy, "%s", path);
        r = waymark_read_interfaces(bus, reply, copy, WAYMARK_BLUEZ_DEVICE_KNOWN);
        if (r >= 0) r = waymark_sd.exit_container(reply);
    }
    waymark_sd.message_unref(reply);
    if (r < 0) {
        waymark_set_error(error, error_size, "BlueZ's objects could not be read", NULL, r);
        return r;
    }
    return 0;
}

int waymark_bluez_discover(waymark_bus *bus, const char *adapter_path, int start, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    int r = 0;
    if (start) {
        r = waymark_sd.call_method(bus->bus, "org.bluez", adapter_path, "org.bluez.Adapter1", "SetDiscoveryFilter",
                                   &bus_error, NULL, "a{sv}", 2, "Transport", "s", "le", "DuplicateData", "b", 1);
        if (r < 0) {
            waymark_set_error(error, error_size, "SetDiscoveryFilter refused", &bus_error, r);
            waymark_sd.error_free(&bus_error);
            return r;
        }
    }
    r = waymark_sd.call_method(bus->bus, "org.bluez", adapter_path, "org.bluez.Adapter1",
                               start ? "StartDiscovery" : "StopDiscovery", &bus_error, NULL, "");
    if (r < 0) {
        waymark_set_error(error, error_size, start ? "StartDiscovery refused" : "StopDiscovery refused", &bus_error,
                          r);
        waymark_sd.error_free(&bus_error);
        return r;
    }
    return 0;
}

/// Dispatches what the connection has read: until nothing is left (0), the reader has a batch to take or a
/// bounded number of messages were handled (1: more may wait), or the connection failed (negative). The bound
/// lets a flood of signals that queue nothing (another sender's, devices without Apple data) still return.
static int waymark_dispatch(waymark_bus *bus) {
    for (int handled = 0; handled < WAYMARK_PROCESS_LIMIT && bus->count < WAYMARK_QUEUE_BATCH; handled++) {
        int r = waymark_sd.process(bus->bus, NULL);
        if (r <= 0) return r;
    }
    return 1;
}

int waymark_bus_run(waymark_bus *bus, int wake_fd, uint64_t timeout_usec) {
    // First what is already read (a method call's wait may have queued signals), then poll. The one call whose
    // answer comes here is the advertiser's RegisterAdvertisement (sent without waiting); the session gives it a
    // deadline of its own (AdvertiseSession.answerTimeout), so sd-bus's timeout (`sd_bus_get_timeout`) is not
    // polled for, and the caller's timeout is the poll's.
    int r = waymark_dispatch(bus);
    if (r != 0 || bus->count > 0) return r < 0 ? r : 0;
    int events = waymark_sd.get_events(bus->bus);
    if (events < 0) return events;
    struct pollfd fds[2] = {
        {.fd = waymark_sd.get_fd(bus->bus), .events = (short)events},
        {.fd = wake_fd, .events = POLLIN},
    };
    int milliseconds = timeout_usec / 1000 > INT32_MAX ? INT32_MAX : (int)((timeout_usec + 999) / 1000);
    r = poll(fds, wake_fd >= 0 ? 2 : 1, milliseconds);
    if (r < 0 && errno != EINTR) return -errno;
    if (wake_fd >= 0 && (fds[1].revents & POLLIN)) waymark_wake_fd_clear(wake_fd);
    r = waymark_dispatch(bus);
    return r < 0 ? r : 0;
}

void waymark_wake_fd_clear(int wake_fd) {
    uint64_t value = 0;
    (void)!read(wake_fd, &value, sizeof value);
}


// The advertisement's properties, as bluetoothd reads them (doc/advertising-api.txt).

static int waymark_advert_type(sd_bus *b, const char *path, const char *interface, const char *property,
                               sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)b, (void)path, (void)interface, (void)property, (void)userdata, (void)error;
    return waymark_sd.append_basic(reply, 's', "broadcast");
}

static int waymark_advert_manufacturer_data(sd_bus *b, const char *path, const char *interface,
                                            const char *property, sd_bus_message *reply, void *userdata,
                                            sd_bus_error *error) {
    (void)b, (void)path, (void)interface, (void)property, (void)error;
    waymark_bus *bus = userdata;
    uint16_t company = 0x004C;
    int r = waymark_sd.open_container(reply, 'a', "{qv}");
    if (r >= 0) r = waymark_sd.open_container(reply, 'e', "qv");
    if (r >= 0) r = waymark_sd.append_basic(reply, 'q', &company);
    if (r >= 0) r = waymark_sd.open_container(reply, 'v', "ay");
    if (r >= 0) r = waymark_sd.append_array(reply, 'y', bus->advert_apple, bus->advert_length);
    if (r >= 0) r = waymark_sd.close_container(reply);
    if (r >= 0) r = waymark_sd.close_container(reply);
    if (r >= 0) r = waymark_sd.close_container(reply);
    return r;
}

static int waymark_advert_interval(sd_bus *b, const char *path, const char *interface, const char *property,
                                   sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)b, (void)path, (void)interface, (void)error;
    waymark_bus *bus = userdata;
    uint32_t value = strcmp(property, "MinInterval") == 0 ? bus->advert_min_interval : bus->advert_max_interval;
    return waymark_sd.append_basic(reply, 'u', &value);
}

static int waymark_advert_release(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    waymark_push(bus, WAYMARK_BLUEZ_ADVERT_RELEASED, bus->advert_path);
    return waymark_sd.reply_method_return(m, "");
}

/// SD_BUS_VTABLE_START without its reference to libsystemd's `sd_bus_object_vtable_format`: the library is
/// loaded with dlopen, so the reference is set at the export (`waymark_advert_export`).
#define WAYMARK_VTABLE_START                                                                                     \
    {                                                                                                            \
        .type = _SD_BUS_VTABLE_START, .flags = 0,                                                                \
        .x = {.start = {.element_size = sizeof(sd_bus_vtable), .features = _SD_BUS_VTABLE_PARAM_NAMES}},         \
    }

static sd_bus_vtable waymark_advert_vtable[] = {
    WAYMARK_VTABLE_START,
    SD_BUS_PROPERTY("Type", "s", waymark_advert_type, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("ManufacturerData", "a{qv}", waymark_advert_manufacturer_data, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_METHOD("Release", "", "", waymark_advert_release, 0),
    SD_BUS_VTABLE_END,
};

/// The same with the advertising interval: a table of its own, so that an interval left to BlueZ is absent, not 0
/// (bluetoothd refuses intervals under 20 ms).
static sd_bus_vtable waymark_advert_interval_vtable[] = {
    WAYMARK_VTABLE_START,
    SD_BUS_PROPERTY("Type", "s", waymark_advert_type, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("ManufacturerData", "a{qv}", waymark_advert_manufacturer_data, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("MinInterval", "u", waymark_advert_interval, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("MaxInterval", "u", waymark_advert_interval, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_METHOD("Release", "", "", waymark_advert_release, 0),
    SD_BUS_VTABLE_END,
};

int waymark_advert_export(waymark_bus *bus, const char *path, const uint8_t *apple, size_t apple_length,
                          uint32_t min_interval_ms, uint32_t max_interval_ms, char *error, size_t error_size) {
    if (apple_length > sizeof bus->advert_apple) {
        snprintf(error, error_size, "manufacturer data of %zu bytes: at most %zu", apple_length,
                 sizeof bus->advert_apple);
        return -EINVAL;
    }
    if (bus->advert_object != NULL) bus->advert_object = waymark_sd.slot_unref(bus->advert_object);
    snprintf(bus->advert_path, sizeof bus->advert_path, "%s", path);
    memcpy(bus->advert_apple, apple, apple_length);
    bus->advert_length = apple_length;
    bus->advert_min_interval = min_interval_ms;
    bus->advert_max_interval = max_interval_ms;
    sd_bus_vtable *vtable = min_interval_ms > 0 ? waymark_advert_interval_vtable : waymark_advert_vtable;
    vtable[0].x.start.vtable_format_reference = waymark_sd.vtable_format;
    int r = waymark_sd.add_object_vtable(bus->bus, &bus->advert_object, bus->advert_path,
                                         "org.bluez.LEAdvertisement1", vtable, bus);
    if (r < 0) waymark_set_error(error, error_size, "cannot export the advertisement", NULL, r);
    return r < 0 ? r : 0;
}

static int waymark_on_registered(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    waymark_bus *bus = userdata;
    const sd_bus_error *refusal = waymark_sd.get_error(m);
    if (refusal != NULL) {
        waymark_set_error(bus->advert_error, sizeof bus->advert_error, "RegisterAdvertisement refused", refusal, 0);
        waymark_push(bus, WAYMARK_BLUEZ_ADVERT_REFUSED, bus->advert_path);
    } else {
        waymark_push(bus, WAYMARK_BLUEZ_ADVERT_REGISTERED, bus->advert_path);
    }
    return 0;
}

int waymark_advert_register(waymark_bus *bus, const char *adapter_path, char *error, size_t error_size) {
    sd_bus_message *call = NULL;
    int r = waymark_sd.new_method_call(bus->bus, &call, "org.bluez", adapter_path, "org.bluez.LEAdvertisingManager1",
                                       "RegisterAdvertisement");
    if (r >= 0) r = waymark_sd.append_basic(call, 'o', bus->advert_path);
    if (r >= 0) r = waymark_sd.open_container(call, 'a', "{sv}");
    if (r >= 0) r = waymark_sd.close_container(call);
    // A floating call (no slot of ours): the bus owns it until the answer, or a timeout, comes.
    if (r >= 0) r = waymark_sd.call_async(bus->bus, NULL, call, waymark_on_registered, bus, 0);
    if (call != NULL) waymark_sd.message_unref(call);
    if (r < 0) waymark_set_error(error, error_size, "RegisterAdvertisement could not be sent", NULL, r);
    return r < 0 ? r : 0;
}

int waymark_advert_unregister(waymark_bus *bus, const char *adapter_path, uint64_t timeout_usec, char *error,
                              size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *call = NULL;
    int r = waymark_sd.new_method_call(bus->bus, &call, "org.bluez", adapter_path, "org.bluez.LEAdvertisingManager1",
                                       "UnregisterAdvertisement");
    if (r >= 0) r = waymark_sd.append_basic(call, 'o', bus->advert_path);
    if (r >= 0) r = waymark_sd.call(bus->bus, call, timeout_usec, &bus_error, NULL);
    if (call != NULL) waymark_sd.message_unref(call);
    if (r < 0) {
        waymark_set_error(error, error_size, "UnregisterAdvertisement refused", &bus_error, r);
        waymark_sd.error_free(&bus_error);
    }
    return r < 0 ? r : 0;
}

const char *waymark_advert_error(waymark_bus *bus) { return bus->advert_error; }
