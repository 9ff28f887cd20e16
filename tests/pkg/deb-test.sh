#!/bin/sh
# make deb-test: the Debian package made by make deb, installed with apt
# in a fresh Debian 12 root (debootstrap's minbase, as for the README's
# commands: tests/ci/fresh-root.sh), where it must run: coretrace version,
# its manual pages through man, and systemd-analyze verify on its units
# (which also finds the pages their Documentation= names). Nothing is
# traced there and no unit is started: the root is a chroot.
#
#   deb-test.sh DEBDIR
set -eu

deb=$(ls "$1"/coretrace_*_amd64.deb)
[ -f "$deb" ] || { echo "deb-test: no package in $1 (make deb)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/../.." && pwd)
sudo=
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
# shellcheck disable=SC2086
FRESH_ROOT_COPY="$deb $top/tests/pkg/deb-check.sh" $sudo "$top/tests/ci/fresh-root.sh" \
	sh /srv/deb-check.sh "/srv/$(basename "$deb")"
