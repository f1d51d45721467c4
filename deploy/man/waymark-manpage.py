#!/usr/bin/env python3
"""Writes waymark(1), the manual page, to stdout from the built binary's own description of its commands
(`waymark --experimental-dump-help`, swift-argument-parser's JSON): a section per subcommand, with its
options, so the page never drifts from the binary. The parts no command describes (files, signals, exit
status, environment) are written here.

Usage: deploy/man/waymark-manpage.py BINARY [DATE]     (DATE: YYYY-MM-DD, default today's)
"""
import datetime
import json
import subprocess
import sys


def roff(text):
    """Text escaped for roff: backslashes, hyphens as minus signs, no line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def option_name(argument):
    names = []
    for name in argument.get("names", []):
        names.append(("-" if name["kind"] == "short" else "--") + name["name"])
    if not names and argument["kind"] == "positional":
        return argument.get("valueName", "").upper()
    text = ", ".join(names)
    if argument["kind"] == "option":
        text += " " + argument.get("valueName", "value").upper()
    return text


def synopsis(path, command):
    parts = [" ".join(path)]
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True) or argument.get("preferredName", {}).get("name") in ("help", "version"):
            continue
        name = option_name(argument).split(", ")[-1] if argument["kind"] != "positional" else option_name(argument)
        parts.append(f"[{name}]" if argument.get("isOptional") else name)
    return " ".join(parts)


def options(command):
    out = []
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        out.append(".TP")
        out.append(".B " + roff(option_name(argument)))
        help_text = argument.get("abstract", "")
        if argument.get("allValues"):
            help_text += " One of: " + ", ".join(argument["allValues"]) + "."
        if "defaultValue" in argument:
            help_text += f" Default: {argument['defaultValue']}."
        out.append(roff(help_text))
    return out


def commands(path, command):
    out = []
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        sub_path = path + [sub["commandName"]]
        out.append(".SS " + roff(" ".join(sub_path[1:])))
        out.append(".B " + roff(synopsis(sub_path, sub)))
        out.append(".PP")
        out.append(roff(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(roff(sub["discussion"]))
        if sub.get("subcommands"):
            names = ", ".join(s["commandName"] for s in sub["subcommands"] if s["commandName"] != "help")
            out.append(".PP")
            out.append(roff(f"Subcommands: {names} (below)."))
        else:
            out.extend(options(sub))
        out.extend(commands(sub_path, sub))
    return out


FIXED = r"""
.SH FILES
.TP
.I /etc/waymark/waymark.toml
The configuration (a conffile of the package). Every key, its default and its unit are in the file itself.
Without it, \fBwaymark run\fR runs on the defaults and says so in one warning. \fI/etc/waymark\fR is kept
when the package is removed; purging deletes it whole, with the region files \fBwaymark regions add\fR wrote
there and whatever else was put in it.
.TP
.I /var/lib/waymark
The spool of events (\fIspool.sqlite\fR, SQLite in WAL mode, with \fIspool.sqlite\-wal\fR and
\fIspool.sqlite\-shm\fR, which stay beside it after a stop: copy, move or remove the three together), the
agent's state, and \fIwaymark.lock\fR, held by the one agent that writes the spool. Kept when the package is
removed; deleted when it is purged.
.TP
.I /run/waymark
The status file that \fBwaymark status\fR reads (\fIstatus.json\fR), and \fIwaymark.lock\fR, held by the one
agent that writes it (with its pid and state directory): a second agent there is refused, exit status 75.
.TP
.I /var/log/waymark
The fleet\-review logs: a daily event log (JSON Lines), one GPX track and one summary per trip. Kept when the
package is removed; deleted when it is purged.
.TP
.I /usr/share/doc/waymark/examples/regions.geojson
An example region file, every property explained.
.SH SIGNALS
.TP
.B SIGTERM, SIGINT
Stop gracefully: end the trip in progress, commit the spool, exit 0.
.TP
.B SIGHUP
Reload the configuration (\fBsystemctl reload waymark\fR); a file with a problem is rejected and the running
settings are kept.
.TP
.B SIGUSR1, SIGUSR2
End deferral at once, or resume it (\fBwaymark defer off\fR, \fBon\fR).
.SH EXIT STATUS
.TP
.B 0
Success, or a graceful stop.
.TP
.B 2
A bad configuration, or a state or log directory that cannot be used: one line says what and where. The
service does not restart on it.
.TP
.B 64
A usage error on the command line.
.TP
.B 69
\fBwaymark replay\fR of a raw receiver log without gpsd to read it (install gpsd, or set GPSD).
.TP
.B 75
Another process writes the same spool, or another agent the same runtime directory (its pid is named).
.TP
.B 129, 130, 143
\fBwaymark replay\fR of a raw receiver log stopped by SIGHUP, SIGINT or SIGTERM while gpsd read it: gpsd is
stopped, nothing is replayed. A signal that waymark was started ignoring stays ignored.
.SH ENVIRONMENT
.TP
.B WAYMARK_CONFIG
The configuration file every command reads when given no \-\-config (default: /etc/waymark/waymark.toml), as
for a second agent beside the service.
.TP
.B NOTIFY_SOCKET, WATCHDOG_USEC
Set by systemd for a Type=notify service: the agent reports READY=1, a one\-line STATUS=, and pings the
watchdog at half of WATCHDOG_USEC from its own loop.
.TP
.B JOURNAL_STREAM
When it names stderr, diagnostic lines carry their syslog priority (<3> error, <4> warning, <6> information,
<7> debugging) and no time of their own.
.TP
.B GPSD
The gpsd that \fBwaymark replay\fR runs to read a raw receiver log (default: /usr/sbin/gpsd,
/usr/local/sbin/gpsd, or gpsd in PATH).
.SH SEE ALSO
.BR gpsd (8),
.BR systemctl (1),
.BR journalctl (1)
.PP
/usr/share/doc/waymark/copyright: the origin and licence of the World Magnetic Model coefficients built in.
"""


def main():
    binary = sys.argv[1]
    date = sys.argv[2] if len(sys.argv) > 2 else datetime.date.today().isoformat()
    tool = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    command = tool["command"]
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.split()[1]
    page = [
        f'.TH WAYMARK 1 "{date}" "waymark {version}" "User Commands"',
        ".SH NAME",
        "waymark \\- " + roff(command.get("abstract", "on\\-board location agent")),
        ".SH SYNOPSIS",
        ".B waymark",
        ".I command",
        "[options]",
        ".SH DESCRIPTION",
        roff(
            "Waymark is an on-board location agent for vehicle fleets. It takes live fixes from gpsd and does on the "
            "board what Core Location does on a phone: accuracy and distance filters, automatic pause and resume, "
            "true and magnetic heading, region monitoring, trips, and deferred batches in a durable spool. Its "
            "events go to fleet-review logs. As a service it runs as \"waymark run\" under systemd "
            "(waymark.service)."
        ),
        ".SH COMMANDS",
    ]
    page += commands(["waymark"], command)
    page.append(FIXED.strip())
    print("\n".join(page))


main()
