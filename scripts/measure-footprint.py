#!/usr/bin/env python3
"""What `waymark run` costs a board in memory, and how soon it speaks, next to gpsd's own clients.

    scripts/measure-footprint.py [--rounds N] [--peer PATH] [--copies K] [--drive-only] [LOG]

Every round, for the board's binary (scripts/build-release.sh, or WAYMARK=PATH) and, with --peer, another
build measured the same way in the same round:

- drive: ONE real gpsd replays LOG (default the Regensburg drive) K times in a row as one drive (default: enough
  copies for 10,000 TPV) to `waymark run --print` with its default configuration (spool and file sink on, a fresh
  state directory), `gpspipe -w` and the Python gps client (python3-gps), all watching from the first sentence.
  Peak RSS of each is GNU time's "Maximum resident set size"; the agent's CPU seconds too. The agents' peak
  anonymous memory (what a board cannot reclaim: heap, stacks, dirty private pages) is RssAnon of
  /proc/PID/status sampled every 10 ms through the drive, with the anonymous mappings of /proc/PID/smaps at that
  peak (the heap, the mmap'd arenas and stacks, by address range) printed from the last round.
- idle: `waymark run` connected to a gpsd that has no receiver, after 5 s: VmRSS, RssAnon and RssFile.
- start: the time from starting `waymark run --print` (gpsd connected, no receiver) to its first event on
  stdout, over 10 starts.

Prints medians over the rounds, then, from the last round, where the idle agent's RSS is: smaps_rollup and the
largest mappings of /proc/PID/smaps.
"""

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_LOG = os.path.join(ROOT, "Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log")

