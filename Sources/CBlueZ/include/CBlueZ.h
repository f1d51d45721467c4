// D-Bus for the beacon source: BlueZ's objects and signals read with libsystemd's sd-bus, which is loaded with
// dlopen(3) when beacons are enabled (an agent without beacons maps nothing of it). sd-bus, not libdbus-1:
// Debian's libdbus-1-3 itself depends on libsystemd0, so sd-bus is the smaller of the two on a board, and its
// typed message reader and its file descriptor and timeout let one thread poll the bus with its own wake-ups.
#ifndef WAYMARK_CBLUEZ_H
#define WAYMARK_CBLUEZ_H

#include <stddef.h>
#include <stdint.h>

/// A connection to a bus and what it heard of BlueZ, queued until read (`waymark_bus_next`).
typedef struct waymark_bus waymark_bus;

enum waymark_bluez_kind {
    /// An adapter is there (at the start, or added); `powered` says whether it is on.
    WAYMARK_BLUEZ_ADAPTER = 1,
    /// An adapter's `Powered` changed.
    WAYMARK_BLUEZ_ADAPTER_POWERED = 2,
    WAYMARK_BLUEZ_ADAPTER_REMOVED = 3,
    /// A device's properties, from a signal: an advertisement heard (`RSSI`, Apple's `ManufacturerData`).
    WAYMARK_BLUEZ_DEVICE = 4,
    /// A device BlueZ already knew when the connection started: its data, not a sighting.
    WAYMARK_BLUEZ_DEVICE_KNOWN = 5,
    WAYMARK_BLUEZ_DEVICE_REMOVED = 6,
    /// `org.bluez` left the bus (bluetoothd stopped) or came back.
    WAYMARK_BLUEZ_SERVICE_GONE = 7,
    WAYMARK_BLUEZ_SERVICE_BACK = 8,
    /// BlueZ answered our `RegisterAdvertisement`: registered, or refused (why: `waymark_advert_error`).
    WAYMARK_BLUEZ_ADVERT_REGISTERED = 9,
    WAYMARK_BLUEZ_ADVERT_REFUSED = 10,
    /// bluetoothd called our advertisement's `Release`: it no longer advertises it.
    WAYMARK_BLUEZ_ADVERT_RELEASED = 11,
};

/// The longest Apple manufacturer data kept; longer data is reported with its length only.
#define WAYMARK_BLUEZ_APPLE_CAPACITY 32

struct waymark_bluez_event {
    int kind;
    /// The adapter's or the device's object path (`/org/bluez/hci0`, `/org/bluez/hci0/dev_…`).
    char path[128];
    /// For adapters: 1 on, 0 off, -1 not said.
    int powered;
    int has_rssi;
    int rssi;
    /// -1 when the update carries no manufacturer data of company 0x004C (Apple); else the length of its start
    /// kept in `apple`, at most `WAYMARK_BLUEZ_APPLE_CAPACITY` (longer data is no iBeacon frame either).
    int apple_length;
    uint8_t apple[WAYMARK_BLUEZ_APPLE_CAPACITY];
};

/// Loads libsystemd.so.0 (once); NULL when it is loaded, else why not.
const char *waymark_bluez_library_open(void);

/// Connects to `address` (a D-Bus address), or to the system bus when NULL (`DBUS_SYSTEM_BUS_ADDRESS` or the
/// default socket), and subscribes to BlueZ's signals; without `devices` (the advertiser's connection: it needs
/// adapters and bluetoothd's comings and goings, not the advertisements heard), only to the adapters' property
/// changes, and queues no device events. Returns 0, or a negative errno with `error` filled.
int waymark_bus_open(const char *address, int devices, waymark_bus **bus, char *error, size_t error_size);
void waymark_bus_close(waymark_bus *bus);

/// Asks BlueZ for its objects (adapters and devices: queued as `ADAPTER` and `DEVICE_KNOWN`) and for the
/// unique name that owns `org.bluez`. Returns 0, or a negative errno with `error` filled (e.g.
/// `org.freedesktop.DBus.Error.ServiceUnknown: …` when bluetoothd does not run).
int waymark_bluez_load(waymark_bus *bus, char *error, size_t error_size);

/// `SetDiscoveryFilter({Transport: "le", DuplicateData: true})` then `StartDiscovery`, or `StopDiscovery`, on the
/// adapter at `adapter_path`. Returns 0, or a negative errno with BlueZ's error name and message in `error`.
int waymark_bluez_discover(waymark_bus *bus, const char *adapter_path, int start, char *error, size_t error_size);

/// Waits until the bus has input, `wake_fd` (an eventfd, or -1) is readable, or `timeout_usec` passed;
/// then reads and dispatches what came. Returns 0, or a negative errno when the connection is lost.
int waymark_bus_run(waymark_bus *bus, int wake_fd, uint64_t timeout_usec);

/// Takes the oldest queued event into `event`; returns 0 when none is left.
int waymark_bus_next(waymark_bus *bus, struct waymark_bluez_event *event);


/// Exports an `org.bluez.LEAdvertisement1` object at `path`: `Type` "broadcast", `ManufacturerData` {0x004C:
/// `apple`}, `MinInterval` and `MaxInterval` in milliseconds (left out when 0), and `Release`. sd-bus answers
/// `org.freedesktop.DBus.Properties.Get`/`GetAll` for it. Returns 0, or a negative errno with `error` filled.
int waymark_advert_export(waymark_bus *bus, const char *path, const uint8_t *apple, size_t apple_length,
                          uint32_t min_interval_ms, uint32_t max_interval_ms, char *error, size_t error_size);

/// Calls `RegisterAdvertisement(path, {})` on the adapter without waiting: bluetoothd reads the object's
/// properties from us before it answers, so only `waymark_bus_run` can let the answer come (queued as
/// `ADVERT_REGISTERED` or `ADVERT_REFUSED`). Returns 0, or a negative errno when the call could not be sent.
int waymark_advert_register(waymark_bus *bus, const char *adapter_path, char *error, size_t error_size);

/// `UnregisterAdvertisement(path)` on the adapter, waiting for the answer up to `timeout_usec` (0: sd-bus's own
/// 25 s). Returns 0, or a negative errno with BlueZ's error name and message in `error`.
int waymark_advert_unregister(waymark_bus *bus, const char *adapter_path, uint64_t timeout_usec, char *error,
                              size_t error_size);

/// Why the last `RegisterAdvertisement` was refused: BlueZ's error name and message.
const char *waymark_advert_error(waymark_bus *bus);

/// Makes `wake_fd` (an eventfd: WaymarkSystem's `WakeSignal`) unreadable again.
void waymark_wake_fd_clear(int wake_fd);

#endif
