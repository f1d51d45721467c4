#!/usr/bin/env bash
# Builds waymark for the board: a release build with the Swift runtime linked in (--static-swift-stdlib),
# stripped, so that it needs only Debian's system libraries (libc, libgps, libsqlite3) and no Swift
# toolchain. Prints the stripped binary's path on stdout, its size and NEEDED libraries on stderr.
#   scripts/build-release.sh            -> .build-release/waymark
# One build folder of its own (.build-release), so it never waits on a debug build or `swift test`.
# Everything that runs the release binary (the quick start, the tests, the benchmarks' scripts) takes it
# from here.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
command -v swift >/dev/null || {
    echo "swift is not installed: see README.md, \"Installing Swift on Debian 12\"" >&2
    exit 1
}
scratch=.build-release
# No $ORIGIN run path: on the board the binary is /usr/bin/waymark and loads libraries from the system's
# folders only.
# Linked with full RELRO (-z relro -z now): the few dynamic symbols are bound at start and their table made
# read-only, as Debian hardens its binaries.
# Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc 2.36 on, as in Debian 12):
# the 47,000 pointers of the Swift runtime and metadata that a position-independent binary relocates at
# start take 9 kB instead of 1.1 MB, so the binary is 1.2 MB smaller and starts with fewer pages read.
# Linked without --export-dynamic (swiftc asks for it; the later --no-export-dynamic wins): nothing loads
# a library that would look up the binary's symbols, and the 11,000 Swift symbols it would export took 1 MB
# (.dynsym, .dynstr, .gnu.hash) and made every start slower, as the runtime's start-up dladdr walks them.
# The stripped binary so names no function: symbolize a crash's addresses with the unstripped one
# (.build-release/release/waymark of the same build).
flags=(-c release --static-swift-stdlib --disable-local-rpath --scratch-path "$scratch"
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic)
swift build "${flags[@]}" --product waymark >&2
built=$(swift build "${flags[@]}" --show-bin-path)/waymark
strip --remove-section=.comment -o "$scratch/waymark.tmp" "$built"
mv "$scratch/waymark.tmp" "$scratch/waymark"
size=$(stat -c %s "$scratch/waymark")
echo "waymark: $scratch/waymark, $size bytes stripped ($(( (size + 524288) / 1048576 )) MB)" >&2
echo "NEEDED: $(readelf -d "$scratch/waymark" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')" >&2
echo "$scratch/waymark"
