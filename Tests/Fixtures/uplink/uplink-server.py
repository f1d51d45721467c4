#!/usr/bin/env python3
"""A loopback HTTP server standing in for two fleet backends in Waymark's tests.

- ``GET /`` or ``POST /``: Traccar's OsmAnd protocol, decoded as Traccar's
  ``src/main/java/org/traccar/protocol/OsmAndProtocolDecoder.java`` (``decodeQuery``) does.
- ``POST /batch``: JSON Lines batches, as they are or coded ``Content-Encoding: gzip`` (Python's gzip) or ``zstd``
  (the ``zstd`` command of Debian's zstd package: a backend's own tool, not Waymark's code). ``--codings`` narrows
  what it decodes: a body in another coding is answered ``--coding-status``, 415 with ``Accept-Encoding`` (RFC 7694)
  as a backend that checks the coding, or 400 as one that reads the body undecoded and finds no JSON.
- ``POST /_control`` scripts faults; ``GET /_control`` reports counters.

Each accepted item is appended to ``--log`` as one JSON line, before the answer is sent, so that a client that
has its ``200`` finds the item in the log. Python 3.11 standard library only.
"""

import argparse
import gzip
import http.server
import io
import itertools
import json
import math
import os
import re
import signal
import socket
import subprocess
import struct
import sys
import threading
import time
import zlib
from datetime import datetime, timedelta, timezone

MAX_BODY = 64 * 1024 * 1024
INT_MAX = 2**31 - 1  # Java's Integer.MAX_VALUE
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


