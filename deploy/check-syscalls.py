#!/usr/bin/env python3
"""Checks that every system call in strace logs is allowed by a unit's SystemCallFilter= lines, as systemd
would apply them (groups expanded by `systemd-analyze syscall-filter`, allow list first, then the `~` lines
removing, later plain lines adding back). Prints each call the filter would refuse, with the count, and
exits 1 if there is one.

Usage: deploy/check-syscalls.py [--refused-on-purpose CALL,...] UNIT STRACE_LOG...
       (logs of `strace -f -o LOG waymark ...`; calls refused on purpose, such as setpriority, which the unit's
       comments explain, are listed and do not fail the check)
"""
import re
import subprocess
import sys

groups = {}


def expand(name):
    """The system calls of a name: a group (@...) expanded recursively, or the call itself."""
    if not name.startswith("@"):
        return {name}
    if name not in groups:
        out = subprocess.run(["systemd-analyze", "syscall-filter", name], check=True, capture_output=True, text=True)
        members = set()
        for line in out.stdout.splitlines()[1:]:
            line = line.strip()
            if line and not line.startswith("#"):
                members |= expand(line)
        groups[name] = members
    return groups[name]


def allowed_calls(unit):
    allowed = None
    for line in open(unit):
        match = re.match(r"\s*SystemCallFilter=(.*)", line)
        if not match:
            continue
        value = match.group(1).strip()
        deny = value.startswith("~")
        names = set().union(*(expand(name) for name in value.lstrip("~").split()))
        if allowed is None:
            if deny:
                sys.exit(f"{unit}: a deny list first is not what this check reads")
            allowed = names
        elif deny:
            allowed -= names
        else:
            allowed |= names
    if allowed is None:
        sys.exit(f"{unit}: no SystemCallFilter=")
    return allowed


def used_calls(logs):
    counts = {}
    for log in logs:
        for line in open(log):
            line = re.sub(r"^\d+\s+", "", line)
            match = re.match(r"(?:<\.\.\. )?([a-z_0-9]+)[( ]", line)
            if match:
                counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    return counts


def main():
    arguments = sys.argv[1:]
    on_purpose = set()
    if arguments[:1] == ["--refused-on-purpose"]:
        on_purpose = set(arguments[1].split(","))
        arguments = arguments[2:]
    unit, logs = arguments[0], arguments[1:]
    allowed = allowed_calls(unit)
    used = used_calls(logs)
    refused = sorted(name for name in used if name not in allowed)
    print(f"{len(used)} distinct system calls in {len(logs)} traces; {len(allowed)} allowed by {unit}")
    for name in refused:
        verdict = "refused on purpose" if name in on_purpose else "refused by the filter"
        print(f"{verdict}: {name} ({used[name]} calls)")
    sys.exit(1 if set(refused) - on_purpose else 0)


main()
