// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper: sleeps MS milliseconds N times (nanosleep, so each sleep is
 * one hrtimer and one wakeup), pinned to one CPU.
 *
 *   sleeper [-n TIMES] [-m MS] [-c CPU] [-N NAME]
 *
 * -N names the task NAME (default ct-sleeper), control bytes and all.
 *
 * Prints "sleeper: pid=PID" first and "sleeper: slept N times" last.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long times = 100, ms = 10, i;
	struct timespec nap;
	const char *name = "ct-sleeper";
	int cpu = 0, opt;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:m:c:N:")) != -1) {
		if (opt == 'n')
			times = atol(optarg);
		else if (opt == 'm')
			ms = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'N')
			name = optarg;
		else
			return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    prctl(PR_SET_NAME, name, 0, 0, 0))
		return 1;
	printf("sleeper: pid=%d\n", getpid());
	fflush(stdout);
	nap.tv_sec = ms / 1000;
	nap.tv_nsec = (ms % 1000) * 1000000;
	for (i = 0; i < times; i++)
		if (nanosleep(&nap, NULL))
			return 1;
	printf("sleeper: slept %ld times\n", times);
	return 0;
}
