// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace record`: load the BPF object, attach its programs, drain the
 * ring buffer until told to stop, and account for every record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "coretrace.skel.h"
#include "record.h"
#include "sys.h"

#define CT_POLL_MS		100	/* records wait at most this long */
#define CT_COMM_CAPACITY	65536
#define CT_LINE_MAX		1024

struct ct_session {
	const struct ct_record_opts *opts;
	struct ct_comm_cache comms;
	struct ct_print_ctx pctx;
	FILE *out;
	unsigned long long received[CT_EV_MAX];
	unsigned long long corrupt;
	char line[CT_LINE_MAX];
};

static volatile sig_atomic_t ct_stop_requested;
static int ct_libbpf_verbosity;

static void ct_on_signal(int sig)
{
	(void)sig;
	ct_stop_requested = 1;
}

static int ct_libbpf_print(enum libbpf_print_level level, const char *fmt,
			   va_list args)
{
	if ((level == LIBBPF_INFO && ct_libbpf_verbosity < 1) ||
	    (level == LIBBPF_DEBUG && ct_libbpf_verbosity < 2))
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void ct_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ct_on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a signal must interrupt the ring's epoll wait */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double ct_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Remember the names BPF announces, after printing what used the old one. */
static void ct_learn_comm(struct ct_session *s, const union ct_record *rec)
{
	if (rec->hdr.type == CT_EV_COMM)
		ct_comm_cache_set(&s->comms, rec->comm.pid, rec->comm.comm);
	else if (rec->hdr.type == CT_EV_TASK_RENAME)
		ct_comm_cache_set(&s->comms, rec->task_rename.pid,
				  rec->task_rename.newcomm);
}

static int ct_on_record(void *ctx, void *data, size_t len)
{
	struct ct_session *s = ctx;
	union ct_record rec;
	int n;

	if (ct_decode(data, len, &rec)) {
		s->corrupt++;
		return 0;
	}
	s->received[rec.hdr.type]++;
	n = ct_format(s->opts->format, &rec, &s->pctx, s->line,
		      sizeof(s->line));
	if (n > 0) {
		if ((size_t)n >= sizeof(s->line))
			n = sizeof(s->line) - 1;
		s->line[n] = '\n';
		fwrite(s->line, 1, (size_t)n + 1, s->out);
	}
	ct_learn_comm(s, &rec);
	return 0;
}

/* Skip the programs whose tracepoint this kernel does not have. */
static int ct_select_programs(struct coretrace_bpf *skel)
{
	const char *events = ct_tracefs_events();
	char prog_name[64];
	int i, enabled = 0;

	if (!events) {
		fprintf(stderr, "coretrace: tracefs is not mounted (try: mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -ENOENT;
	}
	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *desc = &ct_events[i];
		struct bpf_program *prog;

		if (!desc->tp_name[0])
			continue;
		snprintf(prog_name, sizeof(prog_name), "handle_%s", desc->name);
		prog = bpf_object__find_program_by_name(skel->obj, prog_name);
		if (!prog)
			continue;
		if (ct_tracepoint_exists(events, desc->tp_category,
					 desc->tp_name)) {
			enabled++;
			continue;
		}
		fprintf(stderr, "coretrace: warning: this kernel has no tracepoint %s:%s; skipping it\n",
			desc->tp_category, desc->tp_name);
		bpf_program__set_autoload(prog, false);
	}
	if (!enabled) {
		fprintf(stderr, "coretrace: this kernel has none of the tracepoints coretrace uses\n");
		return -ENOENT;
	}
	return 0;
}

static int ct_open_and_load(const struct ct_record_opts *opts,
			    struct coretrace_bpf **skelp)
{
	struct coretrace_bpf *skel;
	int err;

	skel = coretrace_bpf__open();
	if (!skel) {
		fprintf(stderr, "coretrace: could not open the BPF object: %s\n",
			strerror(errno));
		return -errno;
	}
	err = bpf_map__set_max_entries(skel->maps.ct_ring, opts->buffer_size);
	skel->rodata->ct_wakeup_bytes = opts->buffer_size / 4;
	if (!err)
		err = ct_select_programs(skel);
	if (!err) {
		err = coretrace_bpf__load(skel);
		if (err == -EPERM || err == -EACCES)
			fprintf(stderr, "coretrace: the kernel refused to load BPF programs: run as root (sudo) or with CAP_BPF and CAP_PERFMON\n");
		else if (err)
			fprintf(stderr, "coretrace: could not load the BPF programs: %s (run with -v for libbpf's log)\n",
				strerror(-err));
	}
	if (!err) {
		err = coretrace_bpf__attach(skel);
		if (err)
			fprintf(stderr, "coretrace: could not attach to the tracepoints: %s\n",
				strerror(-err));
	}
	if (err) {
		coretrace_bpf__destroy(skel);
		return err;
	}
	*skelp = skel;
	return 0;
}

/* Sum the per-CPU counters of every event type. */
static int ct_read_counts(struct coretrace_bpf *skel,
			  struct ct_counts totals[CT_EV_MAX])
{
	int ncpus = libbpf_num_possible_cpus();
	int fd = bpf_map__fd(skel->maps.ct_stats);
	struct ct_counts *percpu;
	__u32 type;
	int cpu;

	if (ncpus <= 0)
		return -EINVAL;
	percpu = calloc((size_t)ncpus, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	for (type = 0; type < CT_EV_MAX; type++) {
		memset(&totals[type], 0, sizeof(totals[type]));
		if (bpf_map_lookup_elem(fd, &type, percpu))
			continue;
		for (cpu = 0; cpu < ncpus; cpu++) {
			totals[type].attempted += percpu[cpu].attempted;
			totals[type].lost += percpu[cpu].lost;
		}
	}
	free(percpu);
	return 0;
}

static void ct_print_summary(struct coretrace_bpf *skel,
			     const struct ct_session *s)
{
	struct ct_counts totals[CT_EV_MAX];
	unsigned long long received = 0, lost = 0, expected = 0;
	int i;

	if (ct_read_counts(skel, totals)) {
		fprintf(stderr, "coretrace: could not read the loss counters\n");
		return;
	}
	for (i = 0; i < CT_EV_MAX; i++) {
		received += s->received[i];
		lost += totals[i].lost;
		expected += totals[i].attempted - totals[i].lost;
		if (s->opts->verbose)
			fprintf(stderr, "coretrace:   %-14s attempted %llu, lost %llu, received %llu\n",
				ct_events[i].name,
				(unsigned long long)totals[i].attempted,
				(unsigned long long)totals[i].lost,
				s->received[i]);
	}
	fprintf(stderr, "coretrace: %llu records received, %llu lost\n",
		received, lost);
	if (s->corrupt)
		fprintf(stderr, "coretrace: %llu records could not be decoded\n",
			s->corrupt);
	if (expected != received)
		fprintf(stderr, "coretrace: warning: BPF wrote %llu records but %llu arrived\n",
			expected, received);
}

static int ct_drain(struct ring_buffer *rb, const struct ct_record_opts *opts,
		    FILE *out)
{
	double deadline = opts->duration > 0 ? ct_now() + opts->duration : 0;
	int err;

	while (!ct_stop_requested) {
		/* woken early only when the ring is a quarter full */
		err = ring_buffer__poll(rb, CT_POLL_MS);
		if (err >= 0)
			err = ring_buffer__consume(rb);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "coretrace: reading the ring buffer failed: %s\n",
				strerror(-err));
			return err;
		}
		fflush(out);
		if (deadline && ct_now() >= deadline)
			break;
	}
	return 0;
}

