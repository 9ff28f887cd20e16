// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two processes pinned to one CPU pass a byte back and forth
 * over two pipes, so every round trip is two context switches between
 * exactly these two pids.
 *
 *   pingpong [-n ROUNDS] [-c CPU] [-w MS] [-g FILE] [-b]
 *
 * With -b both run as SCHED_BATCH: a woken task then never preempts the
 * one that woke it, so every round is the same two blocking reads. Under
 * SCHED_OTHER a round is either that or a wakeup preemption, and which
 * one depends on how long the two have run: an untraced 1250-round run
 * is almost all preemptions, a 40000-round one almost all blocks, the
 * kinds cost different amounts, and a tracer shifts the mix (make bench
 * on the padded kernel: 239 more blocking rounds traced than untraced
 * at 1250 rounds, 589 at 40000). -b makes the cost of a round one number.
 *
 * The parent is named "ct-ping", the child renames itself "ct-pong" before
 * the first round. With -w, it prints "pingpong: started ping=PID
 * pong=PID" once both are ready and waits MS milliseconds before the
 * first round (so a tracer can be pointed at the pids); with -g it prints
 * the same and starts once FILE exists (a tracer's start can take longer
 * than any fixed wait under emulation; 120 s at most), or, when FILE is a
 * FIFO, once a byte is written to it (one wakeup, where polling for a
 * file wakes ping every 10 ms). On success the last two lines on stdout
 * are
 *   pingpong: pong=PID blocked=B    (pong's voluntary switches in the rounds)
 *   pingpong: ping=PID pong=PID rounds=N cpu=C elapsed_ns=T end_ns=E
 *
 * (E: the CLOCK_MONOTONIC time it ended)
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* -g FIFO: block until a byte arrives; 0 at once when @gate is no FIFO */
static int wait_fifo(const char *gate)
{
	struct stat st;
	char byte;
	int fd;

	if (stat(gate, &st) || !S_ISFIFO(st.st_mode))
		return 0;
	/* read-write: the open does not wait for a writer, the read does */
	fd = open(gate, O_RDWR);
	if (fd < 0 || read(fd, &byte, 1) != 1) {
		perror("pingpong: gate");
		return -1;
	}
	close(fd);
	return 0;
}

static int xfer(int rfd, int wfd, char *byte, int read_first)
{
	if (read_first && read(rfd, byte, 1) != 1)
		return -1;
	if (write(wfd, byte, 1) != 1)
		return -1;
	if (!read_first && read(rfd, byte, 1) != 1)
		return -1;
	return 0;
}

static int pong(int rfd, int wfd, long rounds)
{
	struct rusage before, after;
	char byte = 'r';
	long i;

	if (prctl(PR_SET_NAME, "ct-pong", 0, 0, 0))
		return 1;
	/* tell ping we are named and ready */
	if (write(wfd, &byte, 1) != 1)
		return 1;
	getrusage(RUSAGE_SELF, &before);
	for (i = 0; i < rounds; i++)
		if (xfer(rfd, wfd, &byte, 1))
			return 1;
	getrusage(RUSAGE_SELF, &after);
	/* each time pong blocked in the rounds ended with one wakeup of it */
	printf("pingpong: pong=%d blocked=%ld\n", (int)getpid(),
	       after.ru_nvcsw - before.ru_nvcsw);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	long rounds = 1000, i, wait_ms = 0, polls;
	const char *gate = NULL;
	long long start, end;
	int cpu = 0, opt, status, batch = 0;
	int to_pong[2], to_ping[2];
	struct sched_param batch_param = { 0 };
	cpu_set_t set;
	char byte = 'p';
	pid_t child;

	while ((opt = getopt(argc, argv, "n:c:w:g:b")) != -1) {
		switch (opt) {
		case 'n':
			rounds = strtol(optarg, NULL, 10);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'w':
			wait_ms = strtol(optarg, NULL, 10);
			break;
		case 'g':
			gate = optarg;
			break;
		case 'b':
			batch = 1;
			break;
		default:
			fprintf(stderr, "usage: pingpong [-n ROUNDS] [-c CPU] [-w MS] [-g FILE] [-b]\n");
			return 2;
		}
	}
	if (rounds <= 0) {
		fprintf(stderr, "pingpong: rounds must be positive\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "pingpong: cannot pin to cpu %d: %s\n", cpu,
			strerror(errno));
		return 1;
	}
	if (batch && sched_setscheduler(0, SCHED_BATCH, &batch_param)) {
		fprintf(stderr, "pingpong: cannot use SCHED_BATCH: %s\n",
			strerror(errno));
		return 1;
	}
	if (prctl(PR_SET_NAME, "ct-ping", 0, 0, 0) ||
	    pipe(to_pong) || pipe(to_ping)) {
		perror("pingpong");
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0)
		_exit(pong(to_pong[0], to_ping[1], rounds));

	if (read(to_ping[0], &byte, 1) != 1) {
		fprintf(stderr, "pingpong: child did not start\n");
		return 1;
	}
	if (wait_ms > 0 || gate) {
		printf("pingpong: started ping=%d pong=%d\n", (int)getpid(),
		       (int)child);
		fflush(stdout);
		usleep((useconds_t)wait_ms * 1000);
	}
	if (gate && wait_fifo(gate))
		return 1;
	for (polls = 0; gate && access(gate, F_OK); polls++) {
		if (polls == 12000) {
			fprintf(stderr, "pingpong: %s did not appear\n", gate);
			return 1;
		}
		usleep(10000);
	}
	start = now_ns();
	for (i = 0; i < rounds; i++) {
		if (xfer(to_ping[0], to_pong[1], &byte, 0)) {
			fprintf(stderr, "pingpong: round %ld failed\n", i);
			return 1;
		}
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "pingpong: child failed\n");
		return 1;
	}
	end = now_ns();
	printf("pingpong: ping=%d pong=%d rounds=%ld cpu=%d elapsed_ns=%lld end_ns=%lld\n",
	       (int)getpid(), (int)child, rounds, cpu, end - start, end);
	return 0;
}
