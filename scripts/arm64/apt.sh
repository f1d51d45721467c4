# A private apt configuration under the cache (sourced by check-arm64.sh and make-lock.sh): Debian's bookworm,
# trixie and sid for amd64 and arm64, its own lists, its own (empty) dpkg status, so that nothing of the host's
# apt changes. The indexes are checked with Debian's archive keyring, as the host's apt does.
cache=${WAYMARK_ARM64_CACHE:-$HOME/.cache/waymark-arm64}
arm64_apt_setup() {
    local a=$cache/apt
    mkdir -p "$a/state/lists/partial" "$a/cache/archives/partial" "$a/etc/sources.list.d" "$a/etc/preferences.d"
    touch "$a/state/status"
    local key=/usr/share/keyrings/debian-archive-keyring.gpg
    {
        for suite in bookworm trixie sid; do
            echo "deb [arch=amd64,arm64 signed-by=$key] http://deb.debian.org/debian $suite main"
        done
        echo "deb-src [signed-by=$key] http://deb.debian.org/debian sid main"
    } > "$a/etc/sources.list"
    cat > "$a/apt.conf" <<CONF
Dir::State "$a/state";
Dir::State::status "$a/state/status";
Dir::Cache "$a/cache";
Dir::Etc::sourcelist "$a/etc/sources.list";
Dir::Etc::sourceparts "$a/etc/sources.list.d";
Dir::Etc::preferencesparts "$a/etc/preferences.d";
APT::Architecture "arm64";
APT::Architectures { "arm64"; "amd64"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
CONF
}
arm64_apt_get() { apt-get -c "$cache/apt/apt.conf" "$@"; }
arm64_apt_cache() { apt-cache -c "$cache/apt/apt.conf" "$@"; }
