// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace convert DIR --perfetto out.json`: the capture in the Chrome
 * trace event format, which Perfetto and chrome://tracing open. A track
 * per CPU ("CPUs" process, one thread per CPU) with a complete event (X)
 * per run of a task, counters (C) for each CPU's idle state and
 * frequency, instants (i) for wakeups on the woken thread's track, and
 * metadata (M) naming every thread. A task whose cgroup the capture
 * names is a thread of that group's process ("cgroup /a/b"), so Perfetto
 * shows tasks under their containers; a task that moves appears under
 * each group it was in. Written as the capture is read: state per CPU,
 * names at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/args.h"
#include "base/htab.h"
#include "base/options.h"
#include "views/convert.h"
#include "capture/replay.h"
#include "model/output.h"

#define CV_CPUS_PID	0x7fff0000u	/* the pid of the "CPUs" process */
#define CV_GROUP_PID	0x7ffe0000u	/* + slot: a cgroup's process */
#define CV_GROUPS	4096		/* groups given a process */

struct cv_cpu {
	bool running;
	uint32_t tid;
	uint64_t since;
};

struct cv_state {
	FILE *out;
	struct ct_names names;
	struct cv_cpu cpus[CT_MAX_CPUS];
	bool cpu_seen[CT_MAX_CPUS];
	uint64_t events;
	uint64_t last_switch;	/* who runs is known up to here */
	/* threads to name at the end: a bounded set of (pid, tid) */
	uint64_t *tids;
	uint32_t tid_mask;
	uint64_t groups[CV_GROUPS];	/* cgroup ids, by process slot */
	const struct ct_convert_opts *opts;
	int begin_err;			/* no trace file: why (-errno) */
	char why[4608];
};

static void cv_sep(struct cv_state *s)
{
	fputs(s->events++ ? ",\n" : "\n", s->out);
}

