#!/usr/bin/env bash
# Proves Waymark on arm64 (the Raspberry Pi 4/5 on 64-bit Raspberry Pi OS = Debian 12) on this amd64 machine,
# with Debian's archive only, in one command:
#   scripts/check-arm64.sh            cross-build, then compare arm64 with amd64 under qemu-user and under a
#                                     16 KB-page kernel in qemu-system-aarch64
#   scripts/check-arm64.sh --no-16k   the same without the qemu-system run
# What it proves and what not, its time and disk: docs/arm64.md. It is not run by CI: it downloads about 1 GB
# from Debian's moving suites (sid, trixie) and takes minutes.
#
# 1. Packages: every .deb in scripts/arm64/packages.lock (name, arch, pinned version, SHA-256 of Debian's signed
#    index), fetched with a private apt configuration (scripts/arm64/apt.sh) into the cache, checked, and refused
#    on a mismatch. A version that left the archive fails here: refresh the lock with scripts/arm64/make-lock.sh.
# 2. Sysroot: bookworm's arm64 -dev closure (the target's headers and libraries: libgps 3.22, SQLite...), /lib
#    merged into /usr, sid's glibc, libstdc++ and libgcc laid over it (Debian's Swift 6.2.3 runtime needs glibc
#    2.38 or later).
# 3. Swift for aarch64: the host's Swift (6.3.1) cannot read Debian's binary 6.2.3 modules, so a resource
#    directory is made of the host's own (headers, shims, plugins) and Debian's aarch64 `.swiftinterface` files,
#    which the host's compiler rebuilds on first use, plus Debian's runtime libraries. Debian ships no interface
#    for the Dispatch overlay: it is compiled from Debian's source tarball of the same Swift.
# 4. Cross build (debug) of the library targets, of Tests/Arm64Probe (what `waymark replay` and `waymark geo
#    place` do, without swift-argument-parser) and of the waymark executable (swift-argument-parser with its one
#    Foundation file replaced in the cross build's checkout: see patch_argument_parser), with the host's Swift
#    and lld; the amd64 release build (scripts/build-release.sh) beside them.
# 5. qemu-user (trixie's static-pie qemu-aarch64, run directly, no binfmt_misc): the probe replays every fixture
#    capture (Tests/Fixtures/gpsd-logs/*.chk) with both decoders (--print), and with --spool into the file
#    sink's logs, and looks up places on a gazetteer built from data/places; the arm64 waymark goes through
#    scripts/replay-fixtures.sh and drives live against a real gpsd on loopback (scripts/drive.sh). Each output
#    is compared byte for byte with the amd64 build's; "N/N identical".
# 6. 16 KB pages: qemu-system-aarch64 boots trixie's linux-image-*-arm64-16k with a busybox initramfs holding the
#    probe and the waymark executable, their libraries and a subset of the captures, and the same comparison is
#    made on its output.
# Exit status: 0 when every output is identical, 1 on any difference, 2 on a setup failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/arm64/apt.sh
source "$root/scripts/arm64/apt.sh"
export PATH=/opt/swift/usr/bin:$PATH
lock=$root/scripts/arm64/packages.lock
run_16k=1
for argument in "$@"; do
    case $argument in
        --no-16k) run_16k=0 ;;
        -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-arm64: unknown argument $argument (--no-16k, --help)" >&2; exit 2 ;;
    esac
done
fail() { echo "check-arm64: $*" >&2; exit 2; }
step() { echo "== $(date -u +%H:%M:%S) $*" >&2; }
started=$(date +%s)
mkdir -p "$cache"
debs=$cache/debs
mkdir -p "$debs" "$cache/src"

