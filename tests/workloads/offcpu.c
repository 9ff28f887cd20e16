// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: blocks in the kernel from chains of functions of its own, for
 * the tests of record -g: each mode blocks TIMES times for about MS
 * milliseconds and prints how long each block lasted, measured here.
 *
 *   offcpu [-n TIMES] [-m MS] MODE
 *
 *   pipe   ct_pipe_outer -> ct_pipe_middle -> ct_pipe_read: read() of an
 *          empty pipe, which a thread (ct_pipe_waker -> ct_pipe_wake)
 *          writes a byte to MS later
 *   sleep  ct_sleep_outer -> ct_sleep_middle -> ct_sleep_nap: nanosleep
 *   futex  ct_futex_outer -> ct_futex_middle -> ct_futex_wait: FUTEX_WAIT,
 *          which a thread (ct_futex_waker -> ct_futex_wake) ends MS later
 *   exit   a child (ct_exit_outer -> ct_exit_nap) sleeps MS once and
 *          exits at once; the parent waits for it
 *
 * Built with frame pointers and without sibling calls (the Makefile), and
 * the innermost functions make their system calls themselves, with the
 * syscall instruction: a libc wrapper has no frame pointer, and the
 * frame-pointer walk would lose the function that called it.
 *
 * Prints "offcpu: pid=PID", then "offcpu: MODE blocked_ns=NS" per block
 * and "offcpu: MODE total_ns=NS count=N" at the end.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "offcpu makes x86-64 system calls"
#endif

#define CT_NOINLINE	__attribute__((noinline))
/*
 * A local on the stack: the function sets up a frame of its own even when
 * it calls nothing (the syscall instruction is no call), so the walk
 * finds its caller
 */
#define CT_FRAME()	volatile char ct_frame_anchor = 0; (void)ct_frame_anchor

static long times = 20, ms = 20;
static int pipe_fds[2];
static _Atomic unsigned int futex_word;
static unsigned long long total_ns;
static long blocks;

static inline __attribute__((always_inline)) long
ct_sys4(long n, long a1, long a2, long a3, long a4)
{
	register long r10 __asm__("r10") = a4;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

static unsigned long long ct_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void ct_nap(long msecs)
{
	struct timespec t = { msecs / 1000, msecs % 1000 * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static void ct_blocked(const char *mode, unsigned long long t0)
{
	unsigned long long d = ct_now() - t0;

	total_ns += d;
	blocks++;
	printf("offcpu: %s blocked_ns=%llu\n", mode, d);
}

/* --- pipe */

CT_NOINLINE long ct_pipe_read(void)
{
	char byte;

	return ct_sys4(SYS_read, pipe_fds[0], (long)&byte, 1, 0);
}

CT_NOINLINE long ct_pipe_middle(void)
{
	return ct_pipe_read() + 0 * times;
}

CT_NOINLINE void ct_pipe_outer(void)
{
	unsigned long long t0 = ct_now();

	if (ct_pipe_middle() != 1)
		exit(1);
	ct_blocked("pipe", t0);
}

CT_NOINLINE long ct_pipe_wake(void)
{
	char byte = 'w';

	return ct_sys4(SYS_write, pipe_fds[1], (long)&byte, 1, 0);
}

CT_NOINLINE void *ct_pipe_waker(void *arg)
{
	long i;

	for (i = 0; i < times; i++) {
		ct_nap(ms);
		if (ct_pipe_wake() != 1)
			exit(1);
	}
	return arg;
}

/* --- nanosleep */

CT_NOINLINE long ct_sleep_nap(void)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };

	return ct_sys4(SYS_nanosleep, (long)&t, 0, 0, 0);
}

CT_NOINLINE long ct_sleep_middle(void)
{
	return ct_sleep_nap() + 0 * times;
}

CT_NOINLINE void ct_sleep_outer(void)
{
	unsigned long long t0 = ct_now();

	if (ct_sleep_middle())
		exit(1);
	ct_blocked("sleep", t0);
}

/* --- futex */

CT_NOINLINE long ct_futex_wait(void)
{
	CT_FRAME();
	return ct_sys4(SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0, 0);
}

CT_NOINLINE long ct_futex_middle(void)
{
	return ct_futex_wait() + 0 * times;
}

CT_NOINLINE void ct_futex_outer(void)
{
	unsigned long long t0 = ct_now();

	while (!atomic_load(&futex_word))
		ct_futex_middle();
	atomic_store(&futex_word, 0);
	ct_blocked("futex", t0);
}

CT_NOINLINE long ct_futex_wake(void)
{
	CT_FRAME();
	atomic_store(&futex_word, 1);
	return ct_sys4(SYS_futex, (long)&futex_word, FUTEX_WAKE_PRIVATE, 1, 0);
}

CT_NOINLINE void *ct_futex_waker(void *arg)
{
	long i;

	for (i = 0; i < times; i++) {
		ct_nap(ms);
		/* the last wait has ended: the word is back at 0 */
		while (atomic_load(&futex_word))
			ct_nap(1);
		ct_futex_wake();
	}
	return arg;
}

/* --- a process that exits right after blocking */

CT_NOINLINE long ct_exit_nap(void)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L + 1 };

	return ct_sys4(SYS_nanosleep, (long)&t, 0, 0, 0);
}

CT_NOINLINE void ct_exit_outer(void)
{
	unsigned long long t0 = ct_now();

	ct_exit_nap();
	printf("offcpu: exit blocked_ns=%llu pid=%d\n", ct_now() - t0,
	       (int)getpid());
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	pthread_t waker;
	const char *mode;
	int opt, status;
	pid_t child;
	long i;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		if (opt == 'n')
			times = atol(optarg);
		else if (opt == 'm')
			ms = atol(optarg);
		else
			return 2;
	}
	if (optind != argc - 1 || times < 1 || ms < 1)
		return 2;
	mode = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("offcpu: pid=%d\n", (int)getpid());
	if (!strcmp(mode, "pipe")) {
		if (pipe(pipe_fds) ||
		    pthread_create(&waker, NULL, ct_pipe_waker, NULL))
			return 1;
		for (i = 0; i < times; i++)
			ct_pipe_outer();
		pthread_join(waker, NULL);
	} else if (!strcmp(mode, "sleep")) {
		for (i = 0; i < times; i++)
			ct_sleep_outer();
	} else if (!strcmp(mode, "futex")) {
		if (pthread_create(&waker, NULL, ct_futex_waker, NULL))
			return 1;
		for (i = 0; i < times; i++)
			ct_futex_outer();
		pthread_join(waker, NULL);
	} else if (!strcmp(mode, "exit")) {
		child = fork();
		if (child < 0)
			return 1;
		if (!child)
			ct_exit_outer();
		if (waitpid(child, &status, 0) != child || status)
			return 1;
		printf("offcpu: exit child=%d\n", (int)child);
		return 0;
	} else {
		fprintf(stderr, "offcpu: unknown mode '%s'\n", mode);
		return 2;
	}
	printf("offcpu: %s total_ns=%llu count=%ld\n", mode, total_ns, blocks);
	return 0;
}
