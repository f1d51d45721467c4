#!/usr/bin/python3
"""An independent computation of Waymark's driving events from a gpsd JSON capture (docs/driving.md).

It reads the capture's TPV lines itself and applies the documented definitions with the default settings; it
imports nothing of Waymark's. One fix per epoch: the speed and track of the latest TPV of that time that carries a
receiver-measured track (gpsd sets `track` only then), with mode 2 or 3; an epoch without one is no sample and no
gap (a gap is a step over MAX_STEP). Prints one JSON object per event, and a last line
{"odometer_m": ...} with the geodesic sum of the positions of the `location` lines of EVENTS, when `--odometer
EVENTS` is given (the fixes Waymark accepted, as `waymark replay --print` printed them).

Usage: driving-oracle.py CAPTURE.json [--odometer EVENTS.jsonl]
"""
import json
import math
import sys
from datetime import datetime, timezone

# The defaults of [driving] (config/waymark.toml).
MIN_SPEED = 10 / 3.6
HARSH_ACCELERATION = 2.5
HARSH_BRAKING = 2.7
HARSH_CORNERING = 3.4
CORNERING_MIN_SPEED = 30 / 3.6
MIN_DURATION = 0.5
WINDOW = 1.0
SPEED_ERROR = 0.5
MAX_STEP = 3.0
MAX_ERROR_FRACTION = 0.5