static void cv_ts(FILE *out, const char *key, uint64_t ns)
{
	fprintf(out, "\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static void cv_str(FILE *out, const char *s)
{
	char buf[6 * CT_CGROUP_PATH_LEN + 16];
	struct ct_buf b = { buf, sizeof(buf), 0 };

	ct_buf_json_str(&b, s, strlen(s));
	fwrite(buf, 1, b.pos < sizeof(buf) ? b.pos : sizeof(buf) - 1, out);
}

/* the process a task's events go to: its cgroup's, or its own */
static uint32_t cv_pid(struct cv_state *s, uint32_t tid)
{
	uint64_t id = ct_cgroup_task(&s->names.cgroups, tid);
	struct ct_probe probe = ct_probe(id, CV_GROUPS - 1, CV_GROUPS);
	uint32_t slot;

	if (!id)
		return tid;
	while (ct_probe_next(&probe, &slot)) {
		if (s->groups[slot] == id)
			return CV_GROUP_PID + slot;
		if (!s->groups[slot]) {
			s->groups[slot] = id;
			return CV_GROUP_PID + slot;
		}
	}
	return tid;	/* more groups than processes: the task's own */
}

/* @tid as a thread of its process now, to be named at the end */
static uint32_t cv_note_tid(struct cv_state *s, uint32_t tid)
{
	uint32_t pid = cv_pid(s, tid);
	uint64_t key = (uint64_t)pid << 32 | tid;
	struct ct_probe probe = ct_probe(key, s->tid_mask, s->tid_mask + 1);
	uint32_t at;

	if (!tid)
		return 0;
	while (ct_probe_next(&probe, &at)) {
		uint64_t *slot = &s->tids[at];

		if (*slot == key)
			break;
		if (!*slot) {
			*slot = key;
			break;
		}
	}
	return pid;
}

/* the run of the task on @cpu ends at @ts: one complete event */
static void cv_end_run(struct cv_state *s, unsigned int cpu, uint64_t ts)
{
	struct cv_cpu *c = &s->cpus[cpu];
	char name[CT_COMM_LEN + 16];

	if (!c->running || ts < c->since)
		return;
	cv_sep(s);
	fputs("{\"ph\":\"X\",\"name\":", s->out);
	cv_str(s->out, ct_comm_name(&s->names.comms, c->tid, cpu, name, sizeof(name)));
	fprintf(s->out, ",\"pid\":%u,\"tid\":%u,", CV_CPUS_PID, cpu);
	cv_ts(s->out, "ts", c->since);
	fputc(',', s->out);
	cv_ts(s->out, "dur", ts - c->since);
	fprintf(s->out, ",\"args\":{\"tid\":%u}}", c->tid);
}

static void cv_counter(struct cv_state *s, unsigned int cpu, const char *what,
		       uint64_t ts, long long value)
{
	cv_sep(s);
	fprintf(s->out, "{\"ph\":\"C\",\"name\":\"cpu%u %s\",\"pid\":%u,", cpu,
		what, CV_CPUS_PID);
	cv_ts(s->out, "ts", ts);
	fprintf(s->out, ",\"args\":{\"value\":%lld}}", value);
}

static void cv_record(const union ct_record *rec, void *data)
{
	struct cv_state *s = data;
	unsigned int cpu = rec->hdr.cpu;
	const struct ct_cpu_idle *cs = &rec->cpu_idle;	/* and cpu_frequency */

	if (cpu >= CT_MAX_CPUS)
		return;
	s->cpu_seen[cpu] = true;
	switch (rec->hdr.type) {
	case CT_EV_SCHED_SWITCH:
		cv_end_run(s, cpu, ct_ts(rec));
		s->last_switch = ct_ts(rec);
		s->cpus[cpu].running = rec->sched_switch.next_pid != 0;
		s->cpus[cpu].tid = rec->sched_switch.next_pid;
		s->cpus[cpu].since = ct_ts(rec);
		cv_note_tid(s, rec->sched_switch.next_pid);
		cv_note_tid(s, rec->sched_switch.prev_pid);
		break;
	case CT_EV_SCHED_WAKEUP:
	case CT_EV_SCHED_WAKEUP_NEW:
		cv_sep(s);
		fprintf(s->out, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,",
			ct_events[rec->hdr.type].name,
			cv_note_tid(s, rec->wakeup.pid), rec->wakeup.pid);
		cv_ts(s->out, "ts", ct_ts(rec));
		fprintf(s->out, ",\"args\":{\"cpu\":%u,\"target_cpu\":%u}}", cpu,
			rec->wakeup.target_cpu);
		break;
	case CT_EV_TASK_CGROUP:
		/* names learn after this: the task's new process now */
		ct_cgroup_set_task(&s->names.cgroups, rec->task_cgroup.pid,
				   rec->task_cgroup.cgroup_id);
		cv_note_tid(s, rec->task_cgroup.pid);
		break;
	case CT_EV_CPU_IDLE:
		if (cs->cpu_id < CT_MAX_CPUS)
			cv_counter(s, cs->cpu_id, "idle state", ct_ts(cs),
				   cs->state == CT_IDLE_EXIT ? -1 : (long long)cs->state);
		break;
	case CT_EV_CPU_FREQUENCY:
		if (cs->cpu_id < CT_MAX_CPUS)
			cv_counter(s, cs->cpu_id, "frequency kHz", ct_ts(cs), cs->state);
		break;
	default:
		break;
	}
}

static void cv_meta(struct cv_state *s, const char *what, uint32_t pid,
		    uint32_t tid, const char *name)
{
	cv_sep(s);
	fprintf(s->out, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	cv_str(s->out, name);
	fputs("}}", s->out);
}

static void cv_names(struct cv_state *s)
{
	char name[CT_COMM_LEN + 16], group[CT_CGROUP_PATH_LEN + 16];
	uint32_t i;
	unsigned int cpu;

	cv_meta(s, "process_name", CV_CPUS_PID, 0, "CPUs");
	for (cpu = 0; cpu < CT_MAX_CPUS; cpu++) {
		if (!s->cpu_seen[cpu])
			continue;
		snprintf(name, sizeof(name), "CPU %u", cpu);
		cv_meta(s, "thread_name", CV_CPUS_PID, cpu, name);
	}
	for (i = 0; i < CV_GROUPS; i++) {
		const char *path;

		if (!s->groups[i])
			continue;
		path = ct_cgroup_path(&s->names.cgroups, s->groups[i]);
		if (path)
			snprintf(group, sizeof(group), "cgroup %s", *path ? path : "/");
		else
			snprintf(group, sizeof(group), "cgroup id %llu",
				 (unsigned long long)s->groups[i]);
		cv_meta(s, "process_name", CV_GROUP_PID + i, 0, group);
	}
	/* a task of no known group is its own process */
	for (i = 0; i <= s->tid_mask; i++) {
		uint32_t tid = (uint32_t)s->tids[i], pid = (uint32_t)(s->tids[i] >> 32);
		const char *comm;

		if (!tid)
			continue;
		comm = ct_comm_name(&s->names.comms, tid, 0, name, sizeof(name));
		if (pid == tid)
			cv_meta(s, "process_name", tid, tid, comm);
		cv_meta(s, "thread_name", pid, tid, comm);
	}
}

/* The trace file, once the capture opened: not in it, then its head */
static int cv_begin(struct ct_ctf_reader *reader, void *ctx)
{
	struct cv_state *s = ctx;
	const char *path = s->opts->perfetto;

	(void)reader;
	if (ct_output_check(path, s->opts->dir, s->why, sizeof(s->why))) {
		fprintf(stderr, "coretrace convert: %s\n", s->why);
		return s->begin_err = -EINVAL;
	}
	s->out = ct_output_open(path, s->why, sizeof(s->why));
	if (!s->out) {
		s->begin_err = -errno;
		fprintf(stderr, "coretrace convert: %s\n", s->why);
		return s->begin_err;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"coretrace\"},\"traceEvents\":[", s->out);
	return 0;
}

int ct_convert(const struct ct_convert_opts *opts)
{
	struct cv_state *s = calloc(1, sizeof(*s));
	struct ct_ctf_reader reader = { .chunks = NULL };
	struct ct_replay replay = {
		.dir = opts->dir, .who = "coretrace convert", .begin = cv_begin,
	};
	unsigned int cpu;
	int err = -ENOMEM;

	if (s)
		s->tids = calloc(1u << 16, sizeof(*s->tids));
	if (!s || !s->tids || ct_names_init(&s->names, 65536)) {
		fprintf(stderr, "coretrace: out of memory\n");
		goto out;
	}
	s->tid_mask = (1u << 16) - 1;
	s->opts = opts;
	replay.ctx = s;
	replay.out = ct_callback_output(cv_record, s, &s->names);
	err = ct_replay(&replay, &reader);
	if (!s->out) {
		/* not a capture coretrace can read, or no trace file */
		err = s->begin_err ? s->begin_err : -EINVAL;
		goto out;
	}
	/* what could be read is still converted, as report does */
	if (err)
		err = -EINVAL;
	/* runs still going end at the last switch, where knowledge ends */
	for (cpu = 0; cpu < CT_MAX_CPUS; cpu++)
		if (s->cpu_seen[cpu])
			cv_end_run(s, cpu, s->last_switch);
	cv_names(s);
	fputs("\n]}\n", s->out);
	if (ct_close_output(s->out, "coretrace convert", opts->perfetto) && !err)
		err = -EIO;
	if (!err)
		fprintf(stderr, "coretrace convert: %llu records into %llu trace events in %s\n",
			reader.records, (unsigned long long)s->events, opts->perfetto);
out:
	if (s) {
		ct_names_free(&s->names);
		free(s->tids);
	}
	free(s);
	return err ? (err == -EINVAL ? CT_EXIT_USAGE : CT_EXIT_FAILURE) : CT_EXIT_OK;
}

/* --- its options */

enum {
	CT_OPT_PERFETTO = 256,
};

static int ct_set_convert(int id, const char *arg, void *p, FILE *err,
			  const char *cmd)
{
	struct ct_convert_opts *opts = p;

	(void)id;
	(void)err;
	(void)cmd;
	opts->perfetto = arg;
	return 0;
}

static const struct ct_opt ct_convert_opts[] = {
	{ CT_OPT_PERFETTO, "perfetto", "FILE", "the JSON trace to write (required)",
	  ct_set_convert },
	{ 0 },
};

static const struct ct_opt_group ct_convert_groups[] = {
	{ NULL, ct_convert_opts, NULL },
	{ NULL, NULL, NULL },
};

static int ct_convert_finish(void *p, int argc, char **argv, int first,
			     FILE *err)
{
	struct ct_convert_opts *opts = p;

	if (first + 1 != argc || !opts->perfetto) {
		fprintf(err, "coretrace convert: want a capture directory and --perfetto FILE.json\n");
		return -1;
	}
	opts->dir = argv[first];
	return 0;
}

const struct ct_command ct_convert_command = {
	.name = "convert",
	.summary = "write a capture as a Perfetto (Chrome JSON) trace",
	.usage = "DIR --perfetto FILE.json",
	.description =
		"Write a capture as a Chrome/Perfetto JSON trace: a track per\n"
		"CPU with a slice per run of a task, thread names, counters for\n"
		"idle states and frequencies, instants for wakeups. Open it in\n"
		"ui.perfetto.dev or chrome://tracing.\n",
	.groups = ct_convert_groups,
	.permute = true,
	.opts_size = sizeof(struct ct_convert_opts),
	.finish = ct_convert_finish,
};
