#!/usr/bin/env python3
"""What each content coding and level of the batch sink costs: bytes per location and CPU per location, over the
deferral windows of a spool (each request's body: a window's JSON Lines, through its `deferred_finished`).

    scripts/measure-coding-levels.py [--recv] SPOOL [ROUNDS]
    scripts/measure-coding-levels.py [--recv] --fields SPOOL

The lines are those the sink sends by default: without `recv` (a live spool's lines have it, a replay's do not);
--recv keeps it, as `[sinks.http] recv = true` does.

--fields asks what the JSON Lines leave to compress instead: the zstd 19 body bytes per location of the windows as
they are, with one field taken out of every location line at a time (what that field costs), and with the location
lines' fields in two other orders (constant and slowly changing fields first, or last). An experiment on the lines,
not a change: every value stays in the agent's lines.

The bodies are coded by the very libraries and calls the agent makes (CUplink): zlib's deflate with gzip's framing
(libz.so.1, deflateInit2 with 15 + 16 window bits, memory level 8) and ZSTD_compress2 with the agent's capped
window and tables (libzstd.so.1), loaded with
ctypes; the CPU is this process's (time.process_time) over ROUNDS passes (default 5), the median pass, divided by
the locations. Bytes are the bodies only (no headers: scripts/measure-air-bytes.sh measures those). Where
Debian's python3-brotli is there, brotli (`Content-Encoding: br`, RFC 7932, which the agent does not send) is
measured beside them at qualities 5, 9, 10 and 11 with a 64 KB window, for comparison.
"""
import ctypes
import re
import sqlite3
import statistics
import sys
import time
import zlib

arguments = sys.argv[1:]
recv = "--recv" in arguments
fields = "--fields" in arguments
arguments = [argument for argument in arguments if argument not in ("--recv", "--fields")]
spool, rounds = arguments[0], int(arguments[1]) if len(arguments) > 1 else 5
database = sqlite3.connect(f"file:{spool}?mode=ro", uri=True)
rows = database.execute("SELECT kind, CAST(line AS BLOB) FROM event ORDER BY seq").fetchall()
locations = sum(1 for kind, _ in rows if kind == 1)
windows, current = [], []
for _, line in rows:
    # As BatchTransport.body: the top-level `recv` member out, unless asked (a key is the only place its bytes occur).
    current.append(bytes(line) if recv else re.sub(rb',"recv":"[^"]*"', b"", bytes(line), count=1))
    if b'"type":"deferred_finished"' in line:
        windows.append(b"\n".join(current) + b"\n")
        current = []
if current:
    windows.append(b"\n".join(current) + b"\n")

zstd = ctypes.CDLL("libzstd.so.1")
zstd.ZSTD_compressBound.restype = ctypes.c_size_t
zstd.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
zstd.ZSTD_createCCtx.restype = ctypes.c_void_p
zstd.ZSTD_freeCCtx.argtypes = [ctypes.c_void_p]
zstd.ZSTD_CCtx_setParameter.restype = ctypes.c_size_t
zstd.ZSTD_CCtx_setParameter.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
zstd.ZSTD_compress2.restype = ctypes.c_size_t
zstd.ZSTD_compress2.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]
output = ctypes.create_string_buffer(zstd.ZSTD_compressBound(max(map(len, windows))))
# As Sources/CUplink/zstd.c: the level, then a 64 KB window, 2^15 hash and 2^16 chain entries (zstd.h's
# ZSTD_c_compressionLevel 100, ZSTD_c_windowLog 101, ZSTD_c_hashLog 102, ZSTD_c_chainLog 103).
ZSTD_PARAMETERS = ((101, 16), (102, 15), (103, 16))


def zstd_size(body, level):
    context = zstd.ZSTD_createCCtx()
    for parameter, value in ((100, level),) + ZSTD_PARAMETERS:
        assert not zstd.ZSTD_isError(zstd.ZSTD_CCtx_setParameter(context, parameter, value))
    written = zstd.ZSTD_compress2(context, output, len(output), body, len(body))
    zstd.ZSTD_freeCCtx(context)
    assert not zstd.ZSTD_isError(written)
    return written


try:
    import brotli  # Debian's python3-brotli: not a coding the agent has, measured to say what it would give
except ImportError:
    brotli = None


def brotli_size(body, level):
    return len(brotli.compress(body, quality=level, lgwin=16))


def gzip_size(body, level):
    coder = zlib.compressobj(level, zlib.DEFLATED, 15 + 16, 8)
    return len(coder.compress(body) + coder.flush())


def measure(code, level):
    size = sum(code(body, level) for body in windows)
    passes = []
    for _ in range(rounds):
        started = time.process_time()
        for body in windows:
            code(body, level)
        passes.append(time.process_time() - started)
    return size / locations, statistics.median(passes) * 1e6 / locations


def location_fields(line):
    """The fields of a location line as (key, raw value text) pairs; location lines hold no nested values."""
    return [tuple(pair.split(":", 1)) for pair in line.decode()[1:-1].split(",")]


def rewritten(change):
    """The windows' bodies with every location line's fields passed through `change`."""
    bodies = []
    for body in windows:
        lines = []
        for line in body.rstrip(b"\n").split(b"\n"):
            if line.startswith(b'{"type":"location"'):
                line = ("{" + ",".join(f"{k}:{v}" for k, v in change(location_fields(line))) + "}").encode()
            lines.append(line)
        bodies.append(b"\n".join(lines) + b"\n")
    return sum(zstd_size(body, 19) for body in bodies) / locations


if fields:
    base = rewritten(lambda pairs: pairs)
    print(f"zstd 19, the lines as they are: {base:.2f} body bytes a location")
    keys = {}
    for line in (line for body in windows for line in body.split(b"\n") if line.startswith(b'{"type":"location"')):
        keys.update((k, None) for k, _ in location_fields(line))
    for key in keys:
        print(f"without {key:<12} {base - rewritten(lambda pairs: [p for p in pairs if p[0] != key]):6.2f} less")
    steady = ['"type"', '"device"', '"mode"', '"h_acc"', '"v_acc"', '"speed_acc"', '"alt_hae"', '"alt_msl"']
    first = lambda pairs: sorted(pairs, key=lambda p: (p[0] not in steady, steady.index(p[0]) if p[0] in steady else 0))
    last = lambda pairs: sorted(pairs, key=lambda p: p[0] in steady)
    print(f"constant and slow fields first: {rewritten(first):.2f}; last: {rewritten(last):.2f}")
    sys.exit(0)

raw = sum(map(len, windows))
print(f"{len(windows)} windows, {locations} locations, {len(rows) / len(windows):.0f} events a window, "
      f"{raw / locations:.1f} bytes of JSON Lines a location")
print(f"{'coding':<8} {'level':>5} {'body B/loc':>10} {'cpu µs/loc':>10}")
codings = [("gzip", gzip_size, (1, 6, 9)), ("zstd", zstd_size, (1, 3, 6, 9, 12, 15, 17, 19))]
if brotli:
    codings.append(("br", brotli_size, (5, 9, 10, 11)))
else:
    print("br: not measured (apt-get install python3-brotli, and run this with /usr/bin/python3)")
for name, code, levels in codings:
    for level in levels:
        size, cpu = measure(code, level)
        print(f"{name:<8} {level:5d} {size:10.2f} {cpu:10.2f}")
