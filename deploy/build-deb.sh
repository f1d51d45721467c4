#!/usr/bin/env bash
# Builds Waymark's two Debian packages and prints their paths on stdout, one a line:
#   .build-release/waymark_VERSION_ARCH.deb      the agent, for this machine's architecture (dpkg
#                                                --print-architecture: amd64 here, arm64 on a Raspberry Pi or an
#                                                arm64 builder), from the static release binary (scripts/build-release.sh)
#   .build-release/waymark-places_VERSION_all.deb the gazetteer that names places offline (scripts/build-places.sh:
#                                                GeoNames, CC BY 4.0), the same file on every architecture;
#                                                waymark recommends it, so apt installs both
#   .build-release/waymark-addresses_VERSION_all.deb with WAYMARK_ADDRESSES_EXTRACT=FILE.osm.pbf only: the street
#                                                addresses of that OpenStreetMap extract (waymark places
#                                                build-addresses: © OpenStreetMap contributors, ODbL 1.0)
#   deploy/build-deb.sh && sudo apt install ./.build-release/waymark*.deb
# Needs dpkg-dev (dpkg-shlibdeps) and python3 (the manual page); scripts/install-deps.sh --package installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Reproducible: two builds of the same commit give byte-identical packages. Every date in them is the last
# commit's (dpkg-deb takes SOURCE_DATE_EPOCH for the ar members and clamps the files' times to it), the owners are
# root's (--root-owner-group), dpkg-deb sorts the members, and gzip writes no name or time (-n).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
binary=$(scripts/build-release.sh)
version=$("$binary" --version | awk 'NR == 1 { print $2 }')
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/waymark"

install -D -m 0755 "$binary" "$root/usr/bin/waymark"
install -D -m 0644 config/waymark.toml "$root/etc/waymark/waymark.toml"
install -D -m 0644 deploy/systemd/waymark.service "$root/usr/lib/systemd/system/waymark.service"
install -D -m 0644 deploy/sysusers.d/waymark.conf "$root/usr/lib/sysusers.d/waymark.conf"
install -D -m 0644 deploy/tmpfiles.d/waymark.conf "$root/usr/lib/tmpfiles.d/waymark.conf"
install -D -m 0644 deploy/dbus/waymark.conf "$root/usr/share/dbus-1/system.d/waymark.conf"
doc="$root/usr/share/doc/waymark"
install -D -m 0644 config/regions.geojson "$doc/examples/regions.geojson"
install -D -m 0644 deploy/debian/copyright "$doc/copyright"
gzip -9n <deploy/debian/changelog >"$work/changelog.gz"
install -m 0644 "$work/changelog.gz" "$doc/changelog.gz"
# The date of the manual page is the last commit's, so that a rebuild of the same tree gives the same bytes.
date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)
install -d -m 0755 "$root/usr/share/man/man1"
deploy/man/waymark-manpage.py "$binary" "$date" | gzip -9n >"$root/usr/share/man/man1/waymark.1.gz"
install -d -m 0755 "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions"
# bash-completion sources the file: no #! line.
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/waymark"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_waymark"
chmod 0644 "$root/usr/share/bash-completion/completions/waymark" "$root/usr/share/zsh/vendor-completions/_waymark"

# Depends: the libraries the binary links (libc6, libgps, libsqlite3, ...) as dpkg-shlibdeps finds them.
mkdir -p "$work/shlibs/debian"
printf 'Source: waymark\n\nPackage: waymark\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/waymark" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "dpkg-shlibdeps found no dependencies of $binary" >&2; exit 1; }

# Writes DEBIAN/ of the tree $1 from the control template $2 (md5sums, the Installed-Size) and builds
# .build-release/NAME_VERSION_ARCH.deb; prints its path.
package() {
    local tree=$1 template=$2 name arch size file
    (cd "$tree" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
    chmod 0644 "$tree/DEBIAN/md5sums"
    size=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
    sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$machine/" -e "s/@INSTALLED_SIZE@/$size/" \
        -e "s/@DEPENDS@/$depends/" "$template" >"$tree/DEBIAN/control"
    name=$(sed -n 's/^Package: //p' "$tree/DEBIAN/control")
    arch=$(sed -n 's/^Architecture: //p' "$tree/DEBIAN/control")
    file=".build-release/${name}_${version}_${arch}.deb"
    dpkg-deb --root-owner-group -Zxz --build "$tree" "$file" >&2
    echo "$file: installed size $size KiB" >&2
    echo "$file"
}

install -d -m 0755 "$root/DEBIAN"
install -m 0755 deploy/debian/postinst deploy/debian/prerm deploy/debian/postrm "$root/DEBIAN/"
install -m 0644 deploy/debian/conffiles "$root/DEBIAN/conffiles"
machine=$arch
echo "Depends: $depends" >&2
package "$root" deploy/debian/control.in

# waymark-places: the gazetteer, built by the binary just made.
places="$work/waymark-places"
WAYMARK="$binary" scripts/build-places.sh "$work/places.bin" >&2
install -D -m 0644 "$work/places.bin" "$places/usr/share/waymark/places.bin"
install -D -m 0644 deploy/debian/places/copyright "$places/usr/share/doc/waymark-places/copyright"
install -m 0644 "$work/changelog.gz" "$places/usr/share/doc/waymark-places/changelog.gz"
install -d -m 0755 "$places/DEBIAN"
package "$places" deploy/debian/places/control.in

# waymark-addresses, for a fleet's region only: the address file of the extract WAYMARK_ADDRESSES_EXTRACT names.
if [ -n "${WAYMARK_ADDRESSES_EXTRACT:-}" ]; then
    addresses="$work/waymark-addresses"
    "$binary" places build-addresses "$WAYMARK_ADDRESSES_EXTRACT" "$work/addresses.bin" >&2
    install -D -m 0644 "$work/addresses.bin" "$addresses/usr/share/waymark/addresses.bin"
    install -d -m 0755 "$addresses/usr/share/doc/waymark-addresses" "$addresses/DEBIAN"
    install -m 0755 deploy/debian/addresses/postinst deploy/debian/addresses/postrm "$addresses/DEBIAN/"
    sed "s|@SOURCE@|$(basename "$WAYMARK_ADDRESSES_EXTRACT")|" deploy/debian/addresses/copyright.in \
        >"$addresses/usr/share/doc/waymark-addresses/copyright"
    chmod 0644 "$addresses/usr/share/doc/waymark-addresses/copyright"
    install -m 0644 "$work/changelog.gz" "$addresses/usr/share/doc/waymark-addresses/changelog.gz"
    package "$addresses" deploy/debian/addresses/control.in
fi
