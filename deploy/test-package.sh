#!/usr/bin/env bash
# The Debian package's acceptance on this machine (as root, or through sudo): builds it, runs lintian and
# systemd-analyze on it, installs it with dpkg, runs the installed agent as the waymark user on the Regensburg
# drive through a real gpsd, scanning for beacons on a D-Bus bus with a BlueZ stand-in, under strace (every
# system call must pass the unit's SystemCallFilter=), then
# removes and purges it and checks that nothing of it is left. systemd need not be PID 1: the maintainer
# scripts work without it. Changes the machine (a package and a user): meant for CI and test machines.
#   deploy/test-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
step() { echo "test-package: $*" >&2; }

built=$(mktemp)
deploy/build-deb.sh >"$built" || fail "deploy/build-deb.sh failed"
mapfile -t packages <"$built"
rm -f "$built"
[ "${#packages[@]}" -eq 2 ] || fail "deploy/build-deb.sh made ${#packages[@]} packages, not 2"
step "built ${packages[*]}"

# Reproducible: a second build of the same commit gives the same bytes (the release binary is the same build's;
# the packaging, the manual page, the completions and the gazetteer are made again).
first=$(mktemp -d)
cp "${packages[@]}" "$first/"
deploy/build-deb.sh >/dev/null 2>&1 || fail "deploy/build-deb.sh failed the second time"
for package in "${packages[@]}"; do
    cmp -s "$package" "$first/$(basename "$package")" || fail "$package differs from a second build of the same commit"
done
rm -rf "$first"
step "reproducible: a second build gave the same bytes"

for package in "${packages[@]}"; do
    step "lintian $package"
    lintian_out=$(lintian --fail-on error --display-info "$package" 2>&1) || { echo "$lintian_out" >&2; fail "lintian reports errors"; }
    echo "$lintian_out" | sed 's/^/  /' >&2
    dpkg-deb -I "$package" | grep -E "^ (Package|Version|Architecture|Installed-Size|Depends|Recommends):" >&2
done

for name in waymark waymark-places; do
    if dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "ok installed"; then
        fail "$name is installed on this machine already: remove it first (dpkg -P waymark waymark-places)"
    fi
done
step "dpkg -i"
# From here on, a failure purges what it installed: a package left behind would make the next run skip this test.
installed=1
trap 'status=$?; [ "${installed:-0}" = 1 ] && $sudo dpkg -P waymark waymark-places >/dev/null 2>&1; exit $status' EXIT
$sudo dpkg -i "${packages[@]}" >&2
/usr/bin/waymark --version >&2
/usr/bin/waymark check-config /etc/waymark/waymark.toml || fail "the installed configuration does not check"
# The installed gazetteer names a place: Kelheim's market square, with the default [places] file.
place=$(/usr/bin/waymark geo place 48.9174 11.8859)
step "waymark geo place 48.9174 11.8859: $place"
[[ "$place" == *"Kelheim, DE"* ]] || fail "the installed gazetteer did not name Kelheim: $place"
getent passwd waymark >/dev/null || fail "no waymark user"
for dir in /var/lib/waymark /var/log/waymark; do
    [ "$(stat -c %U:%G "$dir")" = waymark:waymark ] || fail "$dir is not owned by waymark"
done
man -w waymark >/dev/null 2>&1 || [ -f /usr/share/man/man1/waymark.1.gz ] || fail "no manual page"
# A region file beside the configuration, as an operator makes it: remove keeps it, purge deletes it (issue 36).
$sudo /usr/bin/waymark regions add depot --lat 49.0134 --lon 12.1016 --radius 150 --file /etc/waymark/regions.geojson >&2 \
    || fail "waymark regions add could not write /etc/waymark/regions.geojson"
listing=$(dpkg -L waymark waymark-places | sort)

