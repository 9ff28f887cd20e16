// SPDX-License-Identifier: GPL-2.0
/*
 * spin: a CPU-bound process for the report tests. Pinned to one CPU, it
 * computes for SECONDS without a system call in the loop, so it runs
 * whenever that CPU lets it.
 *
 *   spin [-s SECONDS] [-c CPU] [-g FIFO] [-M FILE]
 *
 * -g FIFO: wait for a line on FIFO before spinning (the tracer is ready).
 * -M FILE: halfway, write its pid to FILE (a cgroup's cgroup.procs: the
 * process moves itself) and go on spinning.
 *
 * Prints "spin: pid=PID cpu=C" when it starts; with -g, "spin: started
 * at=NS cpu_ns=NS" once the gate opens; with -M, "spin: moved from=NS to=NS
 * cpu_ns=NS" (CLOCK_MONOTONIC, the tracer's clock, before and after the
 * write; its CPU time then); at the end "spin: done start=NS end=NS
 * cpu_ns=NS" (its thread's CPU time, CLOCK_THREAD_CPUTIME_ID).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static unsigned long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

static double now_s(void)
{
	return (double)clock_ns(CLOCK_MONOTONIC) / 1e9;
}

static void spin_until(double end)
{
	volatile unsigned long sink = 0;
	unsigned long i;

	/* clock_gettime is a vDSO call: no switch into the kernel */
	while (now_s() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
}

static int gate(const char *fifo)
{
	char c;
	int fd = open(fifo, O_RDONLY);

	if (fd < 0 || read(fd, &c, 1) != 1)
		return -1;
	close(fd);
	printf("spin: started at=%llu cpu_ns=%llu\n", clock_ns(CLOCK_MONOTONIC),
	       clock_ns(CLOCK_THREAD_CPUTIME_ID));
	fflush(stdout);
	return 0;
}

/* write our pid to @file: a cgroup.procs moves the whole process */
static int move_to(const char *file)
{
	unsigned long long from, to;
	char pid[32];
	int fd = open(file, O_WRONLY), len, ok;

	if (fd < 0)
		return -1;
	len = snprintf(pid, sizeof(pid), "%d\n", getpid());
	from = clock_ns(CLOCK_MONOTONIC);
	ok = write(fd, pid, (size_t)len) == len;
	to = clock_ns(CLOCK_MONOTONIC);
	if (close(fd) || !ok)
		return -1;
	printf("spin: moved from=%llu to=%llu cpu_ns=%llu\n", from, to,
	       clock_ns(CLOCK_THREAD_CPUTIME_ID));
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const char *fifo = NULL, *move = NULL;
	unsigned long long start;
	double seconds = 3, t0;
	int cpu = 0, opt;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "s:c:g:M:")) != -1) {
		if (opt == 's')
			seconds = atof(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'g')
			fifo = optarg;
		else if (opt == 'M')
			move = optarg;
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
	if (fifo && gate(fifo))
		return 1;
	start = clock_ns(CLOCK_MONOTONIC);
	t0 = (double)start / 1e9;
	if (move) {
		spin_until(t0 + seconds / 2);
		if (move_to(move)) {
			perror("spin: moving");
			return 1;
		}
	}
	spin_until(t0 + seconds);
	printf("spin: done start=%llu end=%llu cpu_ns=%llu\n", start,
	       clock_ns(CLOCK_MONOTONIC), clock_ns(CLOCK_THREAD_CPUTIME_ID));
	return 0;
}
