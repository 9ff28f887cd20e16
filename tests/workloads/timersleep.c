// SPDX-License-Identifier: GPL-2.0
/*
 * timersleep: the wakeup-heavy benchmark workload. THREADS threads each
 * sleep US microseconds (clock_nanosleep: one hrtimer and one wakeup per
 * sleep) until ROUNDS sleeps have been done in all.
 *
 *   timersleep [-t THREADS] [-u US] [-n ROUNDS]
 *
 * The threads get 64 KiB stacks instead of glibc's 8 MiB: on a kernel
 * with transparent huge pages always on (Debian's), a default stack's
 * first touch now and then faulted in a 2 MiB page, whose clearing is
 * 4.4 million emulated instructions, in one run of make bench and not in
 * the next (stock kernel, untraced 5000-sleep runs of 33.3 M
 * instructions: 1 or 2 in 20 had a thp_fault_alloc and were 4.4 M
 * longer; none with the huge pages off).
 *
 * The last line is "timersleep: threads=T rounds=N elapsed_ns=E end_ns=F"
 * (F: the CLOCK_MONOTONIC time it ended).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static atomic_long rounds_left;
static long sleep_us = 100;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void *sleeper(void *arg)
{
	struct timespec nap = { 0, sleep_us * 1000 };

	(void)arg;
	while (atomic_fetch_sub(&rounds_left, 1) > 0)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	long threads = 16, rounds = 20000, i;
	pthread_t *tids;
	long long start, end;
	pthread_attr_t attr;
	int opt;

	while ((opt = getopt(argc, argv, "t:u:n:")) != -1) {
		if (opt == 't')
			threads = atol(optarg);
		else if (opt == 'u')
			sleep_us = atol(optarg);
		else if (opt == 'n')
			rounds = atol(optarg);
		else
			return 2;
	}
	if (threads < 1 || threads > 4096 || sleep_us < 1 || sleep_us >= 1000000)
		return 2;
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!tids)
		return 1;
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, 64 << 10))
		return 1;
	atomic_store(&rounds_left, rounds);
	start = now_ns();
	for (i = 0; i < threads; i++)
		if (pthread_create(&tids[i], &attr, sleeper, NULL))
			return 1;
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	pthread_attr_destroy(&attr);
	end = now_ns();
	printf("timersleep: threads=%ld rounds=%ld elapsed_ns=%lld end_ns=%lld\n",
	       threads, rounds, end - start, end);
	free(tids);
	return 0;
}
