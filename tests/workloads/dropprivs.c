// SPDX-License-Identifier: GPL-2.0
/*
 * dropprivs: run a command as an unprivileged user (nobody, 65534) with
 * no capabilities left, for tests of how coretrace behaves without root.
 *
 *   dropprivs COMMAND [ARGS...]
 */
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dropprivs COMMAND [ARGS...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("dropprivs");
		return 2;
	}
	execv(argv[1], argv + 1);
	perror("dropprivs: exec");
	return 127;
}
