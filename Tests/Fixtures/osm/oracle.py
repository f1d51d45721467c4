#!/usr/bin/env python3
"""The nearest OpenStreetMap address and named street of points, by brute force: Waymark's address file's oracle.

usage: oracle.py EXTRACT.osm.pbf POINTS OUTPUT ADDRESS_RADIUS STREET_RADIUS

POINTS has one "lat lon" per line. OUTPUT gets a first line "addresses N streets M" (what the extract holds by
these rules), then per point: "ID DISTANCE<TAB>STREET<TAB>DISTANCE<TAB>NAMES", ID being n123 or w123, "-" for
none, NAMES every street name within the nearest street's distance + NAME_SLACK metres, separated by US (0x1f).
"""
import math
import re
import subprocess
import sys

from geographiclib.geodesic import Geodesic

WGS84 = Geodesic.WGS84
NAME_SLACK = 1.01  # metres: the index may return a street up to 1 m farther than the nearest
CELL = 0.005  # degrees: the grid that narrows the brute force to nearby candidates (no answer is lost: see below)


def unescape(text):
    return re.sub(r"%([0-9a-fA-F]+)%", lambda m: chr(int(m.group(1), 16)), text)


def read(extract):
    opl = subprocess.run(["osmium", "cat", "-f", "opl", extract], check=True, capture_output=True, text=True).stdout
    nodes, tagged_nodes, ways = {}, [], []
    for line in opl.splitlines():
        fields = {f[0]: f[1:] for f in line.split(" ")[1:] if f}
        kind, ident = line[0], int(line.split(" ")[0][1:])
        tags = {}
        if fields.get("T"):
            for pair in fields["T"].split(","):
                key, _, value = pair.partition("=")
                tags[unescape(key)] = unescape(value)
        if kind == "n":
            if fields.get("x") and fields.get("y"):
                nodes[ident] = (float(fields["y"]), float(fields["x"]))
                if tags:
                    tagged_nodes.append((ident, tags))
        elif kind == "w":
            refs = [int(r[1:]) for r in fields.get("N", "").split(",") if r]
            ways.append((ident, tags, refs))
    return nodes, tagged_nodes, ways


def address_of(tags):
    number = tags.get("addr:housenumber", "")
    street = tags.get("addr:street") or tags.get("addr:place") or ""
    return number != "" and street != ""


def surface_point(points):
    # In units of 1e-7 degree relative to the first corner, as OSM stores them: the centroid (the shoelace
    # formula) when the ring contains it, else the middle of the widest stretch inside the ring along the
    # centroid's latitude; the mean of the corners for no area or a centroid outside the box.
    lat0, lon0 = round(points[0][0] * 1e7), round(points[0][1] * 1e7)
    ring = [(round(lo * 1e7) - lon0, round(la * 1e7) - lat0) for la, lo in points]
    area = sx = sy = 0.0
    for (xa, ya), (xb, yb) in zip(ring, ring[1:]):
        cross = float(xa) * yb - float(xb) * ya
        area += cross
        sx += (xa + xb) * cross
        sy += (ya + yb) * cross
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    to_degrees = lambda x, y: ((y + lat0) / 1e7, (x + lon0) / 1e7)
    if not abs(area) > 1e-3:
        return to_degrees(sum(xs[:-1]) / (len(ring) - 1), sum(ys[:-1]) / (len(ring) - 1))
    cx, cy = sx / (3 * area), sy / (3 * area)
    if not (min(xs) <= cx <= max(xs) and min(ys) <= cy <= max(ys)):
        return to_degrees(sum(xs[:-1]) / (len(ring) - 1), sum(ys[:-1]) / (len(ring) - 1))
    crossings = sorted(
        xa + (cy - ya) * (xb - xa) / (yb - ya) for (xa, ya), (xb, yb) in zip(ring, ring[1:]) if (ya > cy) != (yb > cy)
    )
    if sum(1 for x in crossings if x > cx) % 2 == 1 or len(crossings) < 2:
        return to_degrees(cx, cy)
    pairs = [(crossings[i + 1] - crossings[i], (crossings[i] + crossings[i + 1]) / 2) for i in range(0, len(crossings) - 1, 2)]
    width, middle = max(pairs, key=lambda p: p[0])
    return to_degrees(middle, cy)


def planar(lat0, lon0, lat, lon):
    # Metres east and north of (lat0, lon0) on a sphere: within 1 % of the truth over a few hundred metres.
    k = math.cos(math.radians(lat0))
    return ((lon - lon0) * 111_320 * k, (lat - lat0) * 110_574)


def approx_segment(lat, lon, a, b):
    ax, ay = planar(lat, lon, *a)
    bx, by = planar(lat, lon, *b)
    dx, dy = bx - ax, by - ay
    squared = dx * dx + dy * dy
    t = 0.0 if squared == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / squared))
    return math.hypot(ax + t * dx, ay + t * dy)


