#!/usr/bin/python3
"""Runs a command and writes its resource use, as wait4 reports it, to a file: what GNU time -v gives, at the
kernel's resolution (microseconds) rather than GNU time's hundredths of a second, which a one-second replay
needs. SIGINT and SIGTERM go to the command alone (send them to its pid); this waits.

    rusage.py OUTPUT COMMAND [ARGUMENT...]

OUTPUT gets one line: user_s system_s max_rss_kb voluntary_switches involuntary_switches blocks_out
"""
import os
import signal
import sys

output, command = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.execvp(command[0], command)
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
_, status, usage = os.wait4(pid, 0)
with open(output, "w") as out:
    out.write(f"{usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss} {usage.ru_nvcsw} {usage.ru_nivcsw} "
              f"{usage.ru_oublock}\n")
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 0)
