// SPDX-License-Identifier: GPL-2.0
/*
 * eventgen: make each traced event fire in a way whose fields are known,
 * and print that ground truth, one "truth EVENT key=value..." line each.
 *
 *   eventgen all     every scenario below, in order
 *   eventgen noop    exit 0 (the exec scenario's target)
 *
 * Needs two CPUs for the wakeup and migrate scenarios (prints "skip" lines
 * otherwise).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXEC_PATH	"/workloads/eventgen"
#define SLEEPS		5
#define RCV_TIMEOUTS	3

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void spin_ms(int ms)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

static int wait_child(pid_t child)
{
	int status;

	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

/* task_rename through prctl(PR_SET_NAME) */
static int scenario_rename(void)
{
	if (prctl(PR_SET_NAME, "ct-renamed", 0, 0, 0))
		return -1;
	printf("truth task_rename pid=%d newcomm=ct-renamed\n", getpid());
	return 0;
}

/* sched_process_fork, sched_wakeup_new, sched_process_exit */
static int scenario_fork_exit(void)
{
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (child == 0)
		_exit(0);
	if (wait_child(child))
		return -1;
	printf("truth sched_process_fork parent_pid=%d child_pid=%d\n",
	       getpid(), child);
	printf("truth sched_wakeup_new pid=%d\n", child);
	printf("truth sched_process_exit pid=%d\n", child);
	return 0;
}

/* sched_process_exec with a known filename */
static int scenario_exec(void)
{
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (child == 0) {
		execl(EXEC_PATH, "eventgen", "noop", (char *)NULL);
		_exit(127);
	}
	if (wait_child(child))
		return -1;
	printf("truth sched_process_exec pid=%d filename=%s\n", child, EXEC_PATH);
	return 0;
}

/* sched_waking and sched_wakeup of a child sleeping on CPU 1 */
static int scenario_wakeup(void)
{
	int fds[2], ready[2];
	char byte = 'w';
	pid_t child;

	if (pipe(fds) || pipe(ready))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		if (pin(1) || write(ready[1], &byte, 1) != 1 ||
		    read(fds[0], &byte, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(ready[0], &byte, 1) != 1)
		return -1;
	usleep(50000);	/* let it block in read() */
	if (write(fds[1], &byte, 1) != 1 || wait_child(child))
		return -1;
	printf("truth sched_wakeup pid=%d target_cpu=1\n", child);
	printf("truth sched_waking pid=%d target_cpu=1\n", child);
	close(fds[0]);
	close(fds[1]);
	close(ready[0]);
	close(ready[1]);
	return 0;
}

/* sched_migrate_task: a running child moved from CPU 0 to CPU 1 */
static int scenario_migrate(void)
{
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (child == 0) {
		if (pin(0))
			_exit(1);
		spin_ms(20);
		if (pin(1))
			_exit(1);
		spin_ms(20);
		_exit(0);
	}
	if (wait_child(child))
		return -1;
	printf("truth sched_migrate_task pid=%d orig_cpu=0 dest_cpu=1\n", child);
	return 0;
}

/* hrtimer_expire_entry: nanosleep arms an hrtimer that runs hrtimer_wakeup */
static int scenario_hrtimer(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < SLEEPS; i++)
		if (nanosleep(&ts, NULL))
			return -1;
	printf("truth hrtimer_expire_entry function=hrtimer_wakeup min=%d\n",
	       SLEEPS);
	return 0;
}

/*
 * timer_expire_entry: a receive timeout sleeps in schedule_timeout(),
 * which arms a timer-wheel timer running process_timeout.
 */
static int scenario_timer(void)
{
	struct timeval tv = { 0, 20 * 1000 };
	int sv[2], i;
	char byte;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -1;
	for (i = 0; i < RCV_TIMEOUTS; i++)
		if (recv(sv[0], &byte, 1, 0) != -1 ||
		    (errno != EAGAIN && errno != EWOULDBLOCK))
			return -1;
	close(sv[0]);
	close(sv[1]);
	printf("truth timer_expire_entry function=process_timeout min=%d\n",
	       RCV_TIMEOUTS);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
		int cpus;
	} scenarios[] = {
		{ "rename", scenario_rename, 1 },
		{ "fork_exit", scenario_fork_exit, 1 },
		{ "exec", scenario_exec, 1 },
		{ "wakeup", scenario_wakeup, 2 },
		{ "migrate", scenario_migrate, 2 },
		{ "hrtimer", scenario_hrtimer, 1 },
		{ "timer", scenario_timer, 1 },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc != 2 || strcmp(argv[1], "all")) {
		fprintf(stderr, "usage: eventgen all|noop\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (cpus < scenarios[i].cpus) {
			printf("skip %s: needs %d CPUs\n", scenarios[i].name,
			       scenarios[i].cpus);
			continue;
		}
		if (scenarios[i].run()) {
			fprintf(stderr, "eventgen: scenario %s failed: %s\n",
				scenarios[i].name, strerror(errno));
			return 1;
		}
	}
	return 0;
}
