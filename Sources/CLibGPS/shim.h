// Waymark's view of libgps: the few places where the C API differs between
// releases (3.22 in Debian 12, 3.25+ elsewhere) are hidden behind these helpers,
// so the Swift code compiles unchanged against either header.
#ifndef WAYMARK_CLIBGPS_SHIM_H
#define WAYMARK_CLIBGPS_SHIM_H

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <gps.h>

/// Size of the buffer `gps_read` copies the raw JSON line into.
#define WAYMARK_MESSAGE_CAPACITY 10240

/// A zeroed `gps_data_t` on the heap (the struct is large: keep it off the stack).
static inline struct gps_data_t *waymark_gps_data_new(void) {
    return (struct gps_data_t *)calloc(1, sizeof(struct gps_data_t));
}

static inline void waymark_gps_data_free(struct gps_data_t *data) { free(data); }

/// `gps_open`; on failure returns the negative libgps error code that 3.22 leaves in `errno`.
static inline int waymark_open(const char *host, const char *port, struct gps_data_t *data) {
    errno = 0;
    if (gps_open(host, port, data) == 0) {
        return 0;
    }
    return errno != 0 ? errno : -1;
}

/// Makes the connection's socket non-blocking. libgps's `gps_waiting` answers true while a partial line is
/// buffered, and `gps_read` would then block in `recv` until the rest arrives: a peer stalled mid-line
/// would hold the thread. Non-blocking, `gps_read` returns 0 for "nothing complete yet" instead.
static inline int waymark_set_nonblocking(struct gps_data_t *data) {
    int flags = fcntl(data->gps_fd, F_GETFL, 0);
    if (flags < 0) {
        return -1;
    }
    return fcntl(data->gps_fd, F_SETFL, flags | O_NONBLOCK);
}

/// `gps_stream`: its third parameter is `void *` up to 3.24 and `const char *` from 3.25 on.
static inline int waymark_stream(struct gps_data_t *data, unsigned int flags, const char *device) {
    return gps_stream(data, flags, (void *)device);
}

static inline int waymark_watch_enable(struct gps_data_t *data, const char *device) {
    unsigned int flags = WATCH_ENABLE | WATCH_JSON;
    if (device != NULL) {
        flags |= WATCH_DEVICE;
    }
    return waymark_stream(data, flags, device);
}

static inline int waymark_watch_disable(struct gps_data_t *data) {
    return waymark_stream(data, WATCH_DISABLE, NULL);
}

/// `gps_read` into `message`: 1 when a message arrived (its raw line is in `message`), 0 when no complete
/// line is buffered yet, -1 when the connection was closed (`errno` 0) or failed.
///
/// `gps_read` also returns -1 for a line libgps cannot unpack (an unknown class from a newer gpsd); it
/// sets `PACKET_SET` for every line it consumed, which tells the two apart.
static inline int waymark_read(struct gps_data_t *data, char *message, int capacity) {
    data->set = 0;  // a TPV replaces `set`, everything else ORs into it
    message[0] = '\0';
    errno = 0;
    int status = gps_read(data, message, capacity);
    if ((data->set & PACKET_SET) != 0) {
        return 1;
    }
    return status == 0 ? 0 : -1;
}

/// `gps_unpack` of one JSON line (the replay path); 0 on success.
static inline int waymark_unpack(char *line, struct gps_data_t *data) {
    data->set = 0;
    return gps_unpack(line, data);
}

/// `gps_waiting` with a timeout in microseconds; sets `*failed` when it returned false for an error.
static inline bool waymark_waiting(const struct gps_data_t *data, int timeout_us, bool *failed) {
    errno = 0;
    bool ready = gps_waiting(data, timeout_us);
    *failed = !ready && errno != 0 && errno != EINTR;
    return ready;
}

static inline bool waymark_isset(const struct gps_data_t *data, gps_mask_t mask) {
    return (data->set & mask) != 0;
}

/// The attitude record: a union member up to 3.22, a plain member from 3.23 on; same syntax.
static inline double waymark_attitude_heading(const struct gps_data_t *data) { return data->attitude.heading; }
static inline double waymark_attitude_pitch(const struct gps_data_t *data) { return data->attitude.pitch; }
static inline double waymark_attitude_roll(const struct gps_data_t *data) { return data->attitude.roll; }

/// Magnetic heading of ATT: only libgps 3.25+ (API 14) has `mheading`; NaN before.
static inline double waymark_attitude_magnetic_heading(const struct gps_data_t *data) {
#if GPSD_API_MAJOR_VERSION >= 14
    return data->attitude.mheading;
#else
    (void)data;
    return NAN;
#endif
}

static inline int waymark_api_major(void) { return GPSD_API_MAJOR_VERSION; }
static inline int waymark_api_minor(void) { return GPSD_API_MINOR_VERSION; }

static inline gps_mask_t waymark_mask_time(void) { return TIME_SET; }
static inline gps_mask_t waymark_mask_latlon(void) { return LATLON_SET; }
static inline gps_mask_t waymark_mask_mode(void) { return MODE_SET; }
static inline gps_mask_t waymark_mask_track(void) { return TRACK_SET; }
static inline gps_mask_t waymark_mask_speed(void) { return SPEED_SET; }
static inline gps_mask_t waymark_mask_herr(void) { return HERR_SET; }
static inline gps_mask_t waymark_mask_verr(void) { return VERR_SET; }
static inline gps_mask_t waymark_mask_trackerr(void) { return TRACKERR_SET; }
static inline gps_mask_t waymark_mask_speederr(void) { return SPEEDERR_SET; }
static inline gps_mask_t waymark_mask_altitude(void) { return ALTITUDE_SET; }
static inline gps_mask_t waymark_mask_attitude(void) { return ATTITUDE_SET; }
static inline gps_mask_t waymark_mask_satellite(void) { return SATELLITE_SET; }
static inline gps_mask_t waymark_mask_devicelist(void) { return DEVICELIST_SET; }
static inline gps_mask_t waymark_mask_device(void) { return DEVICE_SET; }
static inline gps_mask_t waymark_mask_error(void) { return ERROR_SET; }
static inline gps_mask_t waymark_mask_version(void) { return VERSION_SET; }

#endif
