# Shared helpers for image/build and image/test (sourced, not run).
# Everything the recipe downloads or builds is cached under $CACHE (.image/cache by default).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE_DIR=${IMAGE_DIR:-$REPO/.image}
CACHE=${CACHE:-$IMAGE_DIR/cache}
# The pinned distribution is chosen per board by image/build (suite_for): Debian 13 "trixie" for
# the Raspberry Pis, Debian 12 "bookworm" for the qemu board; SUITE= overrides it. The exact
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
