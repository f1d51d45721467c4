#!/usr/bin/env python3
"""The oracle of Tests/WaymarkCoreTests/GeodesyTests.swift: GeographicLib's inverse geodesic on WGS84.

Reads lines "lat1,lon1,lat2,lon2" (degrees) from the file named by the first argument, or from stdin,
and writes one line "s12,azi1,azi2" per input line (metres, degrees) to the file named by the second
argument, or to stdout, with repr() floats so that no digit is lost. Uses the PyPI package
geographiclib (scripts/install-deps.sh installs it); exits 3 with a message on stderr when it is missing.
"""

import csv
import sys

try:
    import geographiclib
    from geographiclib.geodesic import Geodesic
except ImportError:
    sys.stderr.write(
        f"the Python package geographiclib is not installed for {sys.executable}\n"
    )
    sys.exit(3)


def main() -> None:
    source = open(sys.argv[1], newline="") if len(sys.argv) > 1 else sys.stdin
    target = open(sys.argv[2], "w") if len(sys.argv) > 2 else sys.stdout
    with source, target:
        for row in csv.reader(source):
            if not row:
                continue
            lat1, lon1, lat2, lon2 = (float(field) for field in row)
            result = Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2)
            target.write(f"{result['s12']!r},{result['azi1']!r},{result['azi2']!r}\n")
    sys.stderr.write(f"geographiclib {geographiclib.__version__}\n")


if __name__ == "__main__":
    main()