# The D-Bus policy that lets the user waymark call bluetoothd (docs/beacon-advertising.md): installed where the
# system bus reads it, and read by a dbus-daemon of our own without an error (it exits at once on a bad file).
policy=/usr/share/dbus-1/system.d/waymark.conf
step "D-Bus policy $policy"
[ -f "$policy" ] || fail "no D-Bus policy at $policy"
policy_check=$(mktemp -d)
printf '%s\n' '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"' \
    ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">' \
    "<busconfig><type>system</type><listen>unix:path=$policy_check/bus.sock</listen><auth>EXTERNAL</auth>" \
    "<include>$policy</include></busconfig>" >"$policy_check/bus.conf"
policy_status=0
timeout 2 dbus-daemon --config-file="$policy_check/bus.conf" --nofork --nopidfile 2>"$policy_check/err" || policy_status=$?
rm -rf "$policy_check"
[ "$policy_status" = 124 ] || fail "dbus-daemon refused $policy (exit $policy_status)"

unit=/usr/lib/systemd/system/waymark.service
step "systemd-analyze verify $unit"
verify=$(systemd-analyze verify "$unit" 2>&1) || { echo "$verify" >&2; fail "systemd-analyze verify"; }
[ -z "$verify" ] || echo "$verify" | sed 's/^/  /' >&2
exposure=$(systemd-analyze security --offline=true "$unit" 2>&1 | sed -n 's/.*Overall exposure level for waymark.service: \([0-9.]*\).*/\1/p')
step "exposure $exposure (at most 1.5)"
[ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 1.5) }' || fail "exposure $exposure is above 1.5"

step "the installed agent, as user waymark, on the Regensburg drive through gpsd, scanning for beacons, under strace"
work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
    local status=$?
    # The agent first (strace, its parent here, outlives a SIGTERM while it traces), then everything started here;
    # what is still there a second later is killed outright, so that a failure never leaves the script waiting.
    $sudo pkill -INT -u waymark -x waymark 2>/dev/null || true
    for pid in ${pids:-}; do kill "$pid" 2>/dev/null || true; done
    sleep 1
    $sudo pkill -KILL -u waymark -x waymark 2>/dev/null || true
    for pid in ${pids:-}; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
    [ "${installed:-0}" = 1 ] && $sudo dpkg -P waymark waymark-places >/dev/null 2>&1
    exit $status
}
trap cleanup EXIT
pids=""
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
gpsd_port=$(free_port)
feed_port=$(free_port)
{ cat Tests/Fixtures/gpsd-logs/20100411_Geko_Regensburg.log; printf '\n# EOF\n'; } >"$work/feed.log"
socat -u "OPEN:$work/feed.log" "TCP-LISTEN:$feed_port,bind=127.0.0.1,reuseaddr" &
pids="$pids $!"
/usr/sbin/gpsd -N -b -S "$gpsd_port" -F "$work/ctl.sock" "tcp://127.0.0.1:$feed_port" 2>/dev/null &
pids="$pids $!"
# systemd's side of the notify protocol, so that the trace has the agent's notifications too.
python3 -c 'import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777)
while True: s.recv(4096)' "$work/notify" &
pids="$pids $!"
ready=0
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$gpsd_port") 2>/dev/null && [ -S "$work/notify" ] && { ready=1; break; }
    sleep 0.1
done
[ "$ready" = 1 ] || fail "gpsd or the notify socket did not come up within 10 s"
# Beacons: a D-Bus bus of the test's own with python3-dbusmock's BlueZ stand-in, so that the trace has sd-bus's
# system calls too (libsystemd loaded, the bus's socket, its poll), and a beacon region entered.
bus="unix:path=$work/bus.sock"
printf '%s\n' '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"' \
    ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">' \
    "<busconfig><type>session</type><listen>$bus</listen><auth>EXTERNAL</auth>" \
    '<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/>' \
    '<allow eavesdrop="true"/></policy></busconfig>' \
    >"$work/bus.conf"
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile 2>/dev/null &
pids="$pids $!"
for _ in $(seq 100); do [ -S "$work/bus.sock" ] && break; sleep 0.1; done
[ -S "$work/bus.sock" ] || fail "dbus-daemon did not come up within 10 s"
chmod 777 "$work/bus.sock"
DBUS_SYSTEM_BUS_ADDRESS="$bus" /usr/bin/python3 -m dbusmock --system --template bluez5 >/dev/null 2>&1 &
pids="$pids $!"
# One command to the BlueZ stand-in (Tests/Fixtures/bluez/bluez-driver.py); succeeds when its answer has `match`.
bluez() { echo "$1" | /usr/bin/python3 Tests/Fixtures/bluez/bluez-driver.py "$bus" 2>/dev/null | grep -q "${2:-\"ok\": true}"; }
ready=0
for _ in $(seq 100); do bluez '{"op": "adapter", "name": "hci0"}' && { ready=1; break; }; sleep 0.1; done
[ "$ready" = 1 ] || fail "the BlueZ stand-in did not come up within 10 s"
uuid=E2C56DB5-DFFB-48D2-B060-D0F5A71096E0
printf '{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null, "properties": %s}]}\n' \
    "{\"id\": \"trailer-7\", \"beacon\": {\"uuid\": \"$uuid\"}}" >"$work/regions.geojson"
