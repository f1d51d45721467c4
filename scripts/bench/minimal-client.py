#!/usr/bin/python3
"""A minimal Python gpsd client on Debian's python3-gps, for scripts/bench-live.sh: it watches gpsd in JSON,
reads every message through the gps module, and writes the time, latitude and longitude of each TPV with a
position to stdout. It ends when gpsd reports its receiver gone (a DEVICE with "activated":0), at SIGINT, or
when gpsd goes away, and says on stderr how many messages, TPVs and fixes it read.

    /usr/bin/python3 minimal-client.py HOST PORT > fixes.txt
"""
import sys

import gps


def main():
    host, port = sys.argv[1], sys.argv[2]
    session = gps.gps(host=host, port=port, mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
    messages = tpvs = fixes = 0
    out = sys.stdout
    try:
        while True:
            if session.read() != 0:
                break
            messages += 1
            if session.response.startswith('{"class":"TPV"'):
                tpvs += 1
                # gps 3.22 clears TIME_SET again while it unpacks a TPV: the time is there when utc is.
                if session.utc and (session.valid & gps.LATLON_SET) and session.fix.mode >= 2:
                    out.write(f"{session.fix.time} {session.fix.latitude:.9f} {session.fix.longitude:.9f}\n")
                    fixes += 1
            elif session.response.startswith('{"class":"DEVICE"') and '"activated":0' in session.response:
                break
    except KeyboardInterrupt:
        pass
    out.flush()
    print(f"{messages} messages, {tpvs} tpvs, {fixes} fixes", file=sys.stderr)


if __name__ == "__main__":
    main()
