#!/bin/sh
# A real consumer of report --offcpu's folded stacks: speedscope (the npm
# package, pinned) opens offcpu's stacks from t_stacks' capture in headless
# Chromium (no network: the page and the profile are local files). Its
# sandwich view lists the frames in the page itself, so the page is dumped
# and must name offcpu's chains, user and kernel frames; its left-heavy
# flame graph is kept as a picture (docs/offcpu-speedscope.png is one),
# checked to be one (ImageMagick's identify: its size, and more colours
# than speedscope's page shows without a profile: 482 here, the flame
# graph of t_stacks 4,471).
#
#   speedscope-check.sh FOLDED WORKDIR
# speedscope is installed into build/npm with the machine's npm when it
# is not there yet (SPEEDSCOPE_DIR: another place).
set -u
folded=$1 work=$2
version=1.25.0
npmdir=${SPEEDSCOPE_DIR:-build/npm}
release=$npmdir/node_modules/speedscope/dist/release
failed=0
fail() {
	echo "speedscope-check: FAIL: $*"
	failed=1
}
chrome=$(command -v chromium || command -v chromium-browser) ||
	{ echo "speedscope-check: chromium is missing (make deps)"; exit 1; }
[ -s "$folded" ] || { echo "speedscope-check: FAIL: no folded stacks in $folded"; exit 1; }
if [ ! -s "$release/index.html" ] ||
   ! grep -q "\"version\": \"$version\"" "$npmdir/node_modules/speedscope/package.json" 2>/dev/null; then
	command -v npm >/dev/null || { echo "speedscope-check: npm is missing (make deps)"; exit 1; }
	mkdir -p "$npmdir"
	npm install --prefix "$npmdir" --no-audit --no-fund --no-save \
		"speedscope@$version" > "$work.npm.log" 2>&1 ||
		{ echo "speedscope-check: FAIL: npm install speedscope@$version: $(tail -n 3 "$work.npm.log")"; exit 1; }
fi
rm -rf "$work"
mkdir -p "$work"
# offcpu's stacks, as its bin/cli.mjs hands a file to the page
grep '^offcpu;' "$folded" > "$work/offcpu.collapsedstack.txt"
[ -s "$work/offcpu.collapsedstack.txt" ] || { echo "speedscope-check: FAIL: no stack of offcpu in $folded"; exit 1; }
printf 'speedscope.loadFileFromBase64("offcpu.collapsedstack.txt", "%s")\n' \
	"$(base64 -w0 "$work/offcpu.collapsedstack.txt")" > "$work/profile.js"
page="file://$(realpath "$release")/index.html#localProfilePath=$(realpath "$work")/profile.js"

# chrome OUT-OPTION VIEW WIDTH HEIGHT
open_page() {
	timeout 120 "$chrome" --headless=new --no-sandbox --enable-unsafe-swiftshader \
		--disable-dev-shm-usage --no-first-run --no-default-browser-check \
		--disable-background-networking --disable-component-update \
		--disable-sync --disable-extensions --proxy-server=127.0.0.1:9 \
		--user-data-dir="$work/chromium-profile" --hide-scrollbars \
		--virtual-time-budget=8000 --window-size="$3,$4" "$1" "$page&view=$2"
}

# the table is drawn after the profile is read: on a loaded machine the
# page may be dumped before (tried three times, the table's first row,
# the frame every stack ends in, telling it was drawn)
for try in 1 2 3; do
	open_page --dump-dom sandwich 1400 3000 > "$work/sandwich.html" 2> "$work/sandwich.log" ||
		fail "chromium could not load speedscope: $(tail -n 3 "$work/sandwich.log")"
	grep -q '>__schedule<' "$work/sandwich.html" && break
	echo "speedscope-check: the sandwich table was not drawn yet (try $try)"
done
grep -q '<title>offcpu.collapsedstack.txt - speedscope</title>' "$work/sandwich.html" ||
	fail "speedscope did not open the folded stacks"
for frame in main ct_pipe_outer ct_pipe_middle ct_pipe_read pipe_read \
	     ct_futex_outer ct_futex_wait futex_wait_queue ct_sleep_nap \
	     do_nanosleep ct_exit_nap __schedule; do
	grep -q ">$frame<" "$work/sandwich.html" || fail "speedscope shows no frame $frame"
done
open_page --screenshot="$work/offcpu-speedscope.png" left-heavy 1400 800 > "$work/shot.log" 2>&1
size=$(identify -format '%wx%h' "$work/offcpu-speedscope.png" 2>/dev/null)
colours=$(identify -format '%k' "$work/offcpu-speedscope.png" 2>/dev/null)
[ "$size" = 1400x800 ] && [ "${colours:-0}" -ge 1500 ] ||
	fail "the flame graph is no picture ($size, ${colours:-0} colours)"
[ $failed -eq 0 ] && echo "speedscope-check: ok: speedscope $version in Chromium shows offcpu's chains; flame graph in $work/offcpu-speedscope.png ($colours colours)"
exit $failed