printf '[regions]\nfile = "%s"\n\n[beacons]\nenabled = true\nbus = "%s"\n' "$work/regions.geojson" "$bus" \
    >"$work/waymark.toml"
chmod 644 "$work/regions.geojson" "$work/waymark.toml"
# Tracing needs ptrace, which some containers refuse: then the agent runs untraced and says so.
tracer=($sudo strace -f -qq -o "$work/trace")
$sudo strace -qq -o /dev/null true 2>/dev/null || { tracer=($sudo); step "strace cannot trace here (ptrace refused): the system calls go unchecked"; }
"${tracer[@]}" runuser -u waymark -- env NOTIFY_SOCKET="$work/notify" WATCHDOG_USEC=2000000 \
    /usr/bin/waymark run --print --config "$work/waymark.toml" --gpsd "127.0.0.1:$gpsd_port" \
    >"$work/events.jsonl" 2>"$work/stderr" &
agent=$!
pids="$pids $agent"
# Once the agent scans, a beacon of the region advertises.
for _ in $(seq 200); do bluez '{"op": "discovering", "name": "hci0"}' '"value": true' && break; sleep 0.1; done
bluez '{"op": "device", "name": "hci0", "address": "C0:FF:EE:00:00:07"}' || fail "the BlueZ stand-in refused a device"
frame="0215$(echo "$uuid" | tr -d -)00070001C5"
bluez "{\"op\": \"advertise\", \"path\": \"/org/bluez/hci0/dev_C0_FF_EE_00_00_07\", \"rssi\": -60, \"data\": \"$frame\"}" \
    || fail "the BlueZ stand-in refused an advertisement"
# The agent hands advertisements on four times a second: the enter comes within a moment.
for _ in $(seq 100); do grep -q '"event":"enter","id":"trailer-7"' "$work/events.jsonl" && break; sleep 0.1; done
for _ in $(seq 1200); do
    grep -q '"code":"no_device"' "$work/events.jsonl" 2>/dev/null && break
    kill -0 "$agent" 2>/dev/null || break
    sleep 0.1
done
# The agent runs on after the drive (gpsd lost the receiver): `waymark status`, as root, which may signal it, sees it
# running, with the drive's last fix, in its status file in /run/waymark.
$sudo /usr/bin/waymark status >"$work/status" || fail "waymark status of the running agent: $(cat "$work/status")"
grep -q '^last fix ' "$work/status" || fail "waymark status shows no fix: $(cat "$work/status")"
$sudo pkill -INT -u waymark -x waymark || true
wait "$agent" || fail "the agent did not stop cleanly: $(cat "$work/stderr")"
locations=$(grep -c '"type":"location"' "$work/events.jsonl" || true)
step "$locations location events; logs: $(ls /var/log/waymark | tr '\n' ' ')"
[ "$locations" -gt 700 ] || fail "only $locations location events: $(tail -5 "$work/stderr")"
grep '"type":"region"' "$work/events.jsonl" | grep '"event":"enter"' | grep -q '"id":"trailer-7"' \
    || fail "the beacon region was not entered: $(grep -i 'region\|beacon\|bluetooth' "$work/stderr" | head -5;
        grep '"type":"region\|"type":"beacon\|"type":"error' "$work/events.jsonl" | head -5)"