def geodesic_segment(lat, lon, a, b):
    line = WGS84.InverseLine(a[0], a[1], b[0], b[1])
    f = lambda s: WGS84.Inverse(lat, lon, *[line.Position(s)[k] for k in ("lat2", "lon2")])["s12"]
    lo, hi = 0.0, line.s13
    golden = (math.sqrt(5) - 1) / 2
    c, d = hi - golden * (hi - lo), lo + golden * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(60):
        if hi - lo < 1e-4:
            break
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - golden * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + golden * (hi - lo)
            fd = f(d)
    return min(f(0.0), f(line.s13), fc, fd)


def cells(lat_min, lat_max, lon_min, lon_max):
    for i in range(math.floor(lat_min / CELL), math.floor(lat_max / CELL) + 1):
        for j in range(math.floor(lon_min / CELL), math.floor(lon_max / CELL) + 1):
            yield (i, j)


def main():
    extract, points_path, output_path = sys.argv[1:4]
    address_radius, street_radius = float(sys.argv[4]), float(sys.argv[5])
    nodes, tagged_nodes, ways = read(extract)
    addresses = [("n%d" % i, nodes[i]) for i, tags in tagged_nodes if address_of(tags)]
    segments = []
    for ident, tags, refs in ways:
        if address_of(tags) and len(refs) >= 4 and refs[0] == refs[-1]:
            if all(r in nodes for r in refs):
                addresses.append(("w%d" % ident, surface_point([nodes[r] for r in refs])))
            elif any(r in nodes for r in refs[:-1]):
                # Cut by the extract's border: the mean of the corners it has, in 1e-7 degree, rounded.
                present = [nodes[r] for r in refs[:-1] if r in nodes]
                lat = round(sum(round(p[0] * 1e7) for p in present) / len(present)) / 1e7
                lon = round(sum(round(p[1] * 1e7) for p in present) / len(present)) / 1e7
                addresses.append(("w%d" % ident, (lat, lon)))
        if tags.get("highway") not in (None, "proposed", "construction", "platform") and tags.get("name", "") != "" and len(refs) >= 2:
            previous = None
            for ref in refs:
                point = nodes.get(ref)
                if point and previous and abs(point[1] - previous[1]) <= 180:
                    segments.append((tags["name"], previous, point))
                previous = point
    # Each candidate is filed under every cell its box, widened by more than the largest radius, touches: a
    # point's own cell then holds everything within the radius.
    margin = (max(address_radius, street_radius) + 20) / 110_000 / math.cos(math.radians(60))
    address_grid, segment_grid = {}, {}
    for index, (_, (lat, lon)) in enumerate(addresses):
        for cell in cells(lat - margin, lat + margin, lon - margin, lon + margin):
            address_grid.setdefault(cell, []).append(index)
    for index, (_, a, b) in enumerate(segments):
        box = (min(a[0], b[0]) - margin, max(a[0], b[0]) + margin, min(a[1], b[1]) - margin, max(a[1], b[1]) + margin)
        for cell in cells(*box):
            segment_grid.setdefault(cell, []).append(index)
    out = ["addresses %d streets %d" % (len(addresses), len({s[0] for s in segments}))]
    for line in open(points_path):
        lat, lon = map(float, line.split())
        cell = (math.floor(lat / CELL), math.floor(lon / CELL))
        best = None
        nearby = [(math.hypot(*planar(lat, lon, *addresses[i][1])), i) for i in address_grid.get(cell, [])]
        floor = min((d for d, _ in nearby), default=math.inf)
        for approx, i in nearby:
            if approx <= min(floor + 5, address_radius * 1.02 + 5):
                distance = WGS84.Inverse(lat, lon, *addresses[i][1])["s12"]
                if distance <= address_radius and (best is None or distance < best[1]):
                    best = (addresses[i][0], distance)
        street = None
        near_streets = []
        nearby = [(approx_segment(lat, lon, segments[i][1], segments[i][2]), i) for i in segment_grid.get(cell, [])]
        floor = min((d for d, _ in nearby), default=math.inf)
        for approx, i in nearby:
            if approx <= min(floor + 5, street_radius * 1.02 + 5):
                distance = geodesic_segment(lat, lon, segments[i][1], segments[i][2])
                near_streets.append((distance, segments[i][0]))
                if distance <= street_radius and (street is None or distance < street[1]):
                    street = (segments[i][0], distance)
        names = sorted({name for d, name in near_streets if street and d <= street[1] + NAME_SLACK})
        fields = [
            "%s %.4f" % best if best else "-",
            street[0] if street else "-",
            "%.4f" % street[1] if street else "-",
            "\x1f".join(names) if names else "-",
        ]
        out.append("\t".join(fields))
    with open(output_path, "w") as f:
        f.write("\n".join(out) + "\n")


main()