class BadRequest(Exception):
    """Answered with 400 (or ``status``) and ``str(self)`` as the body."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------------------------------------------
# Java parsing rules, as Traccar's decoder relies on them


_JAVA_DOUBLE = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?"
    r"|0[xX](?:[0-9a-fA-F]+\.?|[0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)",
    re.ASCII,
)


def java_double(text):
    """``Double.parseDouble``: trims characters up to U+0020; ValueError like NumberFormatException."""
    text = text.strip("".join(chr(c) for c in range(0x21)))
    if not _JAVA_DOUBLE.fullmatch(text):
        raise ValueError(f"not a number: {text!r}")
    if text[-1] in "fFdD":  # a type suffix: hex digits never end the text, the binary exponent does
        text = text[:-1]
    return float.fromhex(text) if "x" in text.lower() else float(text)


def java_long(text, low=LONG_MIN, high=LONG_MAX):
    """``Long.parseLong`` (or ``Integer.parseInt`` with the int bounds)."""
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError(f"not an integer: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"out of range: {text!r}")
    return value


def java_int(text):
    return java_long(text, -(2**31), INT_MAX)


def java_boolean(text):
    """``Boolean.parseBoolean``: true only for "true" in any case."""
    return text.lower() == "true"


def java_split_comma(text):
    """``String.split(",")``: no match gives the whole string; trailing empty strings are dropped."""
    if "," not in text:
        return [text]
    parts = text.split(",")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def wrap_long(value):
    return (value + 2**63) % 2**64 - 2**63


_ISO_ZONED = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?"
    r"(?:([zZ])|([+-])(\d{2}):(\d{2})(?::(\d{2}))?)(?:\[[^\]]+\])?",
    re.ASCII,
)
_LOCAL = re.compile(r"(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})", re.ASCII)


def epoch_ms(moment):
    delta = moment - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def parse_timestamp(value):
    """Traccar's ``timestamp`` rule, in milliseconds since 1970."""
    try:
        number = java_long(value)
    except ValueError:
        number = None
    if number is not None:
        return wrap_long(number * 1000) if number < INT_MAX else number
    if "T" in value:
        # DateUtil.parseDate: DateTimeFormatter.ISO_ZONED_DATE_TIME (an offset is required; strict fields).
        match = _ISO_ZONED.fullmatch(value)
        if not match:
            raise ValueError(f"not an ISO zoned date-time: {value!r}")
        year, month, day, hour, minute = (int(match.group(i)) for i in range(1, 6))
        second = int(match.group(6) or 0)
        nanos = int((match.group(7) or "").ljust(9, "0"))
        if match.group(8):
            offset = timedelta(0)
        else:
            offset = timedelta(
                hours=int(match.group(10)), minutes=int(match.group(11)), seconds=int(match.group(12) or 0)
            )
            if offset > timedelta(hours=18):
                raise ValueError("offset out of range")
            offset = -offset if match.group(9) == "-" else offset
        moment = datetime(year, month, day, hour, minute, second, tzinfo=timezone(offset))
        return epoch_ms(moment) + nanos // 1_000_000
    # "yyyy-MM-dd HH:mm:ss" in the server's zone (taken as UTC here); SMART resolving clamps day 29-31.
    match = _LOCAL.fullmatch(value)
    if not match:
        raise ValueError(f"not a yyyy-MM-dd HH:mm:ss date: {value!r}")
    year, month, day, hour, minute, second = (int(g) for g in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        raise ValueError(f"bad date: {value!r}")
    while True:
        try:
            moment = datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
            break
        except ValueError:
            if day <= 28 or hour > 23 or minute > 59 or second > 59:
                raise
            day -= 1
    return epoch_ms(moment)


# ---------------------------------------------------------------------------------------------------------------
# Netty's QueryStringDecoder


def _decode_component(text):
    """``QueryStringDecoder.decodeComponent`` for a parameter: '+' is a space, %XX runs are UTF-8."""
    if "%" not in text and "+" not in text:
        return text
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c != "%":
            out.append(" " if c == "+" else c)
            i += 1
            continue
        run = bytearray()
        while i < n and text[i] == "%":
            pair = text[i + 1 : i + 3]
            if len(pair) < 2:
                raise ValueError(f"unterminated escape sequence at index {i}")
            if not all(ch in "0123456789abcdefABCDEF" for ch in pair):
                raise ValueError(f"invalid hex byte {pair!r} at index {i}")
            run.append(int(pair, 16))
            i += 3
        out.append(run.decode("utf-8", errors="replace"))
    return "".join(out)


def decode_params(text, has_path):
    """``new QueryStringDecoder(text, hasPath).parameters()``: an ordered dict of lists."""
    start = 0
    if has_path:
        start = len(text)
        for i, c in enumerate(text):
            if c in "?#":
                start = i
                break
    params = {}
    if start >= len(text):
        return params
    if text[start] == "?":
        start += 1
    name_start, value_start, count = start, -1, 0

    def add(end):
        nonlocal value_start
        if name_start >= end:
            return False
        vstart = value_start if value_start > name_start else end + 1
        name = _decode_component(text[name_start : vstart - 1])
        value = _decode_component(text[vstart:end]) if vstart <= end else ""
        params.setdefault(name, []).append(value)
        return True

    i = start
    while i < len(text):
        c = text[i]
        if c == "=":
            if name_start == i:
                name_start = i + 1
            elif value_start < name_start:
                value_start = i + 1
        elif c in "&;":
            if add(i):
                count += 1
                if count == 1024:
                    return params
            name_start = i + 1
        elif c == "#":
            break
        i += 1
    add(i)
    return params


# ---------------------------------------------------------------------------------------------------------------
# The two backends


def json_number(value):
    """Non-finite doubles (Java parses "NaN" and "Infinity") are logged as strings: JSON has no such numbers."""
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def osmand_params(uri, body):
    """The parameters of the request URI or, when it has none, of the body read as US-ASCII."""
    return decode_params(uri, True) or decode_params(body.decode("ascii", errors="replace"), False)


def decode_osmand(uri, body, devices):
    """Traccar's ``OsmAndProtocolDecoder.decodeQuery``; returns the log record or raises BadRequest."""
    try:
        params = osmand_params(uri, body)
    except ValueError as error:
        raise BadRequest(f"bad query string: {error}") from None
    record = {"kind": "osmand"}
    attributes = {}
    latitude = longitude = None
    for key, values in params.items():
        for value in values:
            try:
                if key in ("id", "deviceid"):
                    if value == "" or (devices is not None and value not in devices):
                        raise BadRequest("Unknown device")
                    record["device"] = value
                elif key == "notificationToken":
                    pass  # Traccar stores it with the device, not in the position.
                elif key == "valid":
                    record["valid"] = java_boolean(value) or value == "1"
                elif key == "timestamp":
                    record["time_ms"] = parse_timestamp(value)
                elif key == "lat":
                    latitude = java_double(value)
                elif key == "lon":
                    longitude = java_double(value)
                elif key == "location":
                    parts = java_split_comma(value)
                    latitude, longitude = java_double(parts[0]), java_double(parts[1])
                elif key == "cell":
                    cell = java_split_comma(value)
                    if len(cell) < 4:
                        raise IndexError("cell needs mcc,mnc,lac,cid[,rssi]")
                    record.setdefault("cells", []).append([java_int(f) for f in cell[: 5 if len(cell) > 4 else 4]])
                elif key == "wifi":
                    wifi = java_split_comma(value)
                    access_point = {"mac": wifi[0].replace("-", ":"), "rssi": java_int(wifi[1])}
                    record.setdefault("wifi", []).append(access_point)
                elif key == "speed":
                    record["speed_knots"] = json_number(java_double(value))
                elif key in ("bearing", "heading"):
                    record["course"] = json_number(java_double(value))
                elif key in ("altitude", "accuracy", "hdop"):
                    record[key] = json_number(java_double(value))
                elif key == "batt":
                    attributes["batteryLevel"] = json_number(java_double(value))
                elif key == "driverUniqueId":
                    if value:
                        attributes["driverUniqueId"] = value
                elif key == "charge":
                    attributes["charge"] = java_boolean(value)
                else:
                    try:
                        attributes[key] = json_number(java_double(value))
                    except ValueError:
                        if value in ("true", "false"):
                            attributes[key] = value == "true"
                        elif value:  # ExtendedModel.set(String, String) ignores empty strings
                            attributes[key] = value
            except BadRequest:
                raise
            except (ValueError, IndexError, OverflowError) as error:
                raise BadRequest(f"bad parameter {key}={value!r}: {error}") from None
    if "device" not in record:
        raise BadRequest("no device id (id or deviceid)")
    if latitude is None or longitude is None:
        raise BadRequest("no position (lat and lon, or location)")
    if not (-90 <= latitude <= 90) or not (-180 <= longitude <= 180):
        raise BadRequest("latitude or longitude out of range")
    record["lat"], record["lon"] = latitude, longitude
    if attributes:
        record["attributes"] = attributes
    return record


def _strict_json(text):
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def decode_batch_body(body, encoding):
    """The events of a batch body coded with ``encoding`` (its Content-Encoding), or raises BadRequest."""
    if encoding == "gzip":
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError, zlib.error) as error:
            raise BadRequest(f"bad gzip body: {error}") from None
    elif encoding == "zstd":
        decoded = subprocess.run(["zstd", "-d", "-q", "-c"], input=body, capture_output=True)
        if decoded.returncode != 0:
            raise BadRequest(f"bad zstd body: {decoded.stderr.decode(errors='replace').strip()}")
        body = decoded.stdout
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadRequest(f"body is not UTF-8: {error}") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise BadRequest("empty batch")
    events = []
    for number, line in enumerate(lines, 1):
        try:
            event = _strict_json(line)
        except ValueError as error:
            raise BadRequest(f"line {number} is not JSON: {error}") from None
        if not isinstance(event, dict):
            raise BadRequest(f"line {number} is not a JSON object")
        seq = event.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise BadRequest(f"line {number} has no integer seq")
        events.append(event)
    return events


