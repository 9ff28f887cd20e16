// SPDX-License-Identifier: GPL-2.0
/*
 * needle: one scheduling delay far above the rest, at a moment only this
 * program knows.
 *
 *   needle [-c CPU] [-s SPIN_MS] [-g FILE] [-r RUN_MS]
 *
 * Two processes pinned to CPU (default 0): the victim ("ct-victim") reads
 * one byte at a time from a pipe; the waker ("ct-waker") writes it one
 * every 5 ms, so the victim is woken 200 times a second with short
 * delays. Once FILE exists (-g: a tracer is ready; 120 s at most), at a
 * random moment between 0.5 s and 1.5 s, the waker makes itself
 * SCHED_FIFO, wakes the victim with an 'N' and spins SPIN_MS (default
 * 300) before it sleeps: the victim waits that long to run. The ordinary
 * wakeups go on until RUN_MS (default 3000) have passed.
 *
 * Lines on stdout:
 *   needle: started waker=PID victim=PID
 *   needle: victim=PID ran_ns=T          (the victim ran after the 'N')
 *   needle: waker=PID victim=PID woken_ns=T spin_ns=S
 * times on CLOCK_MONOTONIC, as the kernel's trace clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int victim(int rfd)
{
	char byte;

	if (prctl(PR_SET_NAME, "ct-victim", 0, 0, 0))
		return 1;
	while (read(rfd, &byte, 1) == 1) {
		if (byte == 'N') {
			printf("needle: victim=%d ran_ns=%lld\n", (int)getpid(), now_ns());
			fflush(stdout);
		}
		if (byte == 'q')
			return 0;
	}
	return 1;
}

/* A random moment from 500 to 1500 ms, from the kernel's random pool */
static long random_ms(void)
{
	unsigned int r = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, &r, sizeof(r)) != sizeof(r))
			r = (unsigned int)now_ns();
		close(fd);
	}
	return 500 + (long)(r % 1001);
}

/* Wake the victim and keep it from running for @spin_ms */
static int needle(int wfd, pid_t child, long spin_ms)
{
	struct sched_param fifo = { .sched_priority = 10 }, other = { 0 };
	long long woken, spun;

	if (sched_setscheduler(0, SCHED_FIFO, &fifo)) {
		perror("needle: SCHED_FIFO");
		return -1;
	}
	woken = now_ns();
	if (write(wfd, "N", 1) != 1)
		return -1;
	while (now_ns() - woken < spin_ms * 1000000ll)
		;
	spun = now_ns() - woken;
	/*
	 * still FIFO: the victim runs now, and is not preempted by this
	 * waker's return while it reads the clock (TCG: 1 ms was too short)
	 */
	sleep_ms(50);
	sched_setscheduler(0, SCHED_OTHER, &other);
	printf("needle: waker=%d victim=%d woken_ns=%lld spin_ns=%lld\n",
	       (int)getpid(), (int)child, woken, spun);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	long spin_ms = 300, run_ms = 3000, at_ms, polls;
	const char *gate = NULL;
	long long start;
	int cpu = 0, opt, status, fds[2];
	bool done = false;
	cpu_set_t set;
	pid_t child;

	while ((opt = getopt(argc, argv, "c:s:g:r:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 's':
			spin_ms = strtol(optarg, NULL, 10);
			break;
		case 'g':
			gate = optarg;
			break;
		case 'r':
			run_ms = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: needle [-c CPU] [-s SPIN_MS] [-g FILE] [-r RUN_MS]\n");
			return 2;
		}
	}
	if (spin_ms <= 0 || spin_ms > 800 || run_ms < 2000) {
		fprintf(stderr, "needle: want -s 1..800 and -r from 2000\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "needle: cannot pin to cpu %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (pipe(fds)) {
		perror("needle");
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("needle: fork");
		return 1;
	}
	if (child == 0) {
		close(fds[1]);
		return victim(fds[0]);
	}
	close(fds[0]);
	prctl(PR_SET_NAME, "ct-waker", 0, 0, 0);
	printf("needle: started waker=%d victim=%d\n", (int)getpid(), (int)child);
	fflush(stdout);
	for (polls = 0; gate && access(gate, F_OK); polls++) {
		if (polls >= 12000) {
			fprintf(stderr, "needle: %s did not appear\n", gate);
			return 1;
		}
		sleep_ms(10);
	}
	at_ms = random_ms();
	start = now_ns();
	while (now_ns() - start < run_ms * 1000000ll) {
		if (!done && now_ns() - start >= at_ms * 1000000ll) {
			if (needle(fds[1], child, spin_ms))
				return 1;
			done = true;
		}
		if (write(fds[1], "o", 1) != 1)
			return 1;
		sleep_ms(5);
	}
	if (write(fds[1], "q", 1) != 1 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return done ? 0 : 1;
}