PYTHON_CLIENT = """
import sys, gps
session = gps.gps(host="127.0.0.1", port=sys.argv[1], mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
fixes = 0
for report in session:
    if report["class"] == "TPV" and "lat" in report:
        fixes += 1
        print(report.get("time"), report["lat"], report["lon"])
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_listening(port, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    sys.exit(f"nothing listens on 127.0.0.1:{port}")


def socat_listening(port):
    entry = "0100007F:%04X 00000000:0000 0A" % port
    with open("/proc/net/tcp") as table:
        return entry in table.read()


class Gpsd:
    """A real gpsd; with `feed`, reading that file through socat once its first client watches."""

    def __init__(self, work, feed=None, delay=1.0):
        self.port = free_port()
        self.processes = []
        device = []
        if feed:
            feed_port = free_port()
            self.processes.append(subprocess.Popen(
                ["socat", "-u", f"SYSTEM:sleep {delay}; exec cat {feed}",
                 f"TCP-LISTEN:{feed_port},bind=127.0.0.1,reuseaddr"], stderr=subprocess.DEVNULL))
            while not socat_listening(feed_port):
                time.sleep(0.02)
            device = [f"tcp://127.0.0.1:{feed_port}"]
        self.processes.append(subprocess.Popen(
            ["/usr/sbin/gpsd", "-N", "-b", "-S", str(self.port), "-F", os.path.join(work, f"ctl{self.port}.sock")]
            + device, stderr=subprocess.DEVNULL))
        wait_listening(self.port)

    def stop(self):
        for process in self.processes:
            process.kill()
            process.wait()


def config(directory):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "waymark.toml")
    with open(path, "w") as file:
        # A runtime directory of its own: the agent and its peer each hold theirs (a second agent sharing one
        # refuses to start).
        file.write(f'[agent]\nstate_dir = "{directory}/state"\nlog_dir = "{directory}/logs"\n'
                   f'runtime_dir = "{directory}/run"\n')
    return path


def timed(command, output, time_file):
    return subprocess.Popen(["/usr/bin/time", "-v", "-o", time_file] + command,
                            stdout=open(output, "wb"), stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def time_figures(path):
    figures = {}
    for line in open(path):
        key, _, value = line.strip().rpartition(": ")
        figures[key] = value
    return {"rss_kb": int(figures["Maximum resident set size (kbytes)"]),
            "cpu_s": float(figures["User time (seconds)"]) + float(figures["System time (seconds)"])}


class AnonSampler(threading.Thread):
    """Samples RssAnon of the process under GNU time `wrapper` every 10 ms; keeps the peak and the anonymous
    mappings of /proc/PID/smaps at the time of that peak."""

    def __init__(self, wrapper):
        super().__init__(daemon=True)
        self.wrapper, self.peak_kb, self.mappings, self.stopped = wrapper, 0, [], threading.Event()

    def run(self):
        pid = None
        while not self.stopped.is_set():
            try:
                if pid is None:
                    children = open(f"/proc/{self.wrapper}/task/{self.wrapper}/children").read().split()
                    pid = int(children[0]) if children else None
                if pid is not None:
                    anon = status(pid).get("RssAnon", 0)
                    if anon > self.peak_kb:
                        self.peak_kb = anon
                        # Only when the peak grew by 64 kB or more: reading smaps costs the process little.
                        if anon - getattr(self, "mapped_at", 0) >= 64:
                            self.mapped_at, self.mappings = anon, anonymous_mappings(pid)
            except (OSError, ValueError, IndexError):
                pass
            time.sleep(0.01)


def anonymous_mappings(pid):
    """(Anonymous kB, range, name) of each mapping of /proc/PID/smaps that holds anonymous pages."""
    mappings, current = [], None
    for line in open(f"/proc/{pid}/smaps"):
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
            current = (fields[0], " ".join(fields[5:]) or "[anonymous]")
        elif fields[0] == "Anonymous:" and int(fields[1]) > 0:
            mappings.append((int(fields[1]), current[0], current[1]))
    return sorted(mappings, reverse=True)


def drive(binaries, feed, work, tpv):
    """One gpsd, every client at once; their peak RSS (and the agents' CPU and peak anonymous memory)."""
    gpsd = Gpsd(work, feed)
    clients = {}
    samplers = {}
    for name, binary in binaries.items():
        directory = os.path.join(work, f"drive-{name}")
        command = [binary, "run", "--print", "--config", config(directory), "--gpsd", f"127.0.0.1:{gpsd.port}"]
        clients[name] = (timed(command, f"{directory}/out", f"{directory}/time"), directory)
        samplers[name] = AnonSampler(clients[name][0].pid)
        samplers[name].start()
    clients["gpspipe"] = (timed(["gpspipe", "-w", f"127.0.0.1:{gpsd.port}"], f"{work}/gpspipe.out",
                                f"{work}/gpspipe.time"), work + "/gpspipe")
    clients["python-gps"] = (timed(["/usr/bin/python3", "-c", PYTHON_CLIENT, str(gpsd.port)], f"{work}/python.out",
                                   f"{work}/python.time"), work + "/python")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        # The end of the feed: gpsd's DEVICE with "activated":0, which gpspipe writes at once (the agents buffer
        # --print's lines, so theirs may come only when they stop).
        done = all(b'"code":"no_device"' in open(f"{directory}/out", "rb").read()[-8192:]
                   for name, (_, directory) in clients.items() if name in binaries)
        if done or b'"activated":0' in open(f"{work}/gpspipe.out", "rb").read()[-8192:]:
            break
        time.sleep(0.2)
    else:
        sys.exit("the drive did not end within 300 s")
    time.sleep(2)
    for sampler in samplers.values():
        sampler.stopped.set()
        sampler.join()
    figures = {}
    for name, (process, directory) in clients.items():
        # GNU time ignores SIGINT while it waits: the client itself gets it.
        for child in open(f"/proc/{process.pid}/task/{process.pid}/children").read().split():
            os.kill(int(child), signal.SIGINT)
    for name, (process, directory) in clients.items():
        process.wait(timeout=20)
        figures[name] = time_figures(f"{directory}/time" if name in binaries else
                                     {"gpspipe": f"{work}/gpspipe.time", "python-gps": f"{work}/python.time"}[name])
    gpsd.stop()
    for name in binaries:
        locations = open(os.path.join(work, f"drive-{name}", "out"), "rb").read().count(b'"type":"location"')
        figures[name]["locations"] = locations
        figures[name]["anon_kb"] = samplers[name].peak_kb
        figures[name]["anon_mappings"] = samplers[name].mappings
    python_fixes = sum(1 for _ in open(f"{work}/python.out"))
    figures["python-gps"]["fixes"] = python_fixes
    return figures


def status(pid):
    values = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            values[key] = int(value.split()[0])
    return values


def idle(binary, name, work, show):
    gpsd = Gpsd(work)
    directory = os.path.join(work, f"idle-{name}")
    agent = subprocess.Popen([binary, "run", "--config", config(directory), "--gpsd", f"127.0.0.1:{gpsd.port}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    figures = status(agent.pid)
    if show:
        print(f"\n{name}, idle (connected, no receiver): /proc/{agent.pid}/smaps_rollup")
        for line in open(f"/proc/{agent.pid}/smaps_rollup").read().splitlines()[1:12]:
            print("   ", line)
        print("  largest mappings (Rss):")
        for rss, mapping in largest_mappings(agent.pid)[:10]:
            print(f"    {rss:6d} kB  {mapping}")
    agent.send_signal(signal.SIGTERM)
    agent.wait(timeout=20)
    gpsd.stop()
    return figures


def largest_mappings(pid):
    mappings, current = [], None
    for line in open(f"/proc/{pid}/smaps"):
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
            current = " ".join([fields[1]] + fields[5:]) or fields[1]
            if len(fields) < 6:
                current = f"{fields[1]} [anonymous]"
        elif fields[0] == "Rss:":
            mappings.append((int(fields[1]), current))
    return sorted(mappings, reverse=True)


def start_latency(binary, name, work, starts=10):
    """Seconds from exec to the first line on stdout, `starts` times."""
    gpsd = Gpsd(work)
    seconds = []
    for index in range(starts):
        directory = os.path.join(work, f"start-{name}-{index}")
        command = [binary, "run", "--print", "--config", config(directory), "--gpsd", f"127.0.0.1:{gpsd.port}"]
        began = time.monotonic()
        agent = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        agent.stdout.readline()
        seconds.append(time.monotonic() - began)
        agent.send_signal(signal.SIGTERM)
        agent.wait(timeout=20)
    gpsd.stop()
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", nargs="?", default=DEFAULT_LOG)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--peer", help="another waymark binary, measured alike in the same rounds")
    parser.add_argument("--copies", type=int, help="copies of LOG fed in a row (default: >= 10,000 TPV)")
    parser.add_argument("--drive-only", action="store_true", help="only the drive: no idle or start figures")
    arguments = parser.parse_args()
    for tool in ("/usr/sbin/gpsd", "socat", "gpspipe", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: scripts/install-deps.sh installs it")
    waymark = os.environ.get("WAYMARK") or subprocess.run(
        [os.path.join(ROOT, "scripts/build-release.sh")], check=True, stdout=subprocess.PIPE, text=True
    ).stdout.strip().splitlines()[-1]
    binaries = {"waymark": os.path.join(ROOT, waymark) if not os.path.isabs(waymark) else waymark}
    if arguments.peer:
        binaries["peer"] = arguments.peer
    work = tempfile.mkdtemp(prefix="waymark-footprint.")
    try:
        tpv_per_copy = 0
        if os.path.exists(arguments.log + ".chk"):
            tpv_per_copy = sum(1 for line in open(arguments.log + ".chk") if line.startswith('{"class":"TPV"'))
        copies = arguments.copies or (-(-10000 // tpv_per_copy) if tpv_per_copy else 4)
        feed = os.path.join(work, "feed.log")
        with open(feed, "wb") as out:
            # One drive K times as long, its time going forward (scripts/bench/continue-log.py).
            out.write(subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/continue-log.py"),
                                      arguments.log, str(copies)], check=True, capture_output=True).stdout)
            out.write(b"\n# EOF\n")
        print(f"{copies} copies of {os.path.basename(arguments.log)} ({copies * tpv_per_copy} TPV), "
              f"{arguments.rounds} rounds; binaries: " + ", ".join(f"{k}={v}" for k, v in binaries.items()))
        rounds = []
        for index in range(arguments.rounds):
            last = index == arguments.rounds - 1
            figures = {"drive": drive(binaries, feed, work, copies * tpv_per_copy)}
            for name, binary in binaries.items():
                if arguments.drive_only:
                    continue
                figures[f"idle-{name}"] = idle(binary, name, work, last)
                figures[f"start-{name}"] = statistics.median(start_latency(binary, name, work))
            rounds.append(figures)
            print(f"round {index + 1}: " + repr({key: {k: {f: v for f, v in row.items() if f != "anon_mappings"}
                                                       for k, row in value.items()} if key == "drive" else value
                                                  for key, value in figures.items()}), file=sys.stderr)
        median = lambda pick: statistics.median(pick(r) for r in rounds)
        print("\nmedians over the rounds:")
        print(f"  {'client':12s} {'peak RSS (drive)':>17s} {'CPU s (drive)':>14s} {'idle VmRSS':>11s} "
              f"{'RssAnon':>8s} {'RssFile':>8s} {'first event':>12s}")
        for name in list(binaries) + ["gpspipe", "python-gps"]:
            row = f"  {name:12s} {median(lambda r: r['drive'][name]['rss_kb']) / 1024:14.1f} MB"
            row += f" {median(lambda r: r['drive'][name]['cpu_s']):14.3f}"
            if name in binaries and not arguments.drive_only:
                row += f" {median(lambda r: r[f'idle-{name}']['VmRSS']) / 1024:8.1f} MB"
                row += f" {median(lambda r: r[f'idle-{name}']['RssAnon']) / 1024:5.1f} MB"
                row += f" {median(lambda r: r[f'idle-{name}']['RssFile']) / 1024:5.1f} MB"
                row += f" {median(lambda r: r[f'start-{name}']) * 1000:9.1f} ms"
            print(row)
        for name in binaries:
            print(f"  {name}: {median(lambda r: r['drive'][name]['locations']):.0f} location events in the drive; "
                  f"peak RssAnon in the drive {median(lambda r: r['drive'][name]['anon_kb']) / 1024:.1f} MB "
                  f"(rounds: {', '.join(str(r['drive'][name]['anon_kb']) for r in rounds)} kB)")
        for name in binaries:
            print(f"\n{name}, the last round's anonymous mappings at its peak RssAnon (Anonymous kB, range, name):")
            for kilobytes, span, mapping in rounds[-1]["drive"][name]["anon_mappings"][:12]:
                print(f"    {kilobytes:6d} kB  {span}  {mapping}")
    finally:
        if os.environ.get("KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
