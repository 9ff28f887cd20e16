#!/bin/sh
# Build the guest kernels from Debian's linux-source-6.1:
#   control: the tree as Debian ships it + guest.config
#   padded:  the same, with the patch series applied
#   nobtf:   control without BTF (and without debug info): guest.config
#            less its BTF lines, plus nobtf.config, for the kernels
#            coretrace must serve from the tracefs format files
#
#   build-kernels.sh [--key]
#
# Builds are cached outside the clone, in
#   ${CORETRACE_CACHE:-$HOME/.cache/coretrace}/kernels/KEY/{control,padded}
# where KEY hashes the source package version, the series and the config
# fragment, so an unchanged key costs nothing and a fresh machine rebuilds.
# build/kernels/{control,padded}.bzImage link to the cached images.
# Beside each image the cache keeps the guest test module tests/modules
# (ct_freq.ko) built against that kernel, with a hash of its source: when
# only the module changed it is built again from the kernel build trees
# in build/kernel, or, if they are gone, with the kernels.
# build/kernels/{control,padded}.ct_freq.ko link to them.
# --key prints the cache directory and exits.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
fragment="$here/guest.config"
series="$here/series"
jobs=$(( $(nproc) + 1 ))
# bump when the way the kernels are built changes
build_recipe=1
# nobtf's fragment: guest.config with its BTF and debug-info lines
# replaced by nobtf.config (the control and padded keys do not change)
nobtf_fragment=$(mktemp)
trap 'rm -f "$nobtf_fragment"' EXIT
grep -v -e '^CONFIG_DEBUG_INFO' "$fragment" > "$nobtf_fragment"
cat "$here/nobtf.config" >> "$nobtf_fragment"

die() {
	echo "kernel: $*" >&2
	exit 1
}

[ -r "$tarball" ] || die "missing $tarball (Debian package linux-source-6.1; run 'make deps')"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed"

patches=$(grep -v '^#' "$series" | sed '/^$/d')
key=$( {
	echo "linux-source-6.1 $srcver recipe $build_recipe"
	cat "$fragment" "$series"
	for p in $patches; do cat "$here/$p"; done
} | sha256sum | cut -c1-16)
cache=${CORETRACE_CACHE:-$HOME/.cache/coretrace}/kernels/$key

if [ "${1:-}" = "--key" ]; then
	echo "$cache"
	exit 0
fi

link_results() {
	mkdir -p "$top/build/kernels"
	for kind in control padded nobtf; do
		ln -sfn "$cache/$kind/bzImage" "$top/build/kernels/$kind.bzImage"
		ln -sfn "$cache/$kind/ct_freq.ko" "$top/build/kernels/$kind.ct_freq.ko"
	done
}

work="$top/build/kernel"
src_control="$work/extract/linux-source-6.1"
src_padded="$work/src-padded"
modsum=$(cat "$top/tests/modules/ct_freq.c" "$top/tests/modules/Kbuild" | sha256sum | cut -c1-16)

# build_module KIND SRC DEST: the test module against KIND's build tree
build_module() {
	mdir="$work/module-$1"
	rm -rf "$mdir"
	mkdir -p "$mdir"
	cp "$top/tests/modules/ct_freq.c" "$top/tests/modules/Kbuild" "$mdir/"
	echo "kernel: [$1] building the test module (tests/modules)"
	# the tree's own modules pass writes Module.symvers, which the
	# module's link needs
	{
		make -C "$2" O="$work/out-$1" ARCH=x86_64 -j"$jobs" modules &&
		make -C "$2" O="$work/out-$1" ARCH=x86_64 M="$mdir" modules
	} >> "$work/$1.log" 2>&1 ||
		die "[$1] building the test module failed; log: $work/$1.log"
	cp "$mdir/ct_freq.ko" "$3/ct_freq.ko"
	echo "$modsum" > "$3/ct_freq.sum"
}

# the nobtf kernel, cached beside the others under a key of its own
nobtf_key=$(cat "$nobtf_fragment" | sha256sum | cut -c1-8)

if [ -s "$cache/control/bzImage" ] && [ -s "$cache/padded/bzImage" ] &&
   [ "$(cat "$cache/nobtf/key" 2>/dev/null)" = "$nobtf_key" ]; then
	rebuild=0
	for kind in control padded nobtf; do
		[ "$(cat "$cache/$kind/ct_freq.sum" 2>/dev/null)" != "$modsum" ] || continue
		src=$src_control
		[ "$kind" != padded ] || src=$src_padded
		if [ -s "$work/out-$kind/vmlinux.symvers" ] && [ -d "$src" ]; then
			build_module "$kind" "$src" "$cache/$kind"
		else
			rebuild=1
		fi
	done
	if [ "$rebuild" -eq 0 ]; then
		echo "kernel: cached: $cache (linux-source-6.1 $srcver)"
		link_results
		exit 0
	fi
	echo "kernel: the test module changed and the kernel build trees are gone: building the kernels again"
