#!/bin/sh
# Install every Debian package coretrace needs to build, test and demo.
# Only Debian's archive is used; nothing is downloaded from anywhere else.
#
#   tests/deps.sh           install what is missing (needs root)
#   tests/deps.sh --check   exit 0 when everything is installed, 1 otherwise
#   --test                  also what make test alone needs (npm, for
#                           speedscope: tests/host/speedscope-check.sh)
#   --bench                 also the tracers make bench compares coretrace
#                           with (Debian's own builds, run unchanged)
#   --pkg                   also what builds and checks the Debian package
set -eu

check=0 bench=0 pkg=0 test=0
for arg in "$@"; do
	case "$arg" in
	--check) check=1 ;;
	--test) test=1 ;;
	--bench) bench=1 ;;
	--pkg) pkg=1 ;;
	*) echo "deps: unknown argument '$arg'" >&2; exit 2 ;;
	esac
done

PACKAGES="
	make gcc clang llvm libc6-dev libclang-rt-14-dev
	libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev liblzma-dev libbz2-dev
	pkg-config
	libseccomp-dev libcap-dev
	linux-image-amd64 linux-headers-amd64 linux-source-6.1 dwarves
	qemu-system-x86 busybox-static cpio xz-utils zstd babeltrace2
	chromium imagemagick fonts-dejavu-core python3
	bc bison flex libssl-dev
"
[ "$bench" -eq 1 ] && PACKAGES="$PACKAGES linux-perf trace-cmd bpftrace time"
[ "$pkg" -eq 1 ] && PACKAGES="$PACKAGES dpkg-dev debhelper lintian debootstrap"

missing=""
for pkg in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
			grep -q '^install ok installed$'; then
		missing="$missing $pkg"
	fi
done
# npm, for speedscope (tests/host/speedscope-check.sh): Debian's, unless
# the machine has an npm already (a Node.js of its own bundles one, and
# conflicts with Debian's npm package)
[ "$test" -eq 1 ] && ! command -v npm > /dev/null && missing="$missing nodejs npm"

if [ "$check" -eq 1 ]; then
	[ -z "$missing" ] && exit 0
	echo "missing packages:$missing" >&2
	exit 1
fi

if [ -z "$missing" ]; then
	echo "deps: every package is installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: these Debian packages are missing:$missing" >&2
	echo "deps: run 'sudo make deps' (or apt-get install them as root)" >&2
	exit 1
fi

echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing
