// SPDX-License-Identifier: GPL-2.0
/*
 * frozen-switch: load tests/bpf/frozen_switch.bpf.c (sched_switch with
 * offsets frozen at compile time, no CO-RE), run a command, and print how
 * many switches it saw and how many it misread:
 *   frozen-switch: switches=N misread=M
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "frozen_switch.skel.h"

int main(int argc, char **argv)
{
	struct frozen_switch_bpf *skel;
	unsigned long long counts[2] = { 0, 0 };
	int status, fd;
	__u32 key;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: frozen-switch COMMAND [ARGS...]\n");
		return 2;
	}
	skel = frozen_switch_bpf__open_and_load();
	if (!skel || frozen_switch_bpf__attach(skel)) {
		fprintf(stderr, "frozen-switch: could not load or attach\n");
		return 1;
	}
	child = fork();
	if (child == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	waitpid(child, &status, 0);
	frozen_switch_bpf__detach(skel);
	fd = bpf_map__fd(skel->maps.frozen_counts);
	for (key = 0; key < 2; key++)
		bpf_map_lookup_elem(fd, &key, &counts[key]);
	printf("frozen-switch: switches=%llu misread=%llu\n", counts[0], counts[1]);
	frozen_switch_bpf__destroy(skel);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
