#!/bin/sh
# Run a command as a new user would: in a Debian 12 root file system that
# has none of the project's packages, on a clean clone of this checkout's
# committed HEAD, as root inside a chroot. CI runs `make demo` this way
# first, so a missing install step fails CI instead of a new user.
#
#   tests/ci/fresh-root.sh [COMMAND...]      default: make demo
#
# FRESH_ROOT_COPY="FILE..." copies those files (e.g. a built package) to
# /srv in the root before the command runs.
# The root starts as debootstrap's minbase plus git, make and
# ca-certificates (cached as a tarball in $CORETRACE_CACHE/fresh-root,
# default ~/.cache/coretrace); downloaded .deb files are kept there too, so
# only the first run downloads, but every run installs from nothing.
# Needs root (debootstrap, chroot, mounts). Exit status: the command's.
set -eu

[ $# -gt 0 ] || set -- make demo
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CORETRACE_CACHE:-${HOME:-/root}/.cache/coretrace}/fresh-root
base=$cache/bookworm-minbase.tar

die() {
	echo "fresh-root: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mounts)"
if ! command -v debootstrap >/dev/null; then
	apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null ||
		die "cannot install debootstrap"
fi
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] ||
	mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt"

mkdir -p "$cache/archives/partial"
if [ ! -s "$base" ]; then
	echo "fresh-root: making the base root file system (once, cached in $cache)"
	tmp=$(mktemp -d)
	debootstrap --variant=minbase --include=git,make,ca-certificates \
		bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		die "debootstrap failed (log: $cache/debootstrap.log)"
	tar -C "$tmp" -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf "$tmp"
fi

run=$(mktemp -d /tmp/coretrace-fresh.XXXXXX)
root=$run/root
mounts=""
cleanup() {
	for m in $mounts; do umount -l "$m" 2>/dev/null || true; done
	rm -rf "$run"
}
trap cleanup EXIT INT TERM
mnt() {
	mount "$@"
	for last; do :; done
	mounts="$last $mounts"
}

mkdir -p "$root"
tar -C "$root" -xf "$base"
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
	cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
else
	cp /etc/apt/sources.list "$root/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mnt -t proc proc "$root/proc"
mnt -t sysfs sys "$root/sys"
mnt --rbind /dev "$root/dev"
mnt -t tmpfs tmpfs "$root/tmp"
mnt --bind "$cache/archives" "$root/var/cache/apt/archives"

git clone -q "$top" "$root/srv/coretrace"
for f in ${FRESH_ROOT_COPY:-}; do
	cp "$f" "$root/srv/" || die "cannot copy $f into the root"
done
echo "fresh-root: $(git -C "$root/srv/coretrace" log -1 --format='%h %s')"
echo "fresh-root: running '$*' in a fresh Debian 12 root"
start=$(date +%s)
status=0
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI="${CI:-}" \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	/bin/sh -c 'cd /srv/coretrace && "$@"' sh "$@" </dev/null || status=$?
echo "fresh-root: '$*' exited with status $status after $(($(date +%s) - start)) s"
exit "$status"
