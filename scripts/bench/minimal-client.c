// The floor Waymark's CPU is measured against (scripts/bench-live.sh): the least a libgps client does with
// each fix. It watches gpsd in JSON, reads every message through libgps, and writes the time, latitude and
// longitude of each TPV with a position to stdout; nothing else. It ends when gpsd reports its receiver gone
// (a DEVICE with "activated":0, as at the end of a replay), at SIGINT or SIGTERM, or when gpsd goes away, and
// says on stderr how many messages, TPVs and fixes it read.
//
//   cc -O2 -o minimal-client minimal-client.c -lgps && ./minimal-client HOST PORT > fixes.txt
#include <errno.h>
#include <gps.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stopping = 0;

static void stop(int signal) {
    (void)signal;
    stopping = 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s HOST PORT\n", argv[0]);
        return 2;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop;  // no SA_RESTART: the wait returns at once with EINTR
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    static struct gps_data_t data;
    static char message[10240];  // gps_read copies the raw line here (gpsd's lines stay under 10 kB)
    if (gps_open(argv[1], argv[2], &data) != 0) {
        fprintf(stderr, "gps_open %s:%s: %s\n", argv[1], argv[2], gps_errstr(errno));
        return 1;
    }
    gps_stream(&data, WATCH_ENABLE | WATCH_JSON, NULL);
    unsigned long messages = 0, tpvs = 0, fixes = 0;
    while (!stopping) {
        errno = 0;
        if (!gps_waiting(&data, 5000000)) {
            if (errno != 0 && errno != EINTR) break;
            continue;
        }
        if (gps_read(&data, message, sizeof message) == -1) break;
        messages++;
        // `set` keeps a TPV's bits through the messages after it: only a TPV is a fix.
        if (strncmp(message, "{\"class\":\"TPV\"", 14) != 0) {
            if (strncmp(message, "{\"class\":\"DEVICE\"", 17) == 0 && strstr(message, "\"activated\":0") != NULL) break;
            continue;
        }
        tpvs++;
        if ((data.set & TIME_SET) && (data.set & LATLON_SET) && data.fix.mode >= MODE_2D) {
            printf("%lld.%09ld %.9f %.9f\n", (long long)data.fix.time.tv_sec, data.fix.time.tv_nsec,
                   data.fix.latitude, data.fix.longitude);
            fixes++;
        }
    }
    gps_close(&data);
    fflush(stdout);
    fprintf(stderr, "%lu messages, %lu tpvs, %lu fixes\n", messages, tpvs, fixes);
    return 0;
}