# --- 1. Packages, pinned and checked ---------------------------------------------------------------------------
# The file apt-get download names a package NAME ARCH VERSION (an epoch's colon written %3a).
deb_file() { echo "$debs/${1}_${3//:/%3a}_${2}.deb"; }
# The lock's lines of ROLE: "NAME ARCH VERSION SHA256".
locked() { awk -v r="$1" '$1 == r {print $2, $3, $4, $5}' "$lock"; }
apt_ready=0
apt_update_once() {
    if [ "$apt_ready" = 0 ]; then
        arm64_apt_setup
        arm64_apt_get update -qq >&2 || fail "apt-get update failed (private configuration in $cache/apt)"
        apt_ready=1
    fi
}
# The cached file of a lock line.
locked_file() { # ROLE NAME ARCH VERSION
    if [ "$1" = source ]; then echo "$cache/src/${2}_${4%-*}.orig.tar.xz"; else deb_file "$2" "$3" "$4"; fi
}
fetch_debs() {
    step "packages: $(grep -c '^[a-z]' "$lock") pinned in scripts/arm64/packages.lock"
    local role name arch version sha file missing=() source=()
    while read -r role name arch version sha; do
        file=$(locked_file "$role" "$name" "$arch" "$version")
        [ -f "$file" ] && echo "$sha  $file" | sha256sum -c --status && continue
        rm -f "$file"
        if [ "$role" = source ]; then source+=("$name=$version"); else missing+=("$name:$arch=$version"); fi
    done < <(grep '^[a-z]' "$lock")
    [ ${#missing[@]} -gt 0 ] || [ ${#source[@]} -gt 0 ] || return 0
    step "packages: downloading ${#missing[@]} packages and ${#source[@]} source tarballs"
    apt_update_once
    # One apt-get call for all (each call reads the indexes for seconds).
    if [ ${#missing[@]} -gt 0 ]; then
        (cd "$debs" && arm64_apt_get download -qq "${missing[@]}" >&2) ||
            fail "cannot download every pinned package: refresh the lock (scripts/arm64/make-lock.sh)"
    fi
    if [ ${#source[@]} -gt 0 ]; then
        (cd "$cache/src" && arm64_apt_get source --download-only -qq "${source[@]}" >&2) ||
            fail "cannot download source ${source[*]}: refresh the lock (scripts/arm64/make-lock.sh)"
    fi
    while read -r role name arch version sha; do
        file=$(locked_file "$role" "$name" "$arch" "$version")
        [ -f "$file" ] || fail "$name $version: downloaded, but $file is not there"
        if ! echo "$sha  $file" | sha256sum -c --status; then
            rm -f "$file"
            fail "$name:$arch=$version: SHA-256 differs from scripts/arm64/packages.lock: refused"
        fi
    done < <(grep '^[a-z]' "$lock")
}

# Unpacks the files of a .deb that match PATTERN into DIR.
extract() { dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards "$3"; }

# A stamp holds the hash of the lock's lines a directory is made of (and of the step's version, raised when the
# step changes); the directory is made again when it differs.
stamp_of() { { echo "$1"; awk -v r="$2" '$1 ~ "^(" r ")$"' "$lock"; } | sha256sum | cut -c1-16; }
fresh() { [ -f "$1/.stamp" ] && [ "$(cat "$1/.stamp")" = "$2" ]; }

# --- 2. Sysroot ------------------------------------------------------------------------------------------------
sysroot=$cache/sysroot
make_sysroot() {
    local stamp
    stamp=$(stamp_of 1 "sysroot|overlay")
    fresh "$sysroot" "$stamp" && return
    step "sysroot: bookworm arm64 + sid glibc in $sysroot"
    rm -rf "$sysroot"
    mkdir -p "$sysroot"
    local name arch version sha
    while read -r name arch version sha; do
        dpkg-deb -x "$(deb_file "$name" "$arch" "$version")" "$sysroot"
    done < <(locked sysroot)
    # Merged /usr, as Debian 12 installs it: the linker scripts and links name /lib/... and /usr/lib/... alike.
    local dir
    for dir in lib bin sbin; do
        if [ -d "$sysroot/$dir" ] && [ ! -L "$sysroot/$dir" ]; then
            mkdir -p "$sysroot/usr/$dir"
            cp -a --remove-destination "$sysroot/$dir/." "$sysroot/usr/$dir/"
            rm -rf "${sysroot:?}/$dir"
        fi
        ln -sfn "usr/$dir" "$sysroot/$dir"
    done
    while read -r name arch version sha; do
        dpkg-deb -x "$(deb_file "$name" "$arch" "$version")" "$sysroot/overlay.tmp"
        cp -a --remove-destination "$sysroot/overlay.tmp/usr/." "$sysroot/usr/"
        rm -rf "$sysroot/overlay.tmp"
    done < <(locked overlay)
    ln -sfn "$res" "$sysroot/usr/lib/swift"
    echo "$stamp" > "$sysroot/.stamp"
}

# --- 3. Swift's aarch64 resource directory ---------------------------------------------------------------------
res=$cache/swift-res
make_swift_resources() {
    local stamp host=/opt/swift/usr/lib/swift
    stamp=$(stamp_of 1 "swift|source")
    fresh "$res" "$stamp" && return
    step "swift: Debian's 6.2.3 aarch64 interfaces and runtime in $res"
    rm -rf "$res" "$cache/swift-deb" "$cache/module-cache"
    local name arch version sha
    # Only the aarch64 target's folder (the whole packages unpack to 2.7 GB: the toolchain for an arm64 host).
    mkdir -p "$cache/swift-deb"
    while read -r name arch version sha; do
        extract "$(deb_file "$name" "$arch" "$version")" "$cache/swift-deb" './usr/libexec/swift/lib/swift/linux/*'
    done < <(locked swift)
    local debian=$cache/swift-deb/usr/libexec/swift/lib/swift
    [ -d "$debian/linux" ] || fail "no usr/libexec/swift/lib/swift/linux in Debian's swiftlang: its layout changed"
    mkdir -p "$res/linux/aarch64"
    # The host's headers, shims, clang resources and plugins; its linux/ is the host's target's, left out.
    local entry
    for entry in "$host"/*; do
        [ "$(basename "$entry")" = linux ] || ln -s "$entry" "$res/$(basename "$entry")"
    done
    # Debian's modules as interfaces only (the binary .swiftmodule files are 6.2.3's, unreadable to 6.3.1).
    local module
    for module in "$debian"/linux/*.swiftmodule; do
        [ -f "$module/aarch64-unknown-linux-gnu.swiftinterface" ] || continue
        mkdir -p "$res/linux/$(basename "$module")"
        cp "$module/aarch64-unknown-linux-gnu.swiftinterface" "$res/linux/$(basename "$module")/"
    done
    cp "$debian"/linux/aarch64/{glibc.modulemap,SwiftGlibc.h,swiftrt.o} "$res/linux/aarch64/"
    cp -a "$debian"/linux/*.so "$res/linux/"
    make_dispatch
    rm -rf "$cache/swift-deb"
    echo "$stamp" > "$res/.stamp"
}
# The Dispatch overlay's module, compiled by the host's Swift from Debian's source of the same Swift 6.2.3; the
# runtime library stays Debian's libswiftDispatch.so.
make_dispatch() {
    local name arch version sha tarball top
    read -r name arch version sha < <(locked source)
    tarball=$cache/src/${name}_${version%-*}.orig.tar.xz
    top=swiftlang-${version%-*}
    local src=$cache/src/$top/swift-corelibs-libdispatch
    if [ ! -d "$src/src/swift" ]; then
        step "swift: extracting swift-corelibs-libdispatch from $(basename "$tarball")"
        tar -xJf "$tarball" -C "$cache/src" "$top/swift-corelibs-libdispatch"
    fi
    local include=$cache/dispatch-include
    rm -rf "$include"
    mkdir -p "$include"
    cp -a "$src/dispatch" "$src/os" "$include/"
    # What the overlay's CMake build maps with a VFS overlay: the generic (non-Darwin) module map.
    cp "$src/dispatch/generic/module.modulemap" "$include/dispatch/module.modulemap"
    mkdir -p "$res/linux/Dispatch.swiftmodule"
    swiftc -target aarch64-unknown-linux-gnu -sdk "$sysroot" -resource-dir "$res" \
        -module-cache-path "$cache/module-cache" -parse-as-library -module-name Dispatch -module-link-name swiftDispatch \
        -emit-module -emit-module-path "$res/linux/Dispatch.swiftmodule/aarch64-unknown-linux-gnu.swiftmodule" \
        -Xcc -fblocks -Xcc -fmodule-map-file="$include/dispatch/module.modulemap" -Xcc -I"$include" \
        -Xcc -I"$src/src/swift/shims" -O "$src"/src/swift/*.swift 2>&1 | grep -v warning: >&2 || true
    [ -f "$res/linux/Dispatch.swiftmodule/aarch64-unknown-linux-gnu.swiftmodule" ] || fail "Dispatch did not build"
}

# --- 4. Builds -------------------------------------------------------------------------------------------------
build=$cache/build
cross_build() {
    step "cross build: library targets and the arm64 probe (aarch64-unknown-linux-gnu, debug)"
    export PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig
    # WAYMARK_ARM64_PROBE adds the probe's target (Package.swift); only here, so that the amd64 release build's
    # manifest stays the same and is not planned again.
    export PKG_CONFIG_SYSROOT_DIR=$sysroot
    local flags=(--package-path "$root" --scratch-path "$build" --triple aarch64-unknown-linux-gnu --sdk "$sysroot"
        -Xswiftc -resource-dir -Xswiftc "$res" -Xswiftc -module-cache-path -Xswiftc "$cache/module-cache"
        -Xswiftc -sdk -Xswiftc "$sysroot" -Xswiftc -use-ld=lld
        -Xlinker -rpath-link="$sysroot/usr/lib/aarch64-linux-gnu")
    WAYMARK_ARM64_PROBE=1 swift package --package-path "$root" --scratch-path "$build" resolve >&2
    # swift-collections (through swift-async-algorithms) calls the Swift 6.3 standard library's new API under
    # `#if compiler(>=6.3)`; the compiler is 6.3.1 but the aarch64 standard library is 6.2.3: take the older path.
    { grep -rl --include='*.swift' 'compiler(>=6.3)' "$build/checkouts" || true; } |
        xargs -r sed -i 's/compiler(>=6\.3)/compiler(>=99)/g'
    WAYMARK_ARM64_PROBE=1 nice -n 5 swift build "${flags[@]}" -j 2 --product arm64probe >&2
    probe=$build/aarch64-unknown-linux-gnu/debug/arm64probe
    [ -x "$probe" ] || fail "the probe was not built"
    file "$probe" | grep -q 'ARM aarch64' || fail "$probe is not an aarch64 executable"
    step "cross build: the waymark executable (swift-argument-parser without Foundation, see docs/arm64.md)"
    patch_argument_parser
    WAYMARK_ARM64_PROBE=1 nice -n 5 swift build "${flags[@]}" -j 2 --product waymark >&2
    waymark_arm64=$build/aarch64-unknown-linux-gnu/debug/waymark
    file "$waymark_arm64" | grep -q 'ARM aarch64' || fail "$waymark_arm64 is not an aarch64 executable"
}
# swift-argument-parser imports Foundation in one file (Utilities/Foundation.swift), for two things: an error's
# LocalizedError description, and a JSONEncoder for --experimental-dump-help. Debian ships FoundationEssentials
# and Foundation for aarch64 only as binary 6.2.3 modules, which the host's 6.3.1 cannot read, and without an
# interface. In the cross build's checkout only, that file is replaced by one without Foundation: an error is
# described by String(describing:) (Waymark has no Foundation, so no LocalizedError of its own), and
# --experimental-dump-help prints nothing. Refused when the file is not 1.8.2's (a new version: look again).
patch_argument_parser() {
    local file=$build/checkouts/swift-argument-parser/Sources/ArgumentParser/Utilities/Foundation.swift
    grep -q 'check-arm64' "$file" && return
    echo "84a93a23fbd20041ad236f4c6ed7056a9e488e4945563d727815313090e8e2ef  $file" | sha256sum -c --status ||
        fail "$file is not swift-argument-parser 1.8.2's: check what it imports and update patch_argument_parser"
    cat > "$file" <<'SWIFT'
// Written by Waymark's scripts/check-arm64.sh in its aarch64 cross build's checkout: no Foundation module
// for aarch64 can be read there.
extension Error {
  func describe() -> String {
    String(describing: self)
  }
}

enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    ""
  }
}
SWIFT
}
native_build() {
    step "amd64 release build (scripts/build-release.sh)"
    # gpsd and socat for the raw logs' replays and the live drive, as the tests use them.
    "$root/scripts/install-deps.sh" >&2
    waymark=$root/$(nice -n 5 "$root/scripts/build-release.sh")
    places=$cache/places.bin
    if [ ! -f "$places" ] || [ "$root/data/places/cities1000.tsv.gz" -nt "$places" ]; then
        WAYMARK=$waymark "$root/scripts/build-places.sh" "$places" >&2
    fi
}

# --- 5. qemu-user ----------------------------------------------------------------------------------------------
tools=$cache/tools
make_qemu_user() {
    local name arch version sha
    read -r name arch version sha < <(locked tool)
    if [ ! -x "$tools/usr/bin/qemu-aarch64" ] || ! fresh "$tools" "$version"; then
        rm -rf "$tools"
        mkdir -p "$tools"
        extract "$(deb_file "$name" "$arch" "$version")" "$tools" ./usr/bin/qemu-aarch64
        echo "$version" > "$tools/.stamp"
    fi
    qemu_user=$tools/usr/bin/qemu-aarch64
}
# Runs the arm64 probe under qemu-user: the sysroot's loader and libraries, Debian's Swift runtime.
run_arm64() {
    QEMU_LD_PREFIX=$sysroot LD_LIBRARY_PATH=$res/linux nice -n 5 "$qemu_user" -L "$sysroot" "$probe" "$@"
}
# Points for the place lookups: cities, coasts, both hemispheres and both sides of the antimeridian, the poles,
# open ocean (no place).
points=(48.9176 11.9043 60.1699 24.9384 -33.8688 151.2093 -54.8019 -68.3030 64.1466 -21.9426 35.6895 139.6917
    -17.7134 178.0650 -16.5000 -179.9000 0 0 89.9 0 -89.9 0 1.2903 103.8519 40.7128 -74.0060 -34.6037 -58.3816
    51.4779 -0.0015 28.0 -40.0 -77.8460 166.6760 21.3069 -157.8583)
# The amd64 build's answers for the points, one JSON line each.
amd64_places() {
    local i
    for ((i = 0; i < ${#points[@]}; i += 2)); do
        "$waymark" geo place --json --file "$places" "${points[i]}" "${points[i + 1]}" 2> /dev/null || echo "exit $?"
    done
}
same=0
total=0
compare() { # LABEL FILE_A FILE_B
    total=$((total + 1))
    if cmp -s "$2" "$3"; then
        same=$((same + 1))
    else
        echo "DIFFERENT: $1 ($2 against $3)" >&2
    fi
}
# DIR: a configuration naming its own directories, no places file, and the device (else the host's name, which the
# virtual machine's differs from).
config_for() {
    mkdir -p "$1"
    printf '[agent]\ndevice_id = "arm64-check"\nstate_dir = "%s/state"\nlog_dir = "%s/logs"\nruntime_dir = "%s/run"\n[places]\nfile = "%s/none.bin"\n' \
        "$1" "$1" "$1" "$1" > "$1/waymark.toml"
}
# The file sink's logs of a spool directory, one listing with each file's contents.
dump_logs() { (cd "$1/logs" 2>/dev/null && find . -type f | sort | while read -r f; do echo "== $f"; cat "$f"; done) || true; }
check_user() {
    step "qemu-user: replays of every fixture capture and place lookups, arm64 against amd64"
    local out=$cache/out-user
    rm -rf "$out"
    mkdir -p "$out"
    local capture name decoder side
    for capture in "$root"/Tests/Fixtures/gpsd-logs/*.chk; do
        name=$(basename "$capture" .chk)
        for decoder in builtin libgps; do
            for side in amd64 arm64; do
                config_for "$out/work-$side"
                if [ "$side" = amd64 ]; then
                    "$waymark" replay "$capture" --config "$out/work-$side/waymark.toml" --decoder "$decoder" --print \
                        > "$out/$name.$decoder.$side" 2> /dev/null || echo "exit $?" >> "$out/$name.$decoder.$side"
                else
                    run_arm64 replay "$capture" "$decoder" "$out/work-$side/waymark.toml" \
                        > "$out/$name.$decoder.$side" 2> /dev/null || echo "exit $?" >> "$out/$name.$decoder.$side"
                fi
            done
            compare "replay --print --decoder $decoder $name" "$out/$name.$decoder.amd64" "$out/$name.$decoder.arm64"
        done
        # --spool: the spool (SQLite) and the file sink's day logs, trip tracks and summaries.
        for side in amd64 arm64; do
            rm -rf "$out/work-$side"
            config_for "$out/work-$side"
            if [ "$side" = amd64 ]; then
                "$waymark" replay "$capture" --config "$out/work-$side/waymark.toml" --spool > /dev/null 2>&1 || true
            else
                run_arm64 replay "$capture" builtin "$out/work-$side/waymark.toml" --spool > /dev/null 2>&1 || true
            fi
            dump_logs "$out/work-$side" > "$out/$name.logs.$side"
            rm -rf "$out/work-$side"
        done
        compare "replay --spool $name (file sink logs)" "$out/$name.logs.amd64" "$out/$name.logs.arm64"
    done
    amd64_places > "$out/places.amd64"
    run_arm64 place "$places" "${points[@]}" > "$out/places.arm64" 2> /dev/null || true
    compare "geo place --json (${#points[@]} / 2 points)" "$out/places.amd64" "$out/places.arm64"
    echo "qemu-user: $same/$total identical (outputs in $out)"
}

# --- 5b. The waymark executable under qemu-user ---------------------------------------------------------------
# scripts/replay-fixtures.sh with each binary: every capture with both decoders (events and the log lines, their
# timestamps cut), its raw receiver log through a gpsd of its own (started by the arm64 waymark: an amd64 gpsd),
# and --spool's file-sink logs. Then a live drive (scripts/drive.sh): the Regensburg drive served by a real
# amd64 gpsd on loopback, `waymark run --print` with the spool and the file sink on. What depends on the wall
# clock is masked before comparing: the receipt times ("recv"), gpsd's feed port, the times of the events before
# the first fix (dated by the system clock), a deferral's duration (and its time when the shutdown ends it), and the count of spool commits (one per
# commit interval of wall time).
check_waymark() {
    step "qemu-user: the waymark executable, scripts/replay-fixtures.sh and a live drive, arm64 against amd64"
    local wrapper=$cache/waymark-arm64
    cat > "$wrapper" <<WRAPPER
#!/bin/sh
# The arm64 waymark under qemu-user (written by scripts/check-arm64.sh).
QEMU_LD_PREFIX=$sysroot LD_LIBRARY_PATH=$res/linux exec nice -n 5 $qemu_user -L $sysroot $waymark_arm64 "\$@"
WRAPPER
    chmod +x "$wrapper"
    local out=$cache/out-waymark side binary
    rm -rf "$out"
    mkdir -p "$out"
    for side in amd64 arm64; do
        if [ "$side" = amd64 ]; then binary=$waymark; else binary=$wrapper; fi
        "$root/scripts/replay-fixtures.sh" "$binary" "$out/replay-$side" > /dev/null
    done
    local f count=0 before=$same
    for f in "$out"/replay-amd64/*; do
        compare "replay-fixtures $(basename "$f")" "$f" "$out/replay-arm64/$(basename "$f")"
        count=$((count + 1))
    done
    echo "qemu-user, waymark replay (scripts/replay-fixtures.sh): $((same - before))/$count identical"
    before=$same
    for side in amd64 arm64; do
        if [ "$side" = amd64 ]; then binary=$waymark; else binary=$wrapper; fi
        WAYMARK=$binary WAYMARK_DRIVE_DIR=$out/drive-$side "$root/scripts/drive.sh" > "$out/drive-$side.events" \
            2> "$out/drive-$side.stderr"
        mask_clock < "$out/drive-$side.events" > "$out/drive-$side.events.masked"
        (cd "$out/drive-$side/logs" && find . -type f | sort | while read -r f; do echo "== $f"; mask_clock < "$f"; done) \
            > "$out/drive-$side.logs.masked"
        grep -o 'counters=.*' "$out/drive-$side.stderr" | sed -E 's/spool_commits=[0-9]+/spool_commits=N/' \
            > "$out/drive-$side.counters"
    done
    compare "live drive: events" "$out/drive-amd64.events.masked" "$out/drive-arm64.events.masked"
    compare "live drive: day log, trips, GPX" "$out/drive-amd64.logs.masked" "$out/drive-arm64.logs.masked"
    compare "live drive: counters" "$out/drive-amd64.counters" "$out/drive-arm64.counters"
    echo "qemu-user, waymark run against a live amd64 gpsd (scripts/drive.sh): $((same - before))/3 identical" \
        "($(grep -c '"type":"location"' "$out/drive-arm64.events") locations; masked: see check_waymark)"
}
mask_clock() {
    awk '!fix && /"type":"location"/ {fix = 1}
        !fix {gsub(/"time":"[^"]*"/, "\"time\":\"-\"")}
        {gsub(/"recv":"[^"]*"/, "\"recv\":\"-\""); gsub(/tcp:\/\/127\.0\.0\.1:[0-9]+/, "tcp://127.0.0.1:PORT")}
        /"type":"deferred_finished"/ {gsub(/"duration":[0-9.e+-]+/, "\"duration\":-")}
        /"type":"deferred_finished".*"reason":"shutdown"/ {gsub(/"time":"[^"]*"/, "\"time\":\"-\"")}
        {print}'
}

# --- 6. 16 KB pages in qemu-system-aarch64 ---------------------------------------------------------------------
# A subset (the fixture captures cost about a second each under full-system emulation): these, both decoders.
subset=(20100411_Geko_Regensburg.log bt451.log garmin-10x.log synthetic-ubx-nav-pvt.log)
check_16k() {
    step "16 KB pages: qemu-system-aarch64, trixie's arm64-16k kernel, busybox initramfs"
    local vm=$cache/vm name arch version sha
    mkdir -p "$vm"
    if ! fresh "$vm" "$(stamp_of 1 vm)"; then
        rm -rf "$vm/kernel" "$vm/busybox" "$vm/system"
        while read -r name arch version sha; do
            case $name in
                linux-image-*) mkdir -p "$vm/kernel" && extract "$(deb_file "$name" "$arch" "$version")" "$vm/kernel" './boot/vmlinuz-*' ;;
                busybox-static) dpkg-deb -x "$(deb_file "$name" "$arch" "$version")" "$vm/busybox" ;;
                *) dpkg-deb -x "$(deb_file "$name" "$arch" "$version")" "$vm/system" ;;
            esac
        done < <(locked vm)
        stamp_of 1 vm > "$vm/.stamp"
    fi
    local qemu_system=$vm/system/usr/bin/qemu-system-aarch64
    local qemu_libs=$vm/system/usr/lib/x86_64-linux-gnu:$vm/system/lib/x86_64-linux-gnu
    if LD_LIBRARY_PATH=$qemu_libs ldd "$qemu_system" | grep -q 'not found'; then
        fail "qemu-system-aarch64 lacks libraries: $(LD_LIBRARY_PATH=$qemu_libs ldd "$qemu_system" | grep 'not found' | tr -d '\t' | tr '\n' ' ')"
    fi
    local kernel
    kernel=$(ls "$vm"/kernel/boot/vmlinuz-*)
    # The initramfs: busybox, the probe with the libraries it loads (the sysroot's glibc, Debian's Swift runtime),
    # the subset's captures, and an init that replays each and powers off.
    local initrd=$vm/initrd
    rm -rf "$initrd"
    mkdir -p "$initrd"/{bin,proc,sys,dev,tmp,work,lib,usr/lib/aarch64-linux-gnu,swift}
    cp "$vm/busybox/bin/busybox" "$initrd/bin/"
    for name in sh mount poweroff cat echo mkdir; do ln -s busybox "$initrd/bin/$name"; done
    cp "$probe" "$initrd/bin/arm64probe"
    cp "$waymark_arm64" "$initrd/bin/waymark"
    cp -L "$sysroot"/usr/lib/ld-linux-aarch64.so.1 "$initrd/lib/"
    local lib
    for lib in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 libgps.so.28 libsqlite3.so.0 libz.so.1 \
        libdbus-1.so.3 libsystemd.so.0 libcap.so.2 libgcrypt.so.20 libgpg-error.so.0 liblz4.so.1 liblzma.so.5 \
        libzstd.so.1 libbluetooth.so.3 libusb-1.0.so.0 libudev.so.1 libnsl.so.2 libtirpc.so.3 \
        libgssapi_krb5.so.2 libkrb5.so.3 libk5crypto.so.3 libcom_err.so.2 libkrb5support.so.0 libkeyutils.so.1 \
        libresolv.so.2; do
        [ -e "$sysroot/usr/lib/aarch64-linux-gnu/$lib" ] && cp -L "$sysroot/usr/lib/aarch64-linux-gnu/$lib" "$initrd/usr/lib/aarch64-linux-gnu/"
    done
    cp -L "$res"/linux/*.so "$initrd/swift/"
    local capture
    for capture in "${subset[@]}"; do cp "$root/Tests/Fixtures/gpsd-logs/$capture.chk" "$initrd/work/"; done
    cat > "$initrd/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t devtmpfs dev /dev
export LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu:/swift
printf '[agent]\ndevice_id = "arm64-check"\nstate_dir = "/tmp/state"\nlog_dir = "/tmp/logs"\nruntime_dir = "/tmp/run"\n[places]\nfile = "/tmp/none.bin"\n' > /tmp/waymark.toml
for capture in /work/*.chk; do
    for decoder in builtin libgps; do
        echo "@@BEGIN ${capture##*/} $decoder"
        /bin/arm64probe replay "$capture" "$decoder" /tmp/waymark.toml 2> /tmp/stderr || echo "exit $?"
        echo "@@END"
        grep 'page size' /tmp/stderr
        echo "@@BEGIN ${capture##*/} waymark-$decoder"
        /bin/waymark replay "$capture" --config /tmp/waymark.toml --decoder "$decoder" --print 2> /dev/null || echo "exit $?"
        echo "@@END"
    done
done
echo "@@BEGIN places"
/bin/arm64probe place /work/places.bin POINTS 2> /dev/null || echo "exit $?"
echo "@@END"
echo "@@BEGIN places-waymark"
set -- POINTS
while [ $# -gt 1 ]; do
    /bin/waymark geo place --json --file /work/places.bin "$1" "$2" 2> /dev/null || echo "exit $?"
    shift 2
done
echo "@@END"
poweroff -f
INIT
    sed -i "s|POINTS|${points[*]}|g" "$initrd/init"
    chmod +x "$initrd/init"
    cp "$places" "$initrd/work/places.bin"
    # Archived by the arm64 busybox itself under qemu-user: the host needs no cpio.
    (cd "$initrd" && find . | "$qemu_user" "$vm/busybox/bin/busybox" cpio -o -H newc 2> /dev/null | gzip -1) \
        > "$vm/initrd.cpio.gz"
    local console=$vm/console.log
    # Pointer authentication and the other v8.2+ features of a Pi 5's Cortex-A76; 2 CPUs, 2 GB, no network.
    LD_LIBRARY_PATH=$qemu_libs timeout 1800 nice -n 5 "$qemu_system" -M virt -cpu cortex-a76 -smp 2 -m 2048 \
        -nographic -no-reboot -nic none -kernel "$kernel" -initrd "$vm/initrd.cpio.gz" \
        -append "console=ttyAMA0 rdinit=/init panic=-1 quiet" > "$console" 2>&1 < /dev/null ||
        fail "qemu-system-aarch64 failed: see $console"
    tr -d '\r' < "$console" > "$vm/console.txt"
    grep -q 'page size: 16384' "$vm/console.txt" || fail "the probe did not report 16 KB pages: see $console"
    local out=$cache/out-16k
    rm -rf "$out"
    mkdir -p "$out"
    # Each @@BEGIN ... @@END block of the console is one output.
    awk -v out="$out" '/^@@BEGIN / {f = out "/" $2 "." ($3 == "" ? "x" : $3) ".arm64"; printf "" > f; on = 1; next}
        /^@@END/ {on = 0; next} on {print > f}' "$vm/console.txt"
    local same_before=$same total_before=$total decoder arm64
    for capture in "${subset[@]}"; do
        for decoder in builtin libgps; do
            config_for "$out/work"
            "$waymark" replay "$root/Tests/Fixtures/gpsd-logs/$capture.chk" --config "$out/work/waymark.toml" \
                --decoder "$decoder" --print > "$out/$capture.chk.$decoder.amd64" 2> /dev/null || echo "exit $?" >> "$out/$capture.chk.$decoder.amd64"
            for arm64 in "$decoder" "waymark-$decoder"; do
                compare "16 KB pages: replay --decoder $decoder $capture ($arm64)" \
                    "$out/$capture.chk.$decoder.amd64" "$out/$capture.chk.$arm64.arm64"
            done
        done
    done
    amd64_places > "$out/places.amd64"
    for arm64 in places places-waymark; do
        compare "16 KB pages: geo place ($arm64)" "$out/places.amd64" "$out/$arm64.x.arm64"
    done
    echo "16 KB pages (qemu-system-aarch64, $(grep -m1 -o 'page size: [0-9]*' "$vm/console.txt")):" \
        "$((same - same_before))/$((total - total_before)) identical (outputs in $out)"
}

# The steps, in one function called from the last line: bash reads a script as it runs it, and an edit of this
# file during a run would otherwise change what the run does next.
main() {
    fetch_debs
    make_sysroot
    make_swift_resources
    cross_build
    native_build
    make_qemu_user
    check_user
    check_waymark
    [ "$run_16k" = 0 ] || check_16k
    echo "arm64: $same/$total identical in $(($(date +%s) - started)) s"
    [ "$same" = "$total" ]
}
main; exit $?
