#!/usr/bin/env bash
# Fuzzes Waymark's readers with libFuzzer and AddressSanitizer (docs/development.md, "Fuzzing").
#
#   scripts/fuzz.sh --list                  the targets, one a line
#   scripts/fuzz.sh TARGET SECONDS [ARG…]   runs one target for SECONDS (more libFuzzer arguments may follow)
#   scripts/fuzz.sh --smoke SECONDS         runs every target for SECONDS each; fails at the first crash
#   scripts/fuzz.sh --build [TARGET…]       builds the targets (all by default) without running them
#
# The Waymark modules are built once with SwiftPM, instrumented (-sanitize=fuzzer,address), into .build-fuzz/;
# each target (Fuzz/Targets/*.swift: its `fuzz-target`, `fuzz-seeds` and `fuzz-dictionary` lines say what it is)
# is compiled against them and linked on its own (a `fuzz-max-len` line bounds its inputs). The corpus a run grows is kept in .build-fuzz/corpus/TARGET,
# seeded from the paths its `fuzz-seeds` line names (a directory's files, a .gz file's first 40 lines); a crash
# is written to .build-fuzz/crashes/TARGET/ and the run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
build=$root/.build-fuzz
# Swift's own crash backtracer would stop libFuzzer from writing the crashing input (it waits on a debugger).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}

# The target's source file, by the name its `fuzz-target` line gives.
target_file() {
    grep -l -x "// fuzz-target: $1" Fuzz/Targets/*.swift 2>/dev/null | head -n 1
}

header() { # header FILE KEY: the value of the file's `// KEY:` line
    sed -n "s|^// $2: ||p" "$1" | head -n 1
}

list_targets() {
    for file in Fuzz/Targets/*.swift; do header "$file" fuzz-target; done
}

swiftpm_flags=(-c release --build-path "$build" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

build_modules() {
    # Every module a target may import; SwiftPM builds only what changed.
    swift build "${swiftpm_flags[@]}" --target WaymarkAgent >&2
    bin=$(swift build "${swiftpm_flags[@]}" --show-bin-path)
}

build_target() { # build_target NAME: compiles and links .build-fuzz/bin/NAME unless it is up to date
    local name=$1 file
    file=$(target_file "$name")
    [ -n "$file" ] || { echo "fuzz.sh: no target $name (scripts/fuzz.sh --list)" >&2; exit 2; }
    mkdir -p "$build/bin"
    local out=$build/bin/$name
    local objects
    # The modules' objects (not the tools SwiftPM builds for itself); some names hold spaces.
    mapfile -d '' objects < <(find "$bin" -path "$bin/Modules*" -prune -o -path '*-tool*' -prune -o -name '*.o' -print0)
    if [ -x "$out" ] && [ -z "$(find "$file" Fuzz/Support "${objects[@]}" -newer "$out" -print -quit)" ]; then
        return
    fi
    echo "fuzz.sh: building $name" >&2
    rm -f "$out"
    local maps=()
    for map in Sources/CLibGPS/module.modulemap Sources/CLinux/module.modulemap Sources/CSQLite/module.modulemap \
        "$bin/CUplink.build/module.modulemap" "$bin/CBlueZ.build/module.modulemap"; do
        maps+=(-Xcc "-fmodule-map-file=$map")
    done
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "FuzzTarget" -I "$bin/Modules" "${maps[@]}" \
        -I Sources/CUplink/include -I Sources/CBlueZ/include \
        Fuzz/Support/*.swift "$file" "${objects[@]}" -lgps -lsqlite3 -o "$out" 2>&1 |
        grep -v "ld.gold: warning: Cannot export local symbol" >&2 || true
    [ -x "$out" ] || { echo "fuzz.sh: $name did not build" >&2; exit 1; }
}

seed_corpus() { # seed_corpus NAME FILE: fills .build-fuzz/corpus/NAME from the target's seeds, once
    local name=$1 file=$2 corpus=$build/corpus/$1
    mkdir -p "$corpus"
    [ -z "$(ls -A "$corpus")" ] || return 0
    local seeds
    seeds=$(header "$file" fuzz-seeds)
    for seed in $seeds; do
        if [ -d "$seed" ]; then
            find "$seed" -type f -size -256k -exec cp -t "$corpus" {} + 2>/dev/null || true
        elif [[ "$seed" == *.gz ]]; then
            zcat "$seed" | head -n 40 >"$corpus/$(basename "$seed" .gz)" || true
        elif [ -f "$seed" ]; then
            cp "$seed" "$corpus/"
        fi
    done
}

run_target() { # run_target NAME SECONDS [ARG…]
    local name=$1 seconds=$2
    shift 2
    local file
    file=$(target_file "$name")
    build_target "$name"
    seed_corpus "$name" "$file"
    local dictionary
    dictionary=$(header "$file" fuzz-dictionary)
    # The longest input: 64 KB, or the target's `fuzz-max-len` (libgps's JSON parsing is slow under the fuzzer's
    # string-comparison hooks: a few lines longer than its 10 KB line limit are enough there).
    local max_len
    max_len=$(header "$file" fuzz-max-len)
    local arguments=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="${max_len:-65536}")
    arguments+=(-print_final_stats=1)
    [ -z "$dictionary" ] || arguments+=(-dict="Fuzz/Dictionaries/$dictionary")
    mkdir -p "$build/crashes/$name"
    arguments+=(-artifact_prefix="$build/crashes/$name/")
    "$build/bin/$name" "${arguments[@]}" "$@" "$build/corpus/$name"
}

case "${1:-}" in
--list)
    list_targets
    ;;
--build)
    shift
    build_modules
    targets=("$@")
    [ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(list_targets)
    for name in "${targets[@]}"; do build_target "$name"; done
    ;;
--smoke)
    seconds=${2:?"--smoke SECONDS"}
    build_modules
    mapfile -t targets < <(list_targets)
    for name in "${targets[@]}"; do build_target "$name"; done
    failed=()
    for name in "${targets[@]}"; do
        log=$build/smoke-$name.log
        # A fixed seed: the same commit mutates the same way each run (as far as a time limit allows), so a
        # crash the smoke finds is not luck of one run.
        if run_target "$name" "$seconds" -seed=1 >"$log" 2>&1; then
            echo "fuzz $name: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs, no crash"
        else
            echo "fuzz $name: FAILED (log: $log)" >&2
            tail -n 40 "$log" >&2
            # A fresh CI machine keeps nothing: the inputs that failed are printed (the first 4 KB of each), for a
            # fixture test.
            for input in "$build/crashes/$name"/*; do
                [ -f "$input" ] || continue
                echo "fuzz $name: input $(basename "$input") ($(stat -c %s "$input") bytes):" >&2
                head -c 4096 "$input" | od -A d -t x1z >&2
            done
            failed+=("$name")
        fi
    done
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzz smoke: ${#failed[@]} of ${#targets[@]} targets crashed: ${failed[*]}" >&2
        exit 1
    fi
    echo "fuzz smoke: ${#targets[@]} targets, ${seconds} s each, no crash"
    ;;
"" | -h | --help)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    ;;
*)
    name=$1
    seconds=${2:?"scripts/fuzz.sh TARGET SECONDS"}
    shift 2
    build_modules
    run_target "$name" "$seconds" "$@"
    ;;
esac
