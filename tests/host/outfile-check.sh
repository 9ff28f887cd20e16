#!/bin/sh
# The files a reading command writes (convert --perfetto, timechart -o), as
# root would write them where a local user could plant a link or a FIFO:
# a link (symbolic or hard) is refused with one sentence and what it
# points at is untouched,
# a FIFO is refused without waiting for a reader, and a new file is 0600.
#
#   outfile-check.sh MKCAPTURE CORETRACE WORKDIR
set -u
mk=$1 ct=$2 work=$3/outfile-check
rm -rf "$work"
mkdir -p "$work"
passed=0 failed=0
check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "outfile-check: FAIL: $1: expected '$2', saw '$3'"
		failed=$((failed + 1))
	fi
}

"$mk" -n 2000 -c 2 "$work/cap" > /dev/null || { echo "outfile-check: mkcapture failed"; exit 1; }
printf 'precious\n' > "$work/victim"
for cmd in "convert --perfetto" "timechart -o"; do
	name=$(echo "$cmd" | cut -d' ' -f1)
	ln -s "$work/victim" "$work/$name.link"
	# shellcheck disable=SC2086
	$ct $cmd "$work/$name.link" "$work/cap" > /dev/null 2> "$work/$name.err" < /dev/null
	check "$name onto a link: exit status" 1 $?
	check "$name onto a link: one line" 1 "$(wc -l < "$work/$name.err")"
	check "$name onto a link: the sentence" 1 "$(grep -c 'is a symbolic link; coretrace does not write through links' "$work/$name.err")"
	check "$name onto a link: the target untouched" precious "$(cat "$work/victim")"
	mkfifo "$work/$name.fifo"
	# a FIFO nobody reads: refused at once, not waited on
	# shellcheck disable=SC2086
	timeout 20 $ct $cmd "$work/$name.fifo" "$work/cap" > /dev/null 2> "$work/$name.ferr" < /dev/null
	check "$name onto a FIFO: exit status" 1 $?
	check "$name onto a FIFO: the sentence" 1 "$(grep -c 'is not a regular file' "$work/$name.ferr")"
	ln "$work/victim" "$work/$name.hard"
	# shellcheck disable=SC2086
	$ct $cmd "$work/$name.hard" "$work/cap" > /dev/null 2> "$work/$name.herr" < /dev/null
	check "$name onto a hard link: exit status" 1 $?
	check "$name onto a hard link: the sentence" 1 "$(grep -c 'has 2 hard links; coretrace does not overwrite' "$work/$name.herr")"
	check "$name onto a hard link: the file untouched" precious "$(cat "$work/victim")"
	rm -f "$work/$name.hard"
	# shellcheck disable=SC2086
	(umask 022; $ct $cmd "$work/$name.out" "$work/cap" > /dev/null 2>&1 < /dev/null)
	check "$name: a new file's mode" 600 "$(stat -c %a "$work/$name.out")"
done
echo "outfile-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
