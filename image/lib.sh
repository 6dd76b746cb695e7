# Shared helpers for image/build and image/test (sourced, not run).
# Everything the recipe downloads or builds is cached under $CACHE (.image/cache by default).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE_DIR=${IMAGE_DIR:-$REPO/.image}
CACHE=${CACHE:-$IMAGE_DIR/cache}
# The pinned distribution is chosen per board by image/build: Debian 13 "trixie" for the Raspberry
# Pis and qemu-arm64, Debian 12 "bookworm" for the x86 qemu board; SUITE= overrides it. The exact
# package versions of every cached root file system are written next to it (*.manifest).
SUITE=${SUITE:-}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

say() { printf '[image] %s\n' "$*" >&2; }
die() { printf 'image: %s\n' "$*" >&2; exit 1; }

# need_packages PKG...: installs the missing Debian packages as root, else prints the apt-get
# line and stops.
need_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "The image recipe needs these Debian packages. Install them, then run it again:" >&2
        echo "    sudo apt-get install --no-install-recommends ${missing[*]}" >&2
        exit 1
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
            die "apt-get could not install: ${missing[*]}"
    fi
}

# need_root WHAT: debootstrap and chroot need root.
need_root() {
    [ "$(id -u)" -eq 0 ] || die "$1 needs root (debootstrap and chroot): run it as root or with sudo"
}

# elapsed START: seconds since START (from `date +%s.%N`), one decimal.
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# --- arm64 on another host: under qemu-user: register the interpreter with binfmt_misc ourselves -------------
binfmt_arm64() {
    [ -d /proc/sys/fs/binfmt_misc ] || die "no /proc/sys/fs/binfmt_misc in this kernel"
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && return 0
    # The ELF header of an aarch64 executable; F = open the interpreter now (works in chroots).
    printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F' \
        >/proc/sys/fs/binfmt_misc/register
}

# chroot_run DIR CMD...: runs CMD in DIR with /proc, /sys and /dev mounted, unmounting after.
chroot_run() {
    local dir=$1
    shift
    mount -t proc proc "$dir/proc"
    mount -t sysfs sys "$dir/sys"
    mount --bind /dev "$dir/dev"
    local rc=0
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive chroot "$dir" "$@" || rc=$?
    umount "$dir/dev" "$dir/sys" "$dir/proc"
    return $rc
}

# base_tar SUITE ARCH COMPONENTS: prints the path of the pinned minimal base root of SUITE for ARCH
# (debootstrap minbase, made once and cached as $CACHE/base-SUITE-ARCH.tar; another architecture
# than the host's runs its second stage under qemu-user).
base_tar() {
    local suite=$1 arch=$2 components=$3
    local base=$CACHE/base-$suite-$arch.tar log=$IMAGE_DIR/work/debootstrap-$suite-$arch.log
    if [ ! -s "$base" ]; then
        say "debootstrap $suite $arch (minbase) from $MIRROR: once, then cached as $base"
        local tmp=$IMAGE_DIR/work/base-$suite-$arch
        rm -rf "$tmp" && mkdir -p "$tmp" "$CACHE"
        if [ "$arch" = "$(dpkg --print-architecture)" ]; then
            debootstrap --variant=minbase --arch="$arch" --components="$components" "$suite" "$tmp" "$MIRROR" \
                >"$log" 2>&1 || die "debootstrap failed: see $log"
        else
            need_packages qemu-user-static
            binfmt_arm64
            debootstrap --foreign --variant=minbase --arch="$arch" --components="$components" "$suite" "$tmp" "$MIRROR" \
                >"$log" 2>&1 || die "debootstrap (first stage) failed: see $log"
            cp /usr/bin/qemu-aarch64-static "$tmp/usr/bin/"
            chroot "$tmp" /debootstrap/debootstrap --second-stage >>"$log" 2>&1 ||
                die "debootstrap (second stage, under qemu-user) failed: see $log"
        fi
        echo "deb $MIRROR $suite ${components//,/ }" >"$tmp/etc/apt/sources.list"
        tar --numeric-owner -C "$tmp" -cpf "$base.part" . && mv "$base.part" "$base"
        rm -rf "$tmp"
    fi
    echo "$base"
}