fi

# only nobtf missing (a cache from before it existed): that one alone
if [ -s "$cache/control/bzImage" ] && [ -s "$cache/padded/bzImage" ] &&
   [ "$(cat "$cache/control/ct_freq.sum" 2>/dev/null)" = "$modsum" ] &&
   [ "$(cat "$cache/padded/ct_freq.sum" 2>/dev/null)" = "$modsum" ]; then
	kinds=nobtf
else
	kinds="control padded nobtf"
fi

echo "kernel: building $kinds from linux-source-6.1 $srcver"
echo "kernel: key $key, cache $cache, work $work"
if [ "$kinds" != nobtf ] || [ ! -d "$src_control" ]; then
	rm -rf "$work"
	mkdir -p "$work/extract"
	echo "kernel: extracting $tarball"
	tar -xf "$tarball" -C "$work/extract"
fi

# the patched tree shares unchanged files with the pristine one
[ "$kinds" = nobtf ] || cp -al "$src_control" "$src_padded"
for p in $patches; do
	[ "$kinds" != nobtf ] || break
	echo "kernel: applying $p"
	(cd "$src_padded" && patch -p1 --quiet --forward < "$here/$p") ||
		die "patch $p does not apply to linux-source-6.1 $srcver"
done

# check_config OUTDIR FRAGMENT: every fragment line must be in the final
# .config (an option it turns off: not set there)
check_config() {
	missing=
	for opt in $(grep -E '^CONFIG_[A-Z0-9_]+=' "$2"); do
		grep -qx "$opt" "$1/.config" || missing="$missing $opt"
	done
	for opt in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$2"); do
		! grep -q "^$opt=" "$1/.config" || missing="$missing $opt(off)"
	done
	if [ -n "$missing" ]; then
		echo "kernel: these options of $2 did not survive olddefconfig:" >&2
		for opt in $missing; do echo "kernel:   $opt" >&2; done
		echo "kernel: enable what they depend on in the fragment" >&2
		return 1
	fi
}

# build KIND SRC FRAGMENT
build() {
	kind=$1 src=$2 frag=$3
	out="$work/out-$kind"
	log="$work/$kind.log"
	mkdir -p "$out"
	echo "kernel: [$kind] configuring (tinyconfig + $(basename "$frag"))"
	{
		make -C "$src" O="$out" ARCH=x86_64 tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
			"$out/.config" "$frag" &&
		make -C "$src" O="$out" ARCH=x86_64 olddefconfig
	} > "$log" 2>&1 || die "[$kind] configuration failed; log: $log"
	check_config "$out" "$frag" || die "[$kind] configuration incomplete; log: $log"

	echo "kernel: [$kind] building bzImage with -j$jobs (log: $log)"
	start=$(date +%s)
	make -C "$src" O="$out" ARCH=x86_64 -j"$jobs" bzImage >> "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 30
		kill -0 "$pid" 2>/dev/null || break
		echo "kernel: [$kind] $(( $(date +%s) - start ))s, $(grep -c '^  CC ' "$log") files compiled"
	done
	if ! wait "$pid"; then
		echo "kernel: [$kind] build failed; last lines of $log:" >&2
		tail -n 25 "$log" | sed 's/^/    /' >&2
		die "[$kind] build failed; full log: $log"
	fi
	echo "kernel: [$kind] built in $(( $(date +%s) - start ))s"
	mkdir -p "$cache/$kind.tmp"
	cp "$out/arch/x86/boot/bzImage" "$out/.config" "$out/System.map" \
		"$cache/$kind.tmp/"
	mv "$cache/$kind.tmp/.config" "$cache/$kind.tmp/config"
	build_module "$kind" "$src" "$cache/$kind.tmp"
	cp "$log" "$cache/$kind.tmp/build.log"
	[ "$kind" != nobtf ] || echo "$nobtf_key" > "$cache/$kind.tmp/key"
	rm -rf "${cache:?}/$kind"
	mv "$cache/$kind.tmp" "$cache/$kind"
}

for kind in $kinds; do
	case $kind in
	control) build control "$src_control" "$fragment" ;;
	padded) build padded "$src_padded" "$fragment" ;;
	nobtf) build nobtf "$src_control" "$nobtf_fragment" ;;
	esac
done
link_results
echo "kernel: done: $cache/{control,padded,nobtf}/bzImage"
