#!/usr/bin/env python3
"""What a day's backlog costs through a default broker to the OwnTracks Recorder (issue 37), with a vehicle
driving meanwhile. Run by scripts/measure-uplink-drain.sh (sink `recorder`), which gives it:
  WAYMARK CONFIG SPOOL RECORDER_STORE AGENT_PID ARRIVALS BACKLOG_LAST STARTED
Waits until the Recorder stored every location the spool holds and the live drive has ended, then prints: the
backlog's locations, the seconds until the Recorder stored all of them and the agent's CPU by then (start-up
included), and how long the live locations waited from the agent's receipt of their fix (`recv`) to
their arrival at a subscriber of the same broker (median, 95th percentile, max), and how many of the backlog the
Recorder had stored when the first live position reached its "last"."""
import glob, json, os, sqlite3, statistics, sys, time
from datetime import datetime

waymark, config, spool, store, pid, arrivals, backlog_last, started = sys.argv[1:9]
pid, backlog_last, started = int(pid), int(backlog_last), float(started)
tck = os.sysconf("SC_CLK_TCK")


def stored():
    seqs = set()
    for path in glob.glob(f"{store}/rec/*/*/*.rec"):
        for line in open(path, errors="replace"):
            brace = line.find("{")
            try:
                message = json.loads(line[brace:])
            except ValueError:
                continue
            if message.get("_type") == "location" and "seq" in message:
                seqs.add(message["seq"])
    return seqs


def spooled():
    db = sqlite3.connect(f"file:{spool}?mode=ro", uri=True)
    rows = db.execute("SELECT seq, line FROM event WHERE kind = 1").fetchall()
    db.close()
    return {seq: json.loads(line) for seq, line in rows}


def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tck


db = sqlite3.connect(f"file:{spool}?mode=ro", uri=True)
backlog_count = db.execute("SELECT COUNT(*) FROM event WHERE kind = 1 AND seq <= ?", (backlog_last,)).fetchone()[0]
db.close()
live_seen_at = None
drained = None
deadline = time.time() + 4 * 3600
while time.time() < deadline:
    have = stored()
    if drained is None and len([s for s in have if s <= backlog_last]) >= backlog_count:
        drained = (time.time() - started, cpu())
    if live_seen_at is None:
        for path in glob.glob(f"{store}/last/*/*/*.json"):
            try:
                if json.load(open(path)).get("seq", 0) > backlog_last:
                    live_seen_at = (time.time() - started, len([s for s in have if s <= backlog_last]))
            except ValueError:
                pass
    events = spooled()
    if set(events) <= have and os.path.exists(arrivals + ".done"):
        break
    time.sleep(1)
finished = time.time()
seconds, used = finished - started, cpu()
events = spooled()
missing = set(events) - stored()
waits = []
seen = set()
for line in open(arrivals, errors="replace"):
    parts = line.strip().split(" ", 1)
    if len(parts) < 2:
        continue
    stamp, payload = parts
    try:
        message = json.loads(payload)
    except ValueError:
        continue
    seq = message.get("seq", 0)
    if seq <= backlog_last or seq in seen or message.get("_type") != "location" or seq not in events:
        continue
    seen.add(seq)
    recv = events[seq].get("recv")
    if recv:
        received = datetime.fromisoformat(recv.replace("Z", "+00:00")).timestamp()
        waits.append(float(stamp) - received)
waits.sort()
backlog = len([s for s in events if s <= backlog_last])
print(f"backlog locations      {backlog}")
print(f"live locations         {len(events) - backlog} ({len(waits)} seen by the subscriber)")
print(f"stored by the Recorder {len(events) - len(missing)} of {len(events)}")
if drained:
    print(f"backlog stored after   {drained[0]:.0f} s ({backlog / drained[0]:.1f} locations/s)")
    print(f"agent CPU by then      {drained[1]:.1f} s, {drained[1] * 1e6 / backlog:.0f} µs a backlog message")
print(f"until the drive ended  {seconds:.0f} s, agent CPU {used:.1f} s")
if waits:
    p95 = waits[min(len(waits) - 1, int(len(waits) * 0.95))]
    print(f"live waits             median {statistics.median(waits):.2f} s, p95 {p95:.2f} s, max {waits[-1]:.2f} s")
if live_seen_at:
    print(f"first live 'last'      after {live_seen_at[0]:.1f} s, with {live_seen_at[1]} of the backlog stored")
