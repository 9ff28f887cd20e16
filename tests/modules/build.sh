#!/bin/sh
# Build the guest test module (this directory) against a kernel's headers
# or build tree, into OUTDIR; it is only ever loaded in a QEMU guest.
#
#   build.sh OUTDIR KERNEL_DIR [MAKE ARGS...]
set -eu
out=$1 kdir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$kdir/Makefile" ] ||
	{ echo "modules: no kernel headers in $kdir (tests/deps.sh installs linux-headers-amd64)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
cp "$here/ct_freq.c" "$here/Kbuild" "$out/"
out=$(cd "$out" && pwd)
make -C "$kdir" M="$out" "$@" modules > "$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log" >&2; echo "modules: building ct_freq.ko failed; log: $out/build.log" >&2; exit 1; }
echo "modules: $out/ct_freq.ko"
