# The records of a JSON stream (coretrace record -f json) whose every pid
# is a det* task (detseq's), without timestamps, the pids numbered in
# order of appearance: the same on every kernel and every layout source.
# Give the file twice: the first pass finds the det* tasks.

function parse(line,    rest, kv, key, val) {
	delete rec; nkeys = 0
	rest = line
	while (match(rest, /"[a-z_]+":("[^"]*"|-?[0-9]+|true|false)/)) {
		kv = substr(rest, RSTART, RLENGTH)
		rest = substr(rest, RSTART + RLENGTH)
		key = kv; sub(/":.*/, "", key); sub(/^"/, "", key)
		val = kv; sub(/^"[a-z_]+":/, "", val); gsub(/"/, "", val)
		rec[key] = val; keys[++nkeys] = key
	}
}
function is_pid(k) { return k ~ /(^|_)pid$/ }
function comm_of(k) { sub(/pid$/, "comm", k); return k }
NR == FNR {
	parse($0)
	for (i = 1; i <= nkeys; i++)
		if (is_pid(keys[i]) && rec[comm_of(keys[i])] ~ /^det/)
			ours[rec[keys[i]]] = 1
	if (rec["event"] == "task_rename" && rec["newcomm"] ~ /^det/) ours[rec["pid"]] = 1
	next
}
{
	parse($0)
	keep = 1
	for (i = 1; i <= nkeys; i++)
		if (is_pid(keys[i]) && !(rec[keys[i]] in ours)) keep = 0
	if (!keep) next
	out = rec["event"]
	for (i = 1; i <= nkeys; i++) {
		k = keys[i]
		if (k == "ts" || k == "event") continue
		v = rec[k]
		if (is_pid(k)) {
			if (!(v in num)) num[v] = "T" (++n)
			v = num[v]
		}
		out = out " " k "=" v
	}
	print out
}