def batch_seqs(body, encoding):
    """The seqs a batch body holds, for fault matching; empty when the body is bad."""
    try:
        return {event["seq"] for event in decode_batch_body(body, encoding)}
    except BadRequest:
        return set()


# ---------------------------------------------------------------------------------------------------------------
# State shared by the handler threads


class State:
    def __init__(self, log_path, devices):
        self.lock = threading.Lock()
        self.log = open(log_path, "a", encoding="utf-8")
        self.devices = devices
        self.faults = []
        self.since_control = 0
        self.requests = 0
        self.refused = 0
        self.resets = 0
        self.connections = itertools.count(1)

    def append(self, records):
        with self.lock:
            for record in records:
                self.log.write(json.dumps(record, separators=(",", ":")) + "\n")
                self.log.flush()

    def set_faults(self, faults):
        with self.lock:
            self.faults = faults
            self.since_control = 0

    def take_fault(self, path, seqs, count_only=False):
        """Counts the request and returns the first fault that matches it (using up one of its times)."""
        with self.lock:
            self.requests += 1
            self.since_control += 1
            if count_only:
                return None
            for fault in self.faults:
                if fault["times"] is not None and fault["times"] <= 0:
                    continue
                match = fault["match"]
                if "path" in match and match["path"] != path:
                    continue
                if "request" in match and match["request"] != self.since_control:
                    continue
                if "seq" in match and match["seq"] not in seqs:
                    continue
                if fault["times"] is not None:
                    fault["times"] -= 1
                if fault.get("reset"):
                    self.resets += 1
                elif "status" in fault:
                    self.refused += 1
                return fault
            return None


