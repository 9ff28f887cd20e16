#!/bin/sh
# What a terminal gets from coretrace's text outputs: a capture in which one
# task named itself with an escape sequence, a bell and a newline (mkcapture
# -x, as any unprivileged process can with prctl(PR_SET_NAME)); report's
# record lines, --top (text and CSV), --latency and --timehist must carry no control byte
# but the newlines ending their lines, and show the name escaped.
#
#   text-check.sh MKCAPTURE CORETRACE WORKDIR
set -u
mk=$1 ct=$2 work=$3/text-check
rm -rf "$work"
mkdir -p "$work"
passed=0 failed=0
check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "text-check: FAIL: $1: expected '$2', saw '$3'"
		failed=$((failed + 1))
	fi
}

"$mk" -x -n 20000 -c 2 "$work/cap" > /dev/null || { echo "text-check: mkcapture failed"; exit 1; }
escaped='ev\x1b]0;il\x07\x0a\x1b[2J'
for view in records top topcsv latency timehist; do
	opt=--$view
	[ "$view" = records ] && opt=
	[ "$view" = top ] && opt="--top -n 0"	# every row, the hostile one too
	[ "$view" = topcsv ] && opt="--top --csv -n 0"
	# shellcheck disable=SC2086
	"$ct" report $opt "$work/cap" > "$work/$view.txt" 2> "$work/$view.err"
	check "report $view exit status" 0 $?
	check "report $view: control bytes other than newline" 0 \
		"$(LC_ALL=C tr -d '\n' < "$work/$view.txt" | LC_ALL=C tr -cd '\000-\037\177' | wc -c)"
	check "report $view: the hostile name, escaped" 1 \
		"$(grep -F -c -m 1 "$escaped" "$work/$view.txt")"
done
# a stream file per CPU, all open at once: 1,024 CPUs under the usual soft
# limit of 1,024 descriptors read whole (coretrace raises it to the hard one)
"$mk" -n 20000 -c 1024 "$work/cpus1024" > /dev/null || { echo "text-check: mkcapture -c 1024 failed"; exit 1; }
(ulimit -S -n 1024 && "$ct" report --top -n 2 "$work/cpus1024" > /dev/null 2> "$work/cpus1024.err")
check "1024 CPUs under ulimit -n 1024: exit status" 0 $?
check "1024 CPUs under ulimit -n 1024: records read" 1 "$(grep -c '^coretrace report: 20000 records read from ' "$work/cpus1024.err")"
echo "text-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
