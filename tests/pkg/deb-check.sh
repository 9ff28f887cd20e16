#!/bin/sh
# Inside the fresh root (tests/pkg/deb-test.sh): install the package and
# what the checks use (man-db, systemd for systemd-analyze), then check.
set -eu

deb=$1
fail() {
	echo "deb-check: FAILED: $*"
	exit 1
}

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq > /tmp/apt.log 2>&1 || { cat /tmp/apt.log; fail "apt-get update"; }
apt-get install -y -qq --no-install-recommends "$deb" man-db systemd \
	>> /tmp/apt.log 2>&1 || { tail -n 30 /tmp/apt.log; fail "apt-get install $deb"; }
echo "deb-check: installed $(dpkg-query -W -f='${Package} ${Version} ${Status}' coretrace)"

v=$(coretrace version) || fail "coretrace version exited with $?"
echo "$v" | grep -q '^coretrace [0-9]*\.[0-9]*\.[0-9]*' || fail "coretrace version said: $v"
echo "deb-check: ok: coretrace version: $(echo "$v" | head -n 1)"

for page in coretrace coretrace-record coretrace-serve; do
	MANWIDTH=80 man -P cat "$page" > /tmp/man.txt 2> /tmp/man.err ||
		fail "man $page: $(cat /tmp/man.err)"
	[ ! -s /tmp/man.err ] || fail "man $page warned: $(cat /tmp/man.err)"
done
grep -q -- '--web.listen-address' /tmp/man.txt || fail "man coretrace-serve has no --web.listen-address"
echo "deb-check: ok: man coretrace, coretrace-record and coretrace-serve"
[ "$(ls /usr/share/man/man1/coretrace*.1.gz | wc -l)" -eq \
  $(($(coretrace --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p' | grep -cvx help) + 1)) ] ||
	fail "not one manual page per command, plus coretrace(1)"

systemd-analyze verify /lib/systemd/system/coretrace-recorder.service \
	/lib/systemd/system/coretrace-serve.service > /tmp/verify.txt 2>&1 ||
	{ cat /tmp/verify.txt; fail "systemd-analyze verify"; }
[ ! -s /tmp/verify.txt ] || { cat /tmp/verify.txt; fail "systemd-analyze verify said something"; }
echo "deb-check: ok: systemd-analyze verify coretrace-recorder.service coretrace-serve.service"
# the sandbox: each unit rated 3.0 ("OK") or better
for unit in coretrace-recorder coretrace-serve; do
	systemd-analyze security --offline=true /lib/systemd/system/$unit.service \
		> /tmp/security.txt 2>&1 || { tail -5 /tmp/security.txt; fail "systemd-analyze security $unit"; }
	score=$(sed -n 's/.*Overall exposure level for [a-z-]*\.service: \([0-9.]*\) .*/\1/p' /tmp/security.txt)
	[ -n "$score" ] || { tail -5 /tmp/security.txt; fail "systemd-analyze security $unit: no overall level"; }
	awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }' ||
		fail "systemd-analyze security rates $unit $score, more exposed than 3.0"
	echo "deb-check: ok: systemd-analyze security $unit: $score"
done
for unit in coretrace-recorder coretrace-serve; do
	state=$(systemctl is-enabled $unit 2>/dev/null || true)
	[ "$state" = disabled ] || fail "$unit is '$state' after installation, not disabled"
done
echo "deb-check: ok: neither unit enabled by the installation"
echo "deb-check: passed"
