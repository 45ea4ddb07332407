#!/bin/sh
# Run the README's quick start -- and, with --ci, all of .ci/run -- on a
# fresh Debian 12 that has only gcc, cmake and git: a minimal debootstrap
# into DIR, a clone of this repository's committed HEAD inside it, then the
# commands as a new user would type them. A green run here cannot hide an
# install step that happens to be done on the developer's machine.
#
#   tools/fresh_debian.sh [--ci] [DIR]     (root; DIR: /tmp/corral-fresh)
#
# Needs root (debootstrap, chroot, mounts) and Debian's package mirror. DIR
# is made from scratch each run and left behind for a look; the mounts are
# undone on exit.
set -eu
ci=0
if [ "${1:-}" = "--ci" ]; then ci=1; shift; fi
dir=$(realpath -m "${1:-/tmp/corral-fresh}") # absolute, from the caller's directory: the mount checks compare paths
cd "$(dirname "$0")/.."
repo=$(pwd)
mirror=${CORRAL_DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ "$(id -u)" != 0 ]; then
    echo "fresh_debian: needs root (debootstrap, chroot, mounts)" >&2
    exit 2
fi
if ! command -v debootstrap >/dev/null 2>&1; then
    echo "fresh_debian: installing debootstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
case "$dir" in /|/tmp|/tmp/|"$repo"*) echo "fresh_debian: refusing DIR=$dir" >&2; exit 2 ;; esac
if mount | grep -q " $dir/"; then
    echo "fresh_debian: $dir still has mounts from an earlier run; unmount them first" >&2
    exit 2
fi

undo() {
    for m in src dev/pts dev proc; do
        if mount | grep -q " $dir/$m "; then umount "$dir/$m" || true; fi
    done
}
trap undo EXIT INT TERM

rm -rf --one-file-system "$dir" # never into a mount left by a killed run
echo "fresh_debian: debootstrap (minbase, bookworm) into $dir"
debootstrap --variant=minbase bookworm "$dir" "$mirror" > "$dir.debootstrap.log" 2>&1 ||
    { echo "fresh_debian: debootstrap failed (see $dir.debootstrap.log)" >&2; exit 1; }
cp /etc/resolv.conf "$dir/etc/resolv.conf"
# the host's TLS trust, as every machine of this workplace has it (its
# network may sign what it relays): handed to node and npm, which otherwise
# reject the npm registry's certificate (the browser test's puppeteer-core)
tls=""
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$dir/etc/host-ca-certificates.crt"
    tls="NODE_EXTRA_CA_CERTS=/etc/host-ca-certificates.crt npm_config_cafile=/etc/host-ca-certificates.crt"
fi
mount -t proc proc "$dir/proc"
mount --bind /dev "$dir/dev" # not recursive: nothing under the host's /dev is unmounted on exit
mount -t devpts -o newinstance devpts "$dir/dev/pts" # apt's log wants a terminal
mkdir -p "$dir/src"
mount --bind -o ro "$repo" "$dir/src"

echo "fresh_debian: the machine the README assumes: gcc, cmake and git only"
chroot "$dir" /bin/sh -c 'apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc cmake git >/dev/null'
chroot "$dir" /bin/sh -c 'gcc --version | head -n 1; cmake --version | head -n 1; git --version'

if [ "$ci" = 1 ]; then
    what='.ci/run'
else
    what='./tools/demo.sh > build-demo.out && tail -n 2 build-demo.out && ./tools/test.sh'
fi
echo "fresh_debian: clone HEAD, then: $what"
chroot "$dir" /usr/bin/env $tls /bin/sh -c "cd /root && git clone -q /src corral && cd corral && git log --oneline -1 && $what"
echo "fresh_debian: green"
