#!/usr/bin/python3
"""Writes an NMEA receiver log COPIES times in a row as one drive, for scripts/bench-live.sh: each copy after the
first is moved later in time by the log's span plus one second, so a client sees one drive COPIES times as long,
its time going forward as a receiver's does, not back to the first copy's start at each copy (which the agent takes
as a reset of the receiver's clock: a time base reset and a few fixes judged out of order). The UTC times and dates
of RMC, GGA, GLL, GNS, GST, GBS, GRS and ZDA sentences move, their checksums are made again; a sentence whose
checksum was wrong and every other line are copied as they are.

    continue-log.py LOG COPIES [LINES] > FEED

LINES, when given and above 0, takes only the first LINES lines of LOG.
"""
import datetime
import sys

# Sentence type: (index of its hhmmss field, index of its ddmmyy date field or None). ZDA's date is three fields.
TIMED = {"RMC": (1, 9), "GGA": (1, None), "GLL": (5, None), "GNS": (1, None), "GST": (1, None),
         "GBS": (1, None), "GRS": (1, None), "ZDA": (1, "zda")}


def checksum(body):
    value = 0
    for byte in body.encode("ascii", "replace"):
        value ^= byte
    return f"{value:02X}"


def parse_time(text):
    """Seconds of the day of an hhmmss[.ss] field, or None."""
    if len(text) < 6 or not text[:6].isdigit():
        return None
    return int(text[0:2]) * 3600 + int(text[2:4]) * 60 + int(text[4:6])


def format_time(seconds, original):
    seconds %= 86400
    return f"{seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}{original[6:]}"


def timed(line):
    """(fields, trailing text, time index, date index, seconds of the day) of a standard sentence with a time
    and a valid checksum, or None: a sentence the receiver garbled stays as it is, to be refused by gpsd in
    every copy."""
    if not line.startswith("$") or "*" not in line or len(line) < 7 or line[1] == "P":
        return None
    body, _, rest = line[1:].partition("*")
    fields = body.split(",")
    if fields[0][2:] not in TIMED or rest[:2].upper() != checksum(body):
        return None
    time_index, date_index = TIMED[fields[0][2:]]
    if time_index >= len(fields) or (seconds := parse_time(fields[time_index])) is None:
        return None
    return fields, rest[2:], time_index, date_index, seconds


def day_of(fields, date_index):
    """The date a sentence carries (RMC's ddmmyy, ZDA's dd mm yyyy), or None."""
    try:
        if date_index == "zda":
            return datetime.date(int(fields[4]), int(fields[3]), int(fields[2]))
        if date_index is not None:
            text = fields[date_index]
            return datetime.date(2000 + int(text[4:6]), int(text[2:4]), int(text[0:2]))
    except (IndexError, ValueError):
        pass
    return None


def set_day(fields, date_index, day):
    if date_index == "zda":
        fields[2], fields[3], fields[4] = f"{day.day:02d}", f"{day.month:02d}", f"{day.year:04d}"
    else:
        fields[date_index] = f"{day.day:02d}{day.month:02d}{day.year % 100:02d}"


def instants(lines):
    """The UTC instants of the log's dated sentences, and the times of day of all its timed ones."""
    dated, times = [], []
    for line in lines:
        if (sentence := timed(line)) is None:
            continue
        fields, _, _, date_index, seconds = sentence
        times.append(seconds)
        if (day := day_of(fields, date_index)) is not None:
            dated.append(datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(seconds=seconds))
    return dated, times


def shifted(line, offset):
    if offset == 0 or (sentence := timed(line)) is None:
        return line
    fields, trailing, time_index, date_index, seconds = sentence
    fields[time_index] = format_time(seconds + offset, fields[time_index])
    days = (seconds + offset) // 86400
    if days and (day := day_of(fields, date_index)) is not None:
        set_day(fields, date_index, day + datetime.timedelta(days=days))
    body = ",".join(fields)
    return f"${body}*{checksum(body)}{trailing}"


def main():
    log, copies = sys.argv[1], int(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with open(log, newline="") as source:
        lines = source.readlines()
    if limit > 0:
        lines = lines[:limit]
    dated, times = instants(lines)
    if not times and copies > 1:
        sys.exit(f"continue-log: {log}: no sentence with a time (RMC, GGA, GLL, GNS, GST, GBS, GRS, ZDA) to move")
    # The dated sentences may not be the first and last with a time (a GGA before the first RMC): the span is
    # the longer of the two measures.
    span = max(int((max(dated) - min(dated)).total_seconds()) if dated else 0,
               (times[-1] - times[0]) % 86400 if times else 0)
    out = sys.stdout
    for copy in range(copies):
        offset = copy * (span + 1)
        out.writelines(shifted(line, offset) for line in lines)


if __name__ == "__main__":
    main()