step "the beacon region entered"
! grep -q '"code":"operations_output"' "$work/events.jsonl" || fail "the status file could not be written"
status_code=0
$sudo /usr/bin/waymark status >"$work/status" || status_code=$?
[ "$status_code" = 3 ] || fail "waymark status after the stop: exit $status_code, $(cat "$work/status")"
step "waymark status after the stop: $(head -1 "$work/status")"
[ -f /var/lib/waymark/spool.sqlite ] || fail "no spool in /var/lib/waymark"
[ -z "$(find /var/lib/waymark /var/log/waymark ! -user waymark)" ] || fail "files not owned by waymark"
if [ -f "$work/trace" ]; then
    # The trace starts with runuser and env (root, dropping to waymark): only the agent counts, from its execve
    # on, with the threads it starts.
    awk '!started && $2 ~ /^execve\("\/usr\/bin\/waymark"/ { started = 1; agent = $1 }
        !started { before[$1] = 1; next }
        !($1 in before) || $1 == agent' "$work/trace" >"$work/agent.trace"
    # setpriority: the Swift runtime's worker threads ask for a higher priority, which the unit refuses (its
    # comments say why).
    deploy/check-syscalls.py --refused-on-purpose setpriority "$unit" "$work/agent.trace" >&2 \
        || fail "the agent makes system calls the unit refuses"
fi

step "dpkg -r: the spool, the logs and the configuration stay"
$sudo dpkg -r waymark waymark-places >&2
[ -f /var/lib/waymark/spool.sqlite ] || fail "dpkg -r removed the spool"
[ -d /var/log/waymark ] || fail "dpkg -r removed the logs"
[ -f /etc/waymark/waymark.toml ] || fail "dpkg -r removed the conffile"
[ -f /etc/waymark/regions.geojson ] || fail "dpkg -r removed the region file"
[ ! -e /usr/bin/waymark ] || fail "dpkg -r left /usr/bin/waymark"
step "dpkg -i again: enabled and not masked, the spool kept"
$sudo dpkg -i "${packages[@]}" >&2
[ -L /etc/systemd/system/multi-user.target.wants/waymark.service ] || fail "the reinstalled service is not enabled"
[ ! -L /etc/systemd/system/waymark.service ] || fail "the reinstalled service is masked"
[ -f /var/lib/waymark/spool.sqlite ] || fail "the reinstall lost the spool"
$sudo dpkg -r waymark waymark-places >&2
step "dpkg -P: nothing of the package is left"
purge=$($sudo dpkg -P waymark waymark-places 2>&1) || { echo "$purge" >&2; fail "dpkg -P failed"; }
echo "$purge" >&2
# dpkg warns of a directory it cannot remove ("not empty so not removed"); waymark-places, already gone with
# dpkg -r (it has no conffiles), is "not installed", which is no fault.
[[ "$purge" != *"not removed"* ]] || fail "dpkg -P left a directory: $purge"
left=""
while read -r path; do
    [ -z "$path" ] && continue
    # Directories that other packages share (/usr, /usr/share/man/...) stay.
    if [ -e "$path" ] && ! { [ -d "$path" ] && [ -n "$(ls -A "$path" 2>/dev/null)" ]; }; then left="$left $path"; fi
done <<<"$listing"
# Links count even when dangling: the enablement and the mask, and deb-systemd-helper's state.
for path in /etc/waymark /var/lib/waymark /var/log/waymark /usr/share/waymark \
    /etc/systemd/system/multi-user.target.wants/waymark.service /etc/systemd/system/waymark.service \
    /var/lib/systemd/deb-systemd-helper-enabled/waymark.service.dsh-also \
    /var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/waymark.service \
    /var/lib/systemd/deb-systemd-helper-masked/waymark.service; do
    if [ -e "$path" ] || [ -L "$path" ]; then left="$left $path"; fi
done
[ -z "$left" ] || fail "left after purge:$left"
installed=0
step "passed"
