#!/bin/sh
# Build the guest's initramfs: static busybox, the static coretrace, the
# static workloads and the guest-side test scripts.
#
#   mkinitramfs.sh [-x PROGRAM]... [-t TREE]... OUTPUT.cpio.gz CORETRACE GUEST_DIR BIN_DIR...
#
# Programs in the BIN_DIRs go to /workloads, on the guest's PATH. Each
# -x PROGRAM (a host program, e.g. /usr/bin/perf, or a plugin library) is
# copied unchanged to the same path in the guest with the shared libraries
# ldd finds for it and the dynamic loader: the benchmark guest runs
# Debian's own perf, trace-cmd, bpftrace and babeltrace2 this way. Each -t TREE is copied as it is to the
# guest's root (LTTng's modules and programs, staged by tests/bench/lttng.sh).
set -eu

host_programs= trees=
while [ "${1:-}" = -x ] || [ "${1:-}" = -t ]; do
	case $1 in
	-x) host_programs="$host_programs $2" ;;
	-t) trees="$trees $2" ;;
	esac
	shift 2
done
out=$1 coretrace=$2 guest=$3
shift 3
busybox=$(command -v busybox || true)
if [ -z "$busybox" ] || readelf -l "$busybox" | grep -q 'Requesting program interpreter'; then
	echo "mkinitramfs: need a static busybox (Debian package busybox-static)" >&2
	exit 1
fi

stage=$(mktemp -d)
chmod 755 "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" \
	"$stage/tmp" "$stage/workloads" "$stage/tests" "$stage/root"
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
done
cp "$coretrace" "$stage/bin/coretrace"
for dir in "$@"; do
	cp "$dir"/* "$stage/workloads/"
done
cp "$guest"/* "$stage/tests/"
for program in $host_programs; do
	[ -f "$program" ] || { echo "mkinitramfs: no program or library $program" >&2; exit 1; }
	# the program, each library ldd resolves, and the loader it names
	for file in "$program" $(ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			$1 ~ /^\// { print $1 }'); do
		mkdir -p "$stage$(dirname "$file")"
		cp -L "$file" "$stage$file"
	done
done
for tree in $trees; do
	[ -d "$tree" ] || { echo "mkinitramfs: no tree $tree" >&2; exit 1; }
	cp -a "$tree/." "$stage/"
done
mv "$stage/tests/init" "$stage/init"
chmod 755 "$stage/init" "$stage/tests/"*

(cd "$stage" && find . -print | sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB)"
