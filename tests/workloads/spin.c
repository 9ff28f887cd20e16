// SPDX-License-Identifier: GPL-2.0
/*
 * spin: a CPU-bound process for the report tests. Pinned to one CPU, it
 * computes for SECONDS without a system call in the loop, so it runs
 * whenever that CPU lets it.
 *
 *   spin [-s SECONDS] [-c CPU]
 *
 * Prints "spin: pid=PID cpu=C" when it starts and "spin: done" at the end.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 3, end;
	volatile unsigned long sink = 0;
	unsigned long i;
	int cpu = 0, opt;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "s:c:")) != -1) {
		if (opt == 's')
			seconds = atof(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else
			return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    prctl(PR_SET_NAME, "ct-spin", 0, 0, 0))
		return 1;
	printf("spin: pid=%d cpu=%d\n", getpid(), cpu);
	fflush(stdout);
	/* clock_gettime is a vDSO call: no switch into the kernel */
	for (end = now_s() + seconds; now_s() < end;)
		for (i = 0; i < 100000; i++)
			sink += i;
	printf("spin: done\n");
	return 0;
}
