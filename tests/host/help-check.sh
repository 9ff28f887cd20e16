#!/bin/sh
# coretrace help COMMAND prints what COMMAND --help prints, for every
# command coretrace --help lists; a command that does not exist, or two,
# get one sentence and exit 2.
#
#   help-check.sh CORETRACE
set -u
ct=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0 failed=0
check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
	else
		echo "help-check: FAIL: $1: expected '$2', saw '$3'"
		failed=$((failed + 1))
	fi
}

"$ct" --help > "$dir/usage" 2>&1
check "coretrace --help: exit status" 0 $?
"$ct" help > "$dir/help" 2>&1
check "coretrace help: exit status" 0 $?
check "coretrace help is coretrace --help" same \
	"$(cmp -s "$dir/usage" "$dir/help" && echo same || echo differs)"
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p' "$dir/usage" | grep -v '^help$')
check "commands listed" 9 "$(echo "$cmds" | wc -l)"
for c in $cmds; do
	"$ct" "$c" --help > "$dir/$c.opt" 2>&1
	check "coretrace $c --help: exit status" 0 $?
	"$ct" help "$c" > "$dir/$c.help" 2>&1
	check "coretrace help $c: exit status" 0 $?
	check "coretrace help $c: its first line" "usage: coretrace $c" \
		"$(head -n 1 "$dir/$c.help" | cut -c1-$((17 + ${#c})))"
	check "coretrace help $c is coretrace $c --help" same \
		"$(cmp -s "$dir/$c.opt" "$dir/$c.help" && echo same || echo differs)"
done
"$ct" help nosuch > "$dir/out" 2> "$dir/err"
check "coretrace help nosuch: exit status" 2 $?
check "coretrace help nosuch: one sentence" \
	"coretrace: no command 'nosuch' to help with (see coretrace --help)" "$(cat "$dir/err")"
check "coretrace help nosuch: nothing on stdout" 0 "$(wc -c < "$dir/out")"
"$ct" help record top > "$dir/out" 2> "$dir/err"
check "coretrace help record top: exit status" 2 $?
check "coretrace help record top: one line" 1 "$(wc -l < "$dir/err")"
echo "help-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
