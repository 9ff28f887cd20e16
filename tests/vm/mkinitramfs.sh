#!/bin/sh
# Build the guest's initramfs: static busybox, the static coretrace, the
# static workloads and the guest-side test scripts.
#
#   mkinitramfs.sh [-x PROGRAM]... OUTPUT.cpio.gz CORETRACE GUEST_DIR BIN_DIR...
#
# Programs in the BIN_DIRs go to /workloads, on the guest's PATH. Each
# -x PROGRAM (a host program, e.g. /usr/bin/perf) is copied unchanged to
# the same path in the guest with the shared libraries ldd finds for it
# and the dynamic loader: the benchmark guest runs Debian's own perf,
# trace-cmd and bpftrace this way.
set -eu

host_programs=
while [ "${1:-}" = -x ]; do
	host_programs="$host_programs $2"
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
	[ -x "$program" ] || { echo "mkinitramfs: no program $program" >&2; exit 1; }
	# the program, each library ldd resolves, and the loader it names
	for file in "$program" $(ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			$1 ~ /^\// { print $1 }'); do
		mkdir -p "$stage$(dirname "$file")"
		cp -L "$file" "$stage$file"
	done
done
mv "$stage/tests/init" "$stage/init"
chmod 755 "$stage/init" "$stage/tests/"*

(cd "$stage" && find . -print | sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB)"