def seconds(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def epochs(path):
    """(time, speed, course, speed error, lat, lon) per epoch, in the capture's order; None speed: no track."""
    by_time = {}
    order = []
    with open(path, encoding="utf-8", errors="replace") as capture:
        for line in capture:
            if not line.startswith('{"class":"TPV"'):
                continue
            tpv = json.loads(line)
            if tpv.get("mode", 0) < 2 or "time" not in tpv or "lat" not in tpv or "lon" not in tpv:
                continue
            t = seconds(tpv["time"])
            if t not in by_time:
                by_time[t] = None
                order.append(t)
            if "track" in tpv and "speed" in tpv and 0 <= tpv["track"] <= 360:
                eps = tpv.get("eps")
                error = min(eps, SPEED_ERROR) if eps is not None else SPEED_ERROR
                by_time[t] = (t, tpv["speed"], tpv["track"] % 360, error, tpv["lat"], tpv["lon"])
            elif by_time[t] is None:
                by_time[t] = (t, None, None, None, tpv["lat"], tpv["lon"])
    newest = -math.inf
    for t in order:
        if t <= newest:
            continue  # an epoch out of order or repeated says nothing new
        newest = t
        yield by_time[t]


def slope(times, values):
    mean_t = sum(times) / len(times)
    mean_v = sum(values) / len(values)
    spread = sum((t - mean_t) ** 2 for t in times)
    return sum((t - mean_t) * (v - mean_v) for t, v in zip(times, values)) / spread, spread


def events(path):
    window = []
    runs = {}
    found = []

    def end(kind, run, at, speed_after):
        duration = at - run["start"]
        if duration >= MIN_DURATION - 1e-9:
            found.append({"kind": kind, "time": run["start"], "peak": run["peak"], "duration": duration,
                          "speed": run["speed"], "speed_after": speed_after})

    def end_all():
        # The data stopped: an episode ends one epoch after its last window over, when the next fix was due.
        for kind, run in list(runs.items()):
            end(kind, run, run["last"] + run["step"], run["last_speed"])
        runs.clear()

    for fix in epochs(path):
        t, speed, course, error, lat, lon = fix
        if speed is None:
            continue
        if window and t - window[-1][0] > MAX_STEP:
            window.clear()
            end_all()
            window.append([t, speed, course, error])
            continue
        if window:
            turn = (course - window[-1][2]) % 360
            if turn > 180:
                turn -= 360
            course = window[-1][2] + turn
        step = t - window[-1][0] if window else 0.0
        window.append([t, speed, course, error])
        # The newest fix at least WINDOW older than this one starts the window.
        starts = [i for i, sample in enumerate(window) if t - sample[0] >= WINDOW]
        if starts:
            del window[:starts[-1]]
        values = None
        if len(window) >= 2 and t - window[0][0] >= WINDOW:
            times = [sample[0] - window[0][0] for sample in window]
            speeds = [sample[1] for sample in window]
            longitudinal, spread = slope(times, speeds)
            turn_rate, _ = slope(times, [sample[2] for sample in window])
            lateral = math.radians(turn_rate) * sum(speeds) / len(speeds)
            values = (longitudinal, lateral, max(sample[3] for sample in window) / math.sqrt(spread), min(speeds),
                      speeds[0])
        for kind in ("harsh_acceleration", "harsh_braking", "harsh_cornering"):
            value = None
            if values:
                longitudinal, lateral, err, slowest, first = values
                if kind == "harsh_acceleration" and slowest >= MIN_SPEED and err <= MAX_ERROR_FRACTION * HARSH_ACCELERATION \
                        and longitudinal > HARSH_ACCELERATION:
                    value = longitudinal
                if kind == "harsh_braking" and slowest >= MIN_SPEED and err <= MAX_ERROR_FRACTION * HARSH_BRAKING \
                        and -longitudinal > HARSH_BRAKING:
                    value = longitudinal
                if kind == "harsh_cornering" and slowest >= CORNERING_MIN_SPEED \
                        and err <= MAX_ERROR_FRACTION * HARSH_CORNERING and abs(lateral) > HARSH_CORNERING:
                    value = lateral
            if value is not None:
                run = runs.setdefault(kind, {"start": t, "peak": 0.0, "speed": values[4]})
                run["peak"] = max(run["peak"], abs(value))
                run["last"] = t
                run["last_speed"] = speed
                run["step"] = step
            elif kind in runs:
                run = runs.pop(kind)
                end(kind, run, t if values else run["last"] + run["step"], speed)
    end_all()
    return sorted(found, key=lambda event: event["time"])


def vincenty(lat1, lon1, lat2, lon2):
    """Metres between two points on the WGS84 ellipsoid (Vincenty's inverse formula, 1975)."""
    a, f = 6378137.0, 1 / 298.257223563
    b = a * (1 - f)
    if lat1 == lat2 and lon1 == lon2:
        return 0.0
    u1 = math.atan((1 - f) * math.tan(math.radians(lat1)))
    u2 = math.atan((1 - f) * math.tan(math.radians(lat2)))
    big_l = math.radians(lon2 - lon1)
    lam = big_l
    for _ in range(200):
        sin_l, cos_l = math.sin(lam), math.cos(lam)
        sin_s = math.hypot(math.cos(u2) * sin_l, math.cos(u1) * math.sin(u2) - math.sin(u1) * math.cos(u2) * cos_l)
        if sin_s == 0:
            return 0.0
        cos_s = math.sin(u1) * math.sin(u2) + math.cos(u1) * math.cos(u2) * cos_l
        sigma = math.atan2(sin_s, cos_s)
        sin_a = math.cos(u1) * math.cos(u2) * sin_l / sin_s
        cos2_a = 1 - sin_a ** 2
        cos_2sm = cos_s - 2 * math.sin(u1) * math.sin(u2) / cos2_a if cos2_a else 0.0
        c = f / 16 * cos2_a * (4 + f * (4 - 3 * cos2_a))
        previous = lam
        lam = big_l + (1 - c) * f * sin_a * (sigma + c * sin_s * (cos_2sm + c * cos_s * (-1 + 2 * cos_2sm ** 2)))
        if abs(lam - previous) < 1e-12:
            break
    u_sq = cos2_a * (a * a - b * b) / (b * b)
    big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)))
    big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)))
    delta = big_b * sin_s * (cos_2sm + big_b / 4 * (cos_s * (-1 + 2 * cos_2sm ** 2)
                                                 - big_b / 6 * cos_2sm * (-3 + 4 * sin_s ** 2) * (-3 + 4 * cos_2sm ** 2)))
    return b * big_a * (sigma - delta)


def main():
    for event in events(sys.argv[1]):
        event["time"] = datetime.fromtimestamp(event["time"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        print(json.dumps(event))
    if "--odometer" in sys.argv:
        total, last = 0.0, None
        for line in open(sys.argv[sys.argv.index("--odometer") + 1], encoding="utf-8"):
            if '"type":"location"' not in line:
                continue
            location = json.loads(line)
            point = (location["lat"], location["lon"])
            if last:
                total += vincenty(*last, *point)
            last = point
        print(json.dumps({"odometer_m": total}))


if __name__ == "__main__":
    main()
