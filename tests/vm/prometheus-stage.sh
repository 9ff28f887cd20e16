#!/bin/sh
# Debian's Prometheus for the guest that scrapes coretrace serve: the
# package unpacked (apt-get download and dpkg-deb -x; never installed here,
# where its maintainer scripts would start a server), prometheus and
# promtool with the libraries ldd finds for them, staged as a tree for
# that guest's initramfs.
#
#   prometheus-stage.sh WORKDIR
#
# Leaves WORKDIR/root (usr/bin/prometheus, usr/bin/promtool, their
# libraries and loader) and WORKDIR/root.stamp; a second run with the same
# package does nothing.
set -eu

mkdir -p "$1"
work=$(cd "$1" && pwd)
want=$(apt-cache policy prometheus | awk '/Candidate:/ { print "prometheus=" $2 }')
case $want in
"" | *"(none)") echo "prometheus: Debian's package prometheus is not in apt's lists (apt-get update?)" >&2; exit 1 ;;
esac
if [ -f "$work/root.stamp" ] && [ "$(cat "$work/root.stamp")" = "$want" ]; then
	echo "prometheus: $work/root is up to date"
	exit 0
fi
mkdir -p "$work/debs"
(cd "$work/debs" && rm -f ./*.deb && apt-get download "$want" >/dev/null 2>&1) || {
	echo "prometheus: apt-get download failed for $want" >&2
	exit 1
}
rm -rf "$work/pkg" "$work/root"
mkdir -p "$work/pkg" "$work/root/usr/bin"
dpkg-deb -x "$work"/debs/*.deb "$work/pkg"
for program in prometheus promtool; do
	cp "$work/pkg/usr/bin/$program" "$work/root/usr/bin/"
	for lib in $(ldd "$work/pkg/usr/bin/$program" |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$work/root$(dirname "$lib")"
		cp -L "$lib" "$work/root$lib"
	done
done
echo "$want" > "$work/root.stamp"
echo "prometheus: staged $want in $work/root"
