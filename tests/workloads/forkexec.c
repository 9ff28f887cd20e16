// SPDX-License-Identifier: GPL-2.0
/*
 * forkexec: the process-event benchmark workload. N times: fork, exec
 * itself with -x (which exits at once), wait. Each round is one fork,
 * one exec and two exits' worth of scheduler and process events.
 *
 *   forkexec [-n ROUNDS]
 *
 * The last line is "forkexec: rounds=N elapsed_ns=E end_ns=T" (T: the
 * CLOCK_MONOTONIC time it ended).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long rounds = 500, i;
	long long start, end;
	int status;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "-x"))
		return 0;		/* the exec'd child */
	if (argc == 3 && !strcmp(argv[1], "-n"))
		rounds = atol(argv[2]);
	else if (argc != 1)
		return 2;
	start = now_ns();
	for (i = 0; i < rounds; i++) {
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid) {
			execl("/proc/self/exe", "forkexec", "-x", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return 1;
	}
	end = now_ns();
	printf("forkexec: rounds=%ld elapsed_ns=%lld end_ns=%lld\n", rounds,
	       end - start, end);
	return 0;
}
