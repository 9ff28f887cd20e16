// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper: sleeps MS milliseconds N times (nanosleep, so each sleep is
 * one hrtimer and one wakeup), pinned to one CPU.
 *
 *   sleeper [-n TIMES] [-m MS] [-c CPU] [-N NAME] [-g FIFO]
 *
 * -N names the task NAME (default ct-sleeper), control bytes and all.
 * -g: once named, wait for a byte written to FIFO before the first sleep
 * (a tracer can start meanwhile): that wait ends with one more wakeup.
 *
 * Prints "sleeper: pid=PID" first and "sleeper: slept N times" last.
 */
#include <fcntl.h>
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
	const char *name = "ct-sleeper", *gate = NULL;
	int cpu = 0, opt, fd;
	char byte;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:m:c:N:g:")) != -1) {
		if (opt == 'n')
			times = atol(optarg);
		else if (opt == 'm')
			ms = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'N')
			name = optarg;
		else if (opt == 'g')
			gate = optarg;
		else
			return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    prctl(PR_SET_NAME, name, 0, 0, 0))
		return 1;
	/* read-write: the open does not wait for a writer, the read does */
	fd = gate ? open(gate, O_RDWR) : -1;
	if (gate && fd < 0)
		return 1;
	printf("sleeper: pid=%d\n", getpid());
	fflush(stdout);
	if (gate && (read(fd, &byte, 1) != 1 || close(fd)))
		return 1;
	nap.tv_sec = ms / 1000;
	nap.tv_nsec = (ms % 1000) * 1000000;
	for (i = 0; i < times; i++)
		if (nanosleep(&nap, NULL))
			return 1;
	printf("sleeper: slept %ld times\n", times);
	return 0;
}
