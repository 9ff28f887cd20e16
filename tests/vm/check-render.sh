#!/bin/sh
# Look at the pictures, not only parse them: the host draws the guest's
# captures (t_capture's and t_reports') with coretrace timechart and
# report --top --html, renders both in headless Chromium (no network) to
# PNG and checks each is a real picture: its size, enough distinct colours
# (ImageMagick's identify), and in the SVG a lane for every CPU that has a
# stream file. The PNGs stay next to the artifacts. The captures' Perfetto
# conversions are checked against their raw records
# (tests/host/check-perfetto.py). t_cgattr's capture is drawn by cgroup,
# and its Perfetto trace must show each workload under its groups.
#
#   check-render.sh ARTIFACT_DIR [CORETRACE]
set -u
art=$1 ct=${2:-./coretrace}
failed=0 passed=0
chrome=$(command -v chromium || command -v chromium-browser) ||
	{ echo "check-render: chromium is missing (make deps)"; exit 1; }
command -v identify >/dev/null || { echo "check-render: identify is missing (make deps: imagemagick)"; exit 1; }

check() {
	if eval "$2"; then
		passed=$((passed + 1))
	else
		echo "check-render: FAIL: $1"
		failed=$((failed + 1))
	fi
}

# render FILE PNG WIDTH HEIGHT
render() {
	rm -f "$2"
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --no-first-run --no-default-browser-check \
		--disable-background-networking --disable-component-update \
		--disable-sync --disable-extensions --disable-default-apps \
		--no-pings --proxy-server=127.0.0.1:9 --hide-scrollbars \
		--user-data-dir="$art/chromium-profile" \
		--window-size="$3,$4" --screenshot="$2" "file://$(realpath "$1")" \
		> "$2.log" 2>&1
}

for cap in capture reports/capture cgattr/capture; do
	dir=$art/$cap
	name=$(echo "$cap" | tr / -)
	if [ ! -s "$dir/metadata" ]; then
		echo "check-render: FAIL: no $cap in $art"
		failed=$((failed + 1))
		continue
	fi
	by=
	[ "$cap" = cgattr/capture ] && by="--by cgroup"
	svg=$art/$name.timechart.svg
	"$ct" timechart "$dir" -o "$svg" -n 12 $by 2> "$svg.log"
	check "coretrace timechart $by $cap" '[ $? -eq 0 ] && [ -s "$svg" ]'
	for f in "$dir"/stream_*; do
		cpu=${f##*_}
		check "a lane for CPU $cpu in $svg" 'grep -q ">CPU $cpu</text>" "$svg"'
	done
	w=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1/p' "$svg")
	h=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\2/p' "$svg")
	render "$svg" "$svg.png" "${w:-1800}" "${h:-600}"
	read -r pw ph colours <<-EOT
	$(identify -format '%w %h %k' "$svg.png" 2>/dev/null)
	EOT
	echo "check-render: $name timechart: $(wc -c < "$svg") bytes of SVG, $(grep -c '<rect' "$svg") rectangles; PNG ${pw:-?}x${ph:-?}, ${colours:-?} colours, $(wc -c < "$svg.png" 2>/dev/null) bytes"
	check "$svg.png is ${w}x${h}" '[ "${pw:-0}" = "$w" ] && [ "${ph:-0}" = "$h" ]'
	check "$svg.png has at least 30 colours" '[ "${colours:-0}" -ge 30 ]'

	# the Perfetto conversion against the raw records
	json=$art/$name.perfetto.json
	"$ct" convert "$dir" --perfetto "$json" 2> "$json.log"
	check "coretrace convert $cap" '[ $? -eq 0 ]'
	"$ct" report --format json "$dir" > "$art/$name.raw.jsonl" 2> /dev/null
	names=
	if [ "$cap" = capture ] && [ -s "$art/capture.counts" ]; then
		names=$(awk '$1 == "pingpong" { print $2 "=ct-ping", $3 "=ct-pong" }' "$art/capture.counts")
	fi
	if [ "$cap" = cgattr/capture ]; then
		# the mover under both its groups, the others under theirs
		names=$(awk '{ print $1 "@/ct-m1", $1 "@/ct-m2", $2 "@/ct-p", $3 "@/ct-p/kid" }' \
			"$art/cgattr/pids")
		for g in /ct-m1 /ct-m2 /ct-p; do
			check "a legend entry for $g in $svg" 'grep -q ">$g</text>" "$svg"'
		done
	fi
	tests/host/check-perfetto.py "$json" "$art/$name.raw.jsonl" $names
	check "the Perfetto trace of $cap" '[ $? -eq 0 ]'

	html=$art/$name.top.html
	"$ct" report --top --html $by "$dir" > "$html" 2> "$html.log"
	check "coretrace report --top --html $cap" '[ $? -eq 0 ] && grep -q "</html>" "$html"'
	render "$html" "$html.png" 1000 900
	read -r pw ph colours <<-EOT
	$(identify -format '%w %h %k' "$html.png" 2>/dev/null)
	EOT
	echo "check-render: $name HTML report: PNG ${pw:-?}x${ph:-?}, ${colours:-?} colours"
	check "$html.png is 1000x900" '[ "${pw:-0}" = 1000 ] && [ "${ph:-0}" = 900 ]'
	check "$html.png has at least 30 colours" '[ "${colours:-0}" -ge 30 ]'
done
echo "check-render: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