static void ct_announce_start(const struct coretrace_bpf *skel,
			      const struct ct_record_opts *opts)
{
	struct bpf_program *prog;
	const char *sep = "";

	fprintf(stderr, "coretrace: tracing");
	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		fprintf(stderr, "%s %s", sep, bpf_program__section_name(prog));
		sep = ",";
	}
	if (opts->duration > 0)
		fprintf(stderr, " for %g s", opts->duration);
	fprintf(stderr, "; Ctrl-C to stop\n");
}

int ct_record(const struct ct_record_opts *opts)
{
	struct ct_session session = { .opts = opts, .out = stdout };
	struct coretrace_bpf *skel = NULL;
	struct ring_buffer *rb;
	int err;

	ct_libbpf_verbosity = opts->verbose;
	libbpf_set_print(ct_libbpf_print);
	if (!ct_can_trace()) {
		fprintf(stderr, "coretrace: tracing needs root or the CAP_BPF and CAP_PERFMON capabilities; run it with sudo\n");
		return CT_EXIT_FAILURE;
	}
	if (!ct_kernel_has_btf()) {
		fprintf(stderr, "coretrace: this kernel has no BTF (/sys/kernel/btf/vmlinux); coretrace needs CONFIG_DEBUG_INFO_BTF=y\n");
		return CT_EXIT_FAILURE;
	}
	if (ct_comm_cache_init(&session.comms, CT_COMM_CAPACITY)) {
		fprintf(stderr, "coretrace: out of memory\n");
		return CT_EXIT_FAILURE;
	}
	session.pctx.comms = &session.comms;
	ct_install_signals();
	if (ct_open_and_load(opts, &skel)) {
		ct_comm_cache_free(&session.comms);
		return CT_EXIT_FAILURE;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.ct_ring), ct_on_record,
			      &session, NULL);
	if (!rb) {
		fprintf(stderr, "coretrace: could not map the ring buffer: %s\n",
			strerror(errno));
		coretrace_bpf__destroy(skel);
		ct_comm_cache_free(&session.comms);
		return CT_EXIT_FAILURE;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	ct_announce_start(skel, opts);
	err = ct_drain(rb, opts, stdout);

	/* stop producing, then take what is still in the ring */
	coretrace_bpf__detach(skel);
	ring_buffer__consume(rb);
	fflush(stdout);
	ct_print_summary(skel, &session);

	ring_buffer__free(rb);
	coretrace_bpf__destroy(skel);
	ct_comm_cache_free(&session.comms);
	return err ? CT_EXIT_FAILURE : CT_EXIT_OK;
}
