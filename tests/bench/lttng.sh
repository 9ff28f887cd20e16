#!/bin/sh
# make bench's LTTng: Debian's lttng-modules (built here against the
# headers of Debian's stock kernel, with a plain kbuild: nothing is
# installed or loaded on this machine) and lttng-tools with the libraries
# they need, staged as a tree for the benchmark guest's initramfs.
#
#   lttng.sh WORKDIR KERNEL_VERSION
#
# Leaves WORKDIR/root (lib/modules/KERNEL_VERSION/extra/*.ko with the
# modules.dep depmod writes for them, usr/bin/lttng, usr/bin/lttng-sessiond,
# the consumer daemon and their libraries) and WORKDIR/root.stamp; a
# second run with the same packages and kernel does nothing. Packages come
# from Debian's archive (apt-get download), as the other tracers do.
#
# lttng-modules 2.13.9's timer probe does not build against 6.1.192 (the
# kernel's hrtimer_start tracepoint changed in a stable update); the
# benchmark records scheduler events only, so that probe is left out.
set -eu

kver=$2
mkdir -p "$1"
work=$(cd "$1" && pwd)
headers=/usr/src/linux-headers-$kver
PKGS="lttng-modules-dkms lttng-tools liblttng-ctl0 liblttng-ust-common1 liblttng-ust-ctl5 liburcu8 libpopt0"

[ -d "$headers" ] || { echo "lttng: no headers for $kver at $headers (package linux-headers-$kver)" >&2; exit 1; }
command -v depmod >/dev/null || { echo "lttng: depmod is missing (package kmod)" >&2; exit 1; }
mkdir -p "$work/debs"
want=$(for p in $PKGS; do apt-cache policy "$p" | awk -v p="$p" '/Candidate:/ { print p "=" $2 }'; done)
stamp="$want $kver"
if [ -f "$work/root.stamp" ] && [ "$(cat "$work/root.stamp")" = "$stamp" ]; then
	echo "lttng: $work/root is up to date"
	exit 0
fi

# shellcheck disable=SC2086
(cd "$work/debs" && rm -f ./*.deb && apt-get download $want >/dev/null 2>&1) || {
	echo "lttng: apt-get download failed for: $want" >&2
	exit 1
}
rm -rf "$work/pkg" "$work/root"
mkdir -p "$work/pkg" "$work/root"
for deb in "$work"/debs/*.deb; do
	dpkg-deb -x "$deb" "$work/pkg"
done

src=$(ls -d "$work"/pkg/usr/src/lttng-modules-*)
sed -i '/lttng-probe-timer\.o/d' "$src/src/probes/Kbuild"
echo "lttng: building $(basename "$src") against $headers"
make -C "$src" -j"$(nproc)" KERNELDIR="$headers" modules > "$work/modules.log" 2>&1 || {
	tail -n 20 "$work/modules.log" >&2
	echo "lttng: the modules did not build; $work/modules.log has the log" >&2
	exit 1
}
moddir=$work/root/lib/modules/$kver
mkdir -p "$moddir/extra"
find "$src/src" -name '*.ko' -exec cp {} "$moddir/extra/" \;
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -f "/lib/modules/$kver/$f" ] && cp "/lib/modules/$kver/$f" "$moddir/"
done
depmod -b "$work/root" "$kver"

# the programs and every library they load, from the packages or the host
libs=$work/pkg/usr/lib/x86_64-linux-gnu
for prog in usr/bin/lttng usr/bin/lttng-sessiond \
		usr/lib/x86_64-linux-gnu/lttng/libexec/lttng-consumerd; do
	for file in "$work/pkg/$prog" $(LD_LIBRARY_PATH=$libs ldd "$work/pkg/$prog" |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		case $file in
		"$work"/pkg/*) rel=${file#"$work"/pkg} ;;
		*) rel=$file ;;
		esac
		mkdir -p "$work/root$(dirname "$rel")"
		cp -L "$file" "$work/root$rel"
	done
done
# the session daemon validates session files with its schema at start
mkdir -p "$work/root/usr/share/xml/lttng"
cp "$work/pkg/usr/share/xml/lttng/session.xsd" "$work/root/usr/share/xml/lttng/"
echo "$stamp" > "$work/root.stamp"
echo "lttng: staged $(find "$moddir/extra" -name '*.ko' | wc -l) modules and lttng-tools in $work/root"
