#!/bin/sh
# /usr/lib/shufflebox/find-partition PARTUUID=DISKID-NN: prints the kernel's device of one of the card's
# own partitions (/dev/mmcblk0p3), found by probing the kernel's partitions (findfs, libblkid), so that
# the state and MUSIC partitions are mounted at the very start of the boot, without waiting for udev's
# coldplug to make their device units (8-12 s into a boot under TCG, while the kernel had the partitions
# at 0 s). By PARTUUID, which no USB stick can carry, never by a label.
set -u
spec=${1:?usage: find-partition PARTUUID=...}
# The kernel may still be reading the card's partition table: ten seconds at most.
for _ in $(seq 100); do
    findfs "$spec" 2>/dev/null && exit 0
    sleep 0.1
done
echo "find-partition: no partition $spec on this card (is the card the one this image was written to?)" >&2
exit 1
