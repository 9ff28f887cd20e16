#!/bin/sh
# Run the kernel tree's own scripts/checkpatch.pl --strict on every patch
# of the series; fail on any error or warning.
#
#   kernel-patches/checkpatch.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "checkpatch: missing $tarball (linux-source-6.1)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# checkpatch and the data files it reads, nothing else of the tree
tar -xf "$tarball" -C "$tmp" --wildcards 'linux-source-6.1/scripts/checkpatch.pl' \
	'linux-source-6.1/scripts/spelling.txt' \
	'linux-source-6.1/scripts/const_structs.checkpatch' 2>/dev/null ||
	tar -xf "$tarball" -C "$tmp" 'linux-source-6.1/scripts/checkpatch.pl'
tree="$tmp/linux-source-6.1"

failed=0
for p in $(grep -v '^#' "$here/series" | sed '/^$/d'); do
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree "$here/$p" 2>&1) || true
	summary=$(echo "$out" | grep '^total:')
	echo "checkpatch: $p: $summary"
	case "$summary" in
	"total: 0 errors, 0 warnings, 0 checks"*) ;;
	*) echo "$out" | sed 's/^/    /'; failed=1 ;;
	esac
done
exit $failed
