// SPDX-License-Identifier: GPL-2.0
/*
 * idlemeter: how much of a CPU others used after a command ended. It runs
 * COMMAND and waits for it; then it tells FIFO the command's exit status
 * ("0\n") and spins on CPU under SCHED_IDLE, so it runs only when no other
 * task wants that CPU (a waking task preempts it at once): what it did not
 * get, others did. On SIGTERM or SIGINT it prints, for the time since the
 * command ended,
 *
 *   idlemeter: wall_ns=W own_ns=O busy_ns=W-O end_ns=T
 *
 * (CLOCK_MONOTONIC, and its own CPU time, CLOCK_THREAD_CPUTIME_ID: exact
 * where a task's CPU time is, no sampling; T: CLOCK_MONOTONIC when it
 * stopped) and exits with the command's status. make bench runs each
 * workload under it and stops it once the tracer is done: from the
 * workload's end to T, less O, is what the tracer still had to do (drain,
 * write, finalize) with its waits and idle time left out. A SCHED_IDLE
 * task still gets about 0.3% of a busy CPU (weight 3 against 1024): the
 * busy time is short by that much.
 *
 *   idlemeter [-c CPU] -n FIFO COMMAND [ARG]...
 *
 * The signal handler is in place before the command starts, so a stop
 * that comes early is not lost; the command inherits neither SCHED_IDLE
 * nor the CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* the command's exit status (128 + N for a signal), or -1 */
static int run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("idlemeter: fork");
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "idlemeter: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("idlemeter: waitpid");
			return -1;
		}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int idle_on(int cpu)
{
	struct sched_param param = { 0 };
	cpu_set_t set;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("idlemeter: sched_setaffinity");
			return -1;
		}
	}
	if (sched_setscheduler(0, SCHED_IDLE, &param)) {
		perror("idlemeter: sched_setscheduler SCHED_IDLE");
		return -1;
	}
	return 0;
}

static int tell(const char *fifo, int status)
{
	char line[16];
	int fd = open(fifo, O_WRONLY | O_CLOEXEC);
	int len = snprintf(line, sizeof(line), "%d\n", status);

	if (fd < 0 || write(fd, line, len) != len) {
		fprintf(stderr, "idlemeter: %s: %s\n", fifo, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	long long wall0, own0, end, own;
	const char *fifo = NULL;
	struct sigaction sa;
	int opt, cpu = -1, status;

	while ((opt = getopt(argc, argv, "+c:n:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'n':
			fifo = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!fifo || optind >= argc)
		goto usage;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
		perror("idlemeter: sigaction");
		return 1;
	}
	status = run(argv + optind);
	if (status < 0 || idle_on(cpu))
		return 1;
	wall0 = clock_ns(CLOCK_MONOTONIC);
	own0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (tell(fifo, status))
		return 1;
	while (!stop)
		;
	end = clock_ns(CLOCK_MONOTONIC);
	own = clock_ns(CLOCK_THREAD_CPUTIME_ID) - own0;
	printf("idlemeter: wall_ns=%lld own_ns=%lld busy_ns=%lld end_ns=%lld\n",
	       end - wall0, own, end - wall0 - own, end);
	if (fflush(stdout))
		return 1;
	return status;
usage:
	fprintf(stderr, "usage: idlemeter [-c CPU] -n FIFO COMMAND [ARG]...\n");
	return 2;
}
