// SPDX-License-Identifier: GPL-2.0
/*
 * delayer: a scheduling delay of a known length, over and over.
 *
 *   delayer [-c CPU] [-d DELAY_MS] [-s SLEEP_MS] [-n ROUNDS] [-G FILE]
 *
 * Two processes pinned to CPU (default 0). The victim ("ct-delayed")
 * reads one byte at a time from a pipe. The waker ("ct-delayer"), running
 * SCHED_FIFO, writes a byte (the victim is woken) and spins DELAY_MS
 * (default 5) before it sleeps SLEEP_MS (default 2): each time, the
 * victim waits about DELAY_MS to run (and blocks again while the waker
 * sleeps, so that the next byte wakes it). -G FILE: the victim first writes its pid to FILE (a
 * cgroup's cgroup.procs), so that its group holds only those waits.
 *
 * Prints "delayer: victim=PID" once the victim is in place, then
 * "delayer: victim=PID woken=N" (the bytes it read) and
 * "delayer: rounds=N delay_ms=D" at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("delayer: sched_setaffinity");
		exit(1);
	}
}

static void join_group(const char *file)
{
	char pid[32];
	int fd = open(file, O_WRONLY);
	int n = snprintf(pid, sizeof(pid), "%d\n", getpid());

	if (fd < 0 || write(fd, pid, (size_t)n) != n) {
		fprintf(stderr, "delayer: cannot move into %s: %s\n", file,
			strerror(errno));
		exit(1);
	}
	close(fd);
}

/* the victim: reads until the pipe closes; tells how often it woke */
static int victim(int in, int ready, const char *group)
{
	long woken = 0;
	char byte;

	prctl(PR_SET_NAME, "ct-delayed");
	if (group)
		join_group(group);
	if (write(ready, "r", 1) != 1)
		return 1;
	close(ready);
	while (read(in, &byte, 1) == 1)
		woken++;
	printf("delayer: victim=%d woken=%ld\n", getpid(), woken);
	return fflush(stdout) ? 1 : 0;	/* the child ends with _exit */
}

int main(int argc, char **argv)
{
	long rounds = 200, delay_ms = 5, sleep_ms = 2, i;
	const char *group = NULL;
	struct sched_param sp = { .sched_priority = 10 };
	struct timespec nap;
	int cpu = 0, opt, data[2], ready[2], status;
	long long until;
	pid_t pid;
	char byte;

	while ((opt = getopt(argc, argv, "c:d:s:n:G:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'd': delay_ms = atol(optarg); break;
		case 's': sleep_ms = atol(optarg); break;
		case 'n': rounds = atol(optarg); break;
		case 'G': group = optarg; break;
		default:
			fprintf(stderr, "usage: delayer [-c CPU] [-d MS] [-s MS] [-n ROUNDS] [-G FILE]\n");
			return 2;
		}
	}
	if (delay_ms < 1 || delay_ms > 1000 || sleep_ms < 1 || sleep_ms > 1000 ||
	    rounds < 1 || pipe(data) || pipe(ready)) {
		fprintf(stderr, "delayer: bad arguments or no pipe\n");
		return 2;
	}
	nap.tv_sec = sleep_ms / 1000;
	nap.tv_nsec = sleep_ms % 1000 * 1000000;
	pin(cpu);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(data[1]);
		close(ready[0]);
		_exit(victim(data[0], ready[1], group));
	}
	close(data[0]);
	close(ready[1]);
	if (read(ready[0], &byte, 1) != 1) {
		fprintf(stderr, "delayer: the victim did not start\n");
		return 1;
	}
	printf("delayer: victim=%d\n", pid);
	fflush(stdout);
	prctl(PR_SET_NAME, "ct-delayer");
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("delayer: SCHED_FIFO");
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		if (write(data[1], "w", 1) != 1)
			return 1;
		until = now_ns() + delay_ms * 1000000ll;
		while (now_ns() < until)
			;
		nanosleep(&nap, NULL);
	}
	close(data[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("delayer: rounds=%ld delay_ms=%ld\n", rounds, delay_ms);
	return 0;
}
