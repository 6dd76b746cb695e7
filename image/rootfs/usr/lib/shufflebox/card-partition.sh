# /usr/lib/shufflebox/card-partition.sh: sourced by mount-state and mount-music, which mount the card's own
# partitions at the very start of the boot, without waiting for udev's coldplug to make their device
# units (8-12 s into a boot under TCG, while the kernel had the partitions at 0 s).
#
# Sourced, and with the shell's builtins where they do: at that moment udev's coldplug runs beside
# them, and every process started cost 0.1-0.2 s under TCG (a dozen in mount-music took 2.7 s).

# find_partition PARTUUID=DISKID-NN: sets $dev to the kernel's device of one of the card's partitions
# (/dev/mmcblk0p3), found by probing the kernel's partitions (findfs, libblkid). By PARTUUID, which no
# USB stick can carry, never by a label. The kernel may still be reading the card's partition table:
# ten seconds at most.
find_partition() {
    _tries=0
    until dev=$(findfs "$1" 2>/dev/null); do
        _tries=$((_tries + 1))
        if [ "$_tries" -ge 100 ]; then
            echo "no partition $1 on this card (is the card the one this image was written to?)" >&2
            return 1
        fi
        sleep 0.1
    done
}

# mounted DIR: whether something is mounted at DIR (mountpoint(1) without its process).
mounted() {
    while read -r _ _mp _; do
        [ "$_mp" = "$1" ] && return 0
    done </proc/mounts
    return 1
}
