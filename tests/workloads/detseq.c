// SPDX-License-Identifier: GPL-2.0
/*
 * detseq: a fixed sequence of scheduler events, the same on every kernel.
 * Everything runs SCHED_FIFO on CPU 0, so a woken task never preempts the
 * one running and the order of switches is set by who blocks, not by
 * timing. Three rounds of: fork a child; the child renames itself,
 * hands a byte to the parent and waits for one back, then execs detseq
 * again, which renames itself and exits.
 *
 *   detseq            run the sequence
 *   detseq exec       (the exec'd child)
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS	3

static int child(int to_parent, int from_parent)
{
	char byte = 'c';

	prctl(PR_SET_NAME, "det-child", 0, 0, 0);
	if (write(to_parent, &byte, 1) != 1 || read(from_parent, &byte, 1) != 1)
		return 1;
	execl("/workloads/detseq", "detseq", "exec", (char *)NULL);
	return 127;
}

int main(int argc, char **argv)
{
	struct sched_param param = { .sched_priority = 10 };
	int up[2], down[2], i, status;
	char byte = 'p';
	cpu_set_t set;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "exec")) {
		prctl(PR_SET_NAME, "det-exec", 0, 0, 0);
		return 0;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &param)) {
		perror("detseq: pin to CPU 0 as SCHED_FIFO");
		return 1;
	}
	prctl(PR_SET_NAME, "det-main", 0, 0, 0);
	for (i = 0; i < ROUNDS; i++) {
		if (pipe(up) || pipe(down))
			return 1;
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(child(up[1], down[0]));
		if (read(up[0], &byte, 1) != 1 || write(down[1], &byte, 1) != 1 ||
		    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return 1;
		close(up[0]);
		close(up[1]);
		close(down[0]);
		close(down[1]);
	}
	return 0;
}
