#!/bin/sh
# make deb: the Debian package of the checked-out tree (its tracked and
# not ignored files, so that what is not committed yet is in it too),
# built with dpkg-buildpackage in OUTDIR/src, then checked by lintian;
# lintian's errors fail the build, its other tags are printed.
#
#   build-deb.sh OUTDIR
#
# Leaves OUTDIR/coretrace_VERSION_amd64.deb and OUTDIR/lintian.txt.
set -eu

out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/src"
out=$(cd "$out" && pwd)
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf -) | tar -x -C "$out/src"
(cd "$out/src" && dpkg-buildpackage -b -us -uc > "$out/build.log" 2>&1) || {
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
}
deb=$(ls "$out"/coretrace_*_amd64.deb)
changes=$(ls "$out"/coretrace_*_amd64.changes)
lintian --fail-on error --info "$changes" > "$out/lintian.txt" 2>&1 || {
	cat "$out/lintian.txt" >&2
	echo "deb: lintian found errors in $deb" >&2
	exit 1
}
echo "deb: $deb built; lintian: no errors ($(grep -c '^[WIPX]:' "$out/lintian.txt") other tags, $out/lintian.txt)"
