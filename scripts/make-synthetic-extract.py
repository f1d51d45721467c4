#!/usr/bin/env python3
"""Writes a synthetic OpenStreetMap extract in OPL, for measuring the address file at a country's scale.

usage: make-synthetic-extract.py ADDRESSES OUT.opl   (then: osmium cat OUT.opl -o OUT.osm.pbf)

ADDRESSES address nodes drawn uniformly (seed 42) over 47.5-51.5 N, 7-13 E (about 200,000 km², at Germany's
density of about 55 addresses per km² for 10 million), each with a house number, one of 20,000 street names,
one of 5,000 postcode and city pairs; and one named highway of 5 nodes 100 m apart per 25 addresses. Node ids
come in order, as in a real extract, nodes before ways.
"""
import random
import sys

count, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(42)
south, north, west, east = 47.5, 51.5, 7.0, 13.0
with open(path, "w") as out:
    node = 0
    for _ in range(count):
        node += 1
        street = rng.randrange(20_000)
        place = rng.randrange(5_000)
        out.write(
            "n%d v1 dV c1 t2026-11-01T00:00:00Z i1 u Taddr:housenumber=%d,addr:street=Stra%%df%%e%%20%%%d,"
            "addr:postcode=%05d,addr:city=Ort%%20%%%d x%.7f y%.7f\n"
            % (node, rng.randrange(1, 300), street, 10_000 + place, place, rng.uniform(west, east), rng.uniform(south, north))
        )
    streets = []
    for way in range(count // 25):
        lat, lon = rng.uniform(south, north), rng.uniform(west, east)
        refs = []
        for step in range(5):
            node += 1
            out.write("n%d v1 dV c1 t2026-11-01T00:00:00Z i1 u T x%.7f y%.7f\n" % (node, lon + step * 0.00135, lat))
            refs.append("n%d" % node)
        streets.append((way + 1, refs))
    for way, refs in streets:
        out.write(
            "w%d v1 dV c1 t2026-11-01T00:00:00Z i1 u Thighway=residential,name=Stra%%df%%e%%20%%%d N%s\n"
            % (way, way % 20_000, ",".join(refs))
        )
