# Sourced by scripts/measure-card-wear.sh and scripts/measure-live-wear.sh (as root): a board's SD card stood in for
# by an ext4 file system of its own on a loop device, so that what the block layer sends it can be counted.
#
# card DIRECTORY: a 2 GB ext4 file system on DIRECTORY/mnt (4 KB blocks, mounted noatime, as Raspberry Pi OS mounts
# its card), its inode tables and journal written now rather than by the kernel later, within a count; owned by the
# user sudo came from; its loop device's name in $device (/sys/block/$device/stat counts what it was sent).
card() {
    mkdir -p "$1/mnt"
    truncate -s 2G "$1/card.img"
    mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$1/card.img"
    mount -o loop,noatime "$1/card.img" "$1/mnt"
    [ -z "${SUDO_USER:-}" ] || chown "$SUDO_USER" "$1/mnt"
    device=$(basename "$(findmnt -n -o SOURCE "$1/mnt")")
    [ -r "/sys/block/$device/stat" ] || { echo "$1/mnt: no block device to count ($device)" >&2; exit 1; }
}