def parse_faults(document):
    if not isinstance(document, dict) or not isinstance(document.get("faults"), list):
        raise BadRequest('expected {"faults": [...]}')
    faults = []
    for item in document["faults"]:
        if not isinstance(item, dict):
            raise BadRequest("a fault must be an object")
        fault = dict(item)
        match = fault.get("match", {})
        if not isinstance(match, dict) or set(match) - {"seq", "path", "request"}:
            raise BadRequest(f"bad match: {match!r}")
        fault["match"] = match
        times = fault.get("times")
        if times is not None and (not isinstance(times, int) or isinstance(times, bool)):
            raise BadRequest(f"bad times: {times!r}")
        fault["times"] = times
        status = fault.get("status")
        if status is not None and (not isinstance(status, int) or not 100 <= status <= 599):
            raise BadRequest(f"bad status: {status!r}")
        delay = fault.get("delay")
        if delay is not None and (not isinstance(delay, (int, float)) or delay < 0):
            raise BadRequest(f"bad delay: {delay!r}")
        faults.append(fault)
    return faults


# ---------------------------------------------------------------------------------------------------------------
# HTTP


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "uplink-test-server"
    sys_version = ""

    def setup(self):
        super().setup()
        self.connection_id = next(self.server.state.connections)

    # -- plumbing -------------------------------------------------------------------------------------------

    def log_request(self, code="-", size="-"):
        pass  # handle_request logs its own line

    def log_message(self, format, *args):
        sys.stderr.write(f"uplink-server: conn={getattr(self, 'connection_id', '?')} {format % args}\n")

    def note(self, status, detail=""):
        if self.server.quiet:
            return
        line = f"conn={self.connection_id} {self.command} {ascii(self.path[:120])[1:-1]} -> {status}"
        sys.stderr.write(f"uplink-server: {line}{' ' + detail if detail else ''}\n")

    def answer(self, status, body=b"", content_type="text/plain; charset=utf-8", headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def read_body(self):
        """The request body (Content-Length or chunked); BadRequest when it cannot be read (closes then)."""
        encoding = (self.headers.get("Transfer-Encoding") or "").strip().lower()
        if encoding:
            if encoding != "chunked":
                self.close_connection = True
                raise BadRequest(f"unsupported Transfer-Encoding {encoding!r}", 501)
            return self.read_chunked()
        length = self.headers.get_all("Content-Length") or []
        if not length:
            return b""
        if len(set(length)) != 1 or not re.fullmatch(r"\d{1,12}", length[0].strip()):
            self.close_connection = True
            raise BadRequest("bad Content-Length")
        size = int(length[0])
        if size > MAX_BODY:
            self.close_connection = True
            raise BadRequest("body too large", 413)
        body = self.rfile.read(size)
        if len(body) != size:
            self.close_connection = True
            raise BadRequest("body shorter than Content-Length")
        return body

    def read_chunked(self):
        body = bytearray()
        while True:
            line = self.rfile.readline(1024)
            match = re.fullmatch(rb"([0-9a-fA-F]{1,8})(?:;[^\r\n]*)?\r?\n", line)
            if not match:
                self.close_connection = True
                raise BadRequest("bad chunk size line")
            size = int(match.group(1), 16)
            if size == 0:
                break
            if len(body) + size > MAX_BODY:
                self.close_connection = True
                raise BadRequest("body too large", 413)
            chunk = self.rfile.read(size)
            if len(chunk) != size or self.rfile.readline(3) not in (b"\r\n", b"\n"):
                self.close_connection = True
                raise BadRequest("truncated chunk")
            body += chunk
        for _ in range(100):  # trailers
            if self.rfile.readline(8192) in (b"\r\n", b"\n", b""):
                return bytes(body)
        self.close_connection = True
        raise BadRequest("too many trailers")

    def reset(self):
        """Closes the socket with SO_LINGER 0: the client sees a connection reset, not a reply."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        # rfile holds a reference to the socket: close it first so that close() really closes, and leave
        # harmless stand-ins for what BaseHTTPRequestHandler and StreamRequestHandler still do with them.
        self.rfile.close()
        self.connection.close()
        self.rfile, self.wfile = io.BytesIO(), io.BytesIO()

    # -- requests -------------------------------------------------------------------------------------------

    def do_GET(self):
        self.handle_request()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_GET

    def handle_request(self):
        try:
            self.dispatch()
        except BadRequest as error:
            self.note(error.status, str(error))
            self.answer(error.status, str(error))
        except OSError as error:  # the client went away
            self.close_connection = True
            self.note("-", f"connection error: {error!r}")
        except Exception as error:  # never crash on a client's input
            self.close_connection = True
            self.note(500, f"internal error: {error!r}")
            try:
                self.answer(500, f"internal error: {error!r}")
            except Exception:
                pass

    def dispatch(self):
        state = self.server.state
        path = self.path.partition("?")[0].partition("#")[0]
        try:
            body = self.read_body()
        except BadRequest:
            if path != "/_control":
                state.take_fault(path, set(), count_only=True)  # counted, never faulted: the connection is out of step
            raise
        if path == "/_control":
            self.control(body)
            return

        encoding = (self.headers.get("Content-Encoding") or "identity").strip().lower()
        if path == "/batch" and self.command == "POST" and self.refuse_coding(encoding):
            return
        seqs = set()
        if path == "/batch":
            seqs = batch_seqs(body, encoding)
        elif path == "/":
            try:
                seqs = {java_double(value) for value in osmand_params(self.path, body).get("seq", [])}
            except ValueError:
                pass  # the decoder answers 400 below
        fault = state.take_fault(path, seqs)
        if fault is not None:
            # Faults go to the log too, with when they were answered, so that a test checks the client's waits.
            kind = "reset" if fault.get("reset") else "status" if "status" in fault else "delay"
            state.append([{"kind": "fault", "fault": kind, "status": fault.get("status"), "path": path,
                           "seqs": sorted(seqs), "at": time.monotonic(), "connection": self.connection_id}])
            if fault.get("delay"):
                time.sleep(fault["delay"])
            if fault.get("reset"):
                self.note("reset", "(fault)")
                self.reset()
                return
            if "status" in fault:
                headers = [("Retry-After", str(fault["retry_after"]))] if fault.get("retry_after") is not None else []
                self.note(fault["status"], "(fault)")
                self.answer(fault["status"], str(fault.get("body", "")), headers=headers)
                return

        if path == "/" and self.command in ("GET", "POST"):
            content_type = self.headers.get("Content-Type") or ""
            if content_type.startswith("application/json"):
                raise BadRequest("the OsmAnd JSON format is not supported by this test server")
            record = decode_osmand(self.path, body, state.devices)
            record["connection"] = self.connection_id
            record["at"] = time.monotonic()
            # The request as it came over the wire: its line, its headers and its body.
            record["wire_bytes"] = len(self.requestline) + 2 + len(str(self.headers)) + len(body)
            state.append([record])
            self.note(200, f"osmand {record['device']}")
            self.answer(200)
        elif path == "/batch" and self.command == "POST":
            self.batch(body, encoding)
        else:
            raise BadRequest("not found", 404)

    def refuse_coding(self, encoding):
        """Answers a batch in a coding this server does not decode (``--codings``), before any fault: it cannot read
        the events. Says whether it did."""
        codings, status = self.server.codings, self.server.coding_status
        if encoding not in ("gzip", "zstd", "identity") or encoding in codings:
            return False
        self.server.state.append([{"kind": "coding_refused", "encoding": encoding, "status": status,
                                   "at": time.monotonic(), "connection": self.connection_id}])
        headers = [("Accept-Encoding", ", ".join(codings))] if status == 415 else []
        self.note(status, f"batch in {encoding}, which this server does not decode")
        self.answer(status, f"unsupported Content-Encoding {encoding!r}", headers=headers)
        return True

    def batch(self, body, encoding):
        if encoding not in ("gzip", "zstd", "identity"):
            raise BadRequest(f"unsupported Content-Encoding {encoding!r}", 415)
        media = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if media != "application/x-ndjson":
            raise BadRequest(f"Content-Type must be application/x-ndjson, not {media!r}", 415)
        device = self.headers.get("Waymark-Device")
        first, last = self.headers.get("Waymark-First-Seq"), self.headers.get("Waymark-Last-Seq")
        if not device or first is None or last is None:
            raise BadRequest("Waymark-Device, Waymark-First-Seq and Waymark-Last-Seq are required")
        try:
            first, last = int(first.strip()), int(last.strip())
        except ValueError:
            raise BadRequest("Waymark-First-Seq and Waymark-Last-Seq must be integers") from None
        events = decode_batch_body(body, encoding)
        if events[0]["seq"] != first or events[-1]["seq"] != last:
            raise BadRequest(
                f"seq {events[0]['seq']}..{events[-1]['seq']} does not match the headers {first}..{last}"
            )
        common = {"kind": "batch", "device": device, "first_seq": first, "last_seq": last, "gzip": encoding == "gzip",
                  "encoding": encoding,
                  "at": time.monotonic()}
        self.server.state.append(
            [{**common, "wire_bytes": len(body), "event": e, "connection": self.connection_id} for e in events]
        )
        self.note(200, f"batch {device} {first}..{last} ({len(events)} events, {len(body)} bytes)")
        self.answer(200)

    def control(self, body):
        state = self.server.state
        if self.command == "GET":
            with state.lock:
                counts = {"requests": state.requests, "refused": state.refused, "resets": state.resets}
            self.note(200, f"control: {counts}")
            self.answer(200, json.dumps(counts), "application/json")
        elif self.command == "POST":
            try:
                document = _strict_json(body.decode("utf-8"))
            except ValueError as error:
                raise BadRequest(f"control body is not JSON: {error}") from None
            faults = parse_faults(document)
            state.set_faults(faults)
            self.note(200, f"control: {len(faults)} faults")
            self.answer(200, "{}", "application/json")
        else:
            raise BadRequest("not found", 404)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        sys.stderr.write(f"uplink-server: error with {client_address}: {sys.exc_info()[1]!r}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--devices", help="comma-separated known device ids for the OsmAnd endpoint")
    parser.add_argument("--port", type=int, default=0, help="the port to listen on (0: one the kernel chooses)")
    parser.add_argument("--quiet", action="store_true", help="no line per request on stderr (measurements)")
    parser.add_argument("--codings", default="identity,gzip,zstd",
                        help="the content codings the batch endpoint decodes, comma-separated")
    parser.add_argument("--coding-status", type=int, default=415, choices=(400, 415),
                        help="the answer to a batch in another coding: 415 with Accept-Encoding, or 400")
    parser.add_argument("--tls-cert", help=argparse.SUPPRESS)
    parser.add_argument("--tls-key", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    devices = None
    if arguments.devices is not None:
        devices = {d.strip() for d in arguments.devices.split(",") if d.strip()}

    server = Server(("127.0.0.1", arguments.port), Handler)
    server.state = State(arguments.log, devices)
    server.quiet = arguments.quiet
    server.codings = [c.strip() for c in arguments.codings.split(",") if c.strip()]
    server.coding_status = arguments.coding_status
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())

    temporary = f"{arguments.port_file}.tmp{os.getpid()}"
    with open(temporary, "w", encoding="ascii") as file:
        file.write(f"{server.server_address[1]}\n")
    os.replace(temporary, arguments.port_file)
    sys.stderr.write(f"uplink-server: listening on 127.0.0.1:{server.server_address[1]}\n")

    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    while not stopping.wait(0.1):
        pass
    server.shutdown()
    server.server_close()
    with server.state.lock:
        server.state.log.close()
    sys.stderr.write("uplink-server: stopped\n")


if __name__ == "__main__":
    main()
