#!/usr/bin/env bash
# Builds the Debian package of Waymark for this machine's architecture (dpkg --print-architecture: amd64 here,
# arm64 on a Raspberry Pi or an arm64 builder) from the static release binary (scripts/build-release.sh).
# Prints the package's path on stdout: .build-release/waymark_VERSION_ARCH.deb.
#   deploy/build-deb.sh && sudo apt install ./.build-release/waymark_*.deb
# Needs dpkg-dev (dpkg-shlibdeps) and python3 (the manual page); scripts/install-deps.sh --package installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(scripts/build-release.sh)
version=$("$binary" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/waymark"

install -D -m 0755 "$binary" "$root/usr/bin/waymark"
install -D -m 0644 config/waymark.toml "$root/etc/waymark/waymark.toml"
install -D -m 0644 deploy/systemd/waymark.service "$root/usr/lib/systemd/system/waymark.service"
install -D -m 0644 deploy/sysusers.d/waymark.conf "$root/usr/lib/sysusers.d/waymark.conf"
install -D -m 0644 deploy/tmpfiles.d/waymark.conf "$root/usr/lib/tmpfiles.d/waymark.conf"
doc="$root/usr/share/doc/waymark"
install -D -m 0644 config/regions.geojson "$doc/examples/regions.geojson"
install -D -m 0644 deploy/debian/copyright "$doc/copyright"
gzip -9n <deploy/debian/changelog >"$work/changelog.gz"
install -m 0644 "$work/changelog.gz" "$doc/changelog.gz"
# The date of the manual page is the last commit's, so that a rebuild of the same tree gives the same bytes.
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
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

install -d -m 0755 "$root/DEBIAN"
install -m 0755 deploy/debian/postinst deploy/debian/prerm deploy/debian/postrm "$root/DEBIAN/"
install -m 0644 deploy/debian/conffiles "$root/DEBIAN/conffiles"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    deploy/debian/control.in >"$root/DEBIAN/control"

package=".build-release/waymark_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >&2
echo "$package: installed size $size KiB, Depends: $depends" >&2
echo "$package"
