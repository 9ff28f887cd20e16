// SPDX-License-Identifier: GPL-2.0
/*
 * latency-probe: how long a record takes to reach coretrace's output on a
 * quiet system. Starts `coretrace record -e task:task_rename ARGS...` with
 * its stdout on a pipe, then renames itself (prctl PR_SET_NAME) to a fresh
 * name N times, 300 ms apart, and times each rename until the line naming
 * it arrives.
 *
 *   latency-probe N CORETRACE [extra record options...]
 *
 * Prints "latency-probe: n=N max_ms=X median_ms=Y" (and each sample).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES	64

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Read from @fd until @needle shows up or @timeout_ms passes. */
static int wait_for(int fd, const char *needle, double timeout_ms)
{
	static char buf[1 << 16];
	static size_t used;
	double deadline = now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	for (;;) {
		buf[used] = '\0';
		if (strstr(buf, needle)) {
			used = 0;	/* consumed */
			return 0;
		}
		if (now_ms() > deadline)
			return -1;
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		if (used > sizeof(buf) / 2)
			used = 0;	/* keep the tail small; lines are short */
		n = read(fd, buf + used, sizeof(buf) - 1 - used);
		if (n <= 0)
			return -1;
		used += (size_t)n;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char *args[32], name[16], needle[32];
	double samples[MAX_SAMPLES], t0;
	int pipefd[2], n, i, argi = 0, status;
	pid_t child;

	if (argc < 3 || (n = atoi(argv[1])) <= 0 || n > MAX_SAMPLES) {
		fprintf(stderr, "usage: latency-probe N CORETRACE [record options...]\n");
		return 2;
	}
	args[argi++] = argv[2];
	args[argi++] = (char *)"record";
	args[argi++] = (char *)"-e";
	args[argi++] = (char *)"task:task_rename";
	for (i = 3; i < argc && argi < 30; i++)
		args[argi++] = argv[i];
	args[argi] = NULL;
	if (pipe(pipefd))
		return 1;
	child = fork();
	if (child == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execv(args[0], args);
		_exit(127);
	}
	close(pipefd[1]);
	sleep(3);	/* loading and attaching takes a while under TCG */
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "probe-%d", i);
		snprintf(needle, sizeof(needle), "newcomm=%s\n", name);
		usleep(300000);
		t0 = now_ms();
		prctl(PR_SET_NAME, name, 0, 0, 0);
		if (wait_for(pipefd[0], needle, 5000)) {
			fprintf(stderr, "latency-probe: rename %d never arrived\n", i);
			kill(child, SIGINT);
			waitpid(child, &status, 0);
			return 1;
		}
		samples[i] = now_ms() - t0;
		printf("latency-probe: sample %d: %.1f ms\n", i, samples[i]);
	}
	kill(child, SIGINT);
	waitpid(child, &status, 0);
	qsort(samples, (size_t)n, sizeof(samples[0]), cmp_double);
	printf("latency-probe: n=%d max_ms=%.1f median_ms=%.1f\n", n,
	       samples[n - 1], samples[n / 2]);
	return 0;
}
