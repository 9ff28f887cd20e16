// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "base/options.h"
#include "views/convert.h"
#include "views/timechart.h"

static int ct_parse_format(const char *arg, enum ct_format *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = CT_FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = CT_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

enum {
	CT_OPT_PER_CPU_RINGS = 256,
	CT_OPT_WAKEUP,
	CT_OPT_FLIGHT,
	CT_OPT_CHUNK_SIZE,
	CT_OPT_CHUNK_TIME,
	CT_OPT_MAX_CHUNKS,
	CT_OPT_TRIG_DELAY,
	CT_OPT_TRIG_PID,
	CT_OPT_TRIG_TID,
	CT_OPT_TRIG_IRQ,
	CT_OPT_TRIG_EXEC,
	CT_OPT_TRIG_BEFORE,
	CT_OPT_TRIG_AFTER,
	CT_OPT_TRIG_COOLDOWN,
	CT_OPT_TRIG_MAX,
	CT_OPT_BY,
	CT_OPT_NO_CGROUP_NAMES,
	CT_OPT_PERFETTO,
	CT_OPT_JSON,
	CT_OPT_CSV,
	CT_OPT_HTML,
	CT_OPT_TOP,
	CT_OPT_LATENCY,
	CT_OPT_TIMEHIST,
	CT_OPT_BTF,
	CT_OPT_BTF_FORMATS,
	CT_OPT_LISTEN,
	CT_OPT_METRICS_PATH,
	CT_OPT_MAX_CGROUPS,
};

static int ct_layout_conflict(FILE *err, const char *cmd)
{
	fprintf(err, "coretrace %s: --btf and --btf-from-formats name two layouts; give one\n", cmd);
	return -1;
}

/* --btf, --btf-from-formats: record's, top's and check's */
static int ct_layout_option(int id, const char *arg, struct ct_layout_opts *opts,
			    FILE *err, const char *cmd)
{
	if (id == CT_OPT_BTF_FORMATS) {
		opts->from_formats = true;
		return opts->btf_file ? ct_layout_conflict(err, cmd) : 0;
	}
	if (!*arg) {
		fprintf(err, "coretrace %s: --btf needs a file\n", cmd);
		return -1;
	}
	opts->btf_file = arg;
	return opts->from_formats ? ct_layout_conflict(err, cmd) : 0;
}

#define CT_LAYOUT_OPTS(setter)						\
	{ CT_OPT_BTF, "btf", "FILE", "relocate the programs against this BTF (raw,\n" \
	  "or an ELF file's .BTF; e.g. from pahole or\n"			\
	  "BTFHub) instead of the kernel's", setter },			\
	{ CT_OPT_BTF_FORMATS, "btf-from-formats", NULL,			\
	  "build the records' BTF from the tracepoints'\n"		\
	  "tracefs format files (what a kernel without\n"		\
	  "BTF gets by itself)", setter }

/* --by task|cgroup: what the rows of an overview are */
static int ct_parse_by(const char *arg, bool *by_cgroup, FILE *err,
		       const char *cmd)
{
	if (!strcmp(arg, "task") || !strcmp(arg, "cgroup")) {
		*by_cgroup = arg[0] == 'c';
		return 0;
	}
	fprintf(err, "coretrace %s: --by wants task or cgroup, not '%s'\n",
		cmd, arg);
	return -1;
}

/* --trigger-delay, --trigger-irq: a time from 1 us to 1 h, in ns */
static int ct_trigger_time(const char *arg, uint64_t *ns, FILE *err,
			   const char *what)
{
	double seconds;

	if (!ct_parse_seconds(arg, &seconds) && seconds >= 1e-6 &&
	    seconds <= 3600.0) {
		*ns = (uint64_t)(seconds * 1e9 + 0.5);
		return 0;
	}
	fprintf(err, "coretrace record: invalid %s '%s' (want a time from 1us to 1h, e.g. 20ms, 0.5)\n",
		what, arg);
	return -1;
}

/* --trigger-before/-after/-cooldown: seconds, 0 allowed */
static int ct_trigger_seconds(const char *arg, double *seconds, FILE *err,
			      const char *what)
{
	if (!strcmp(arg, "0")) {
		*seconds = 0;
		return 0;
	}
	if (!ct_parse_seconds(arg, seconds) && *seconds <= 3600.0)
		return 0;
	fprintf(err, "coretrace record: invalid %s '%s' (want seconds from 0 to 3600, e.g. 5, 500ms)\n",
		what, arg);
	return -1;
}

/* The --trigger-* options; 0, or -1 after saying why */
static int ct_trigger_option(int c, const char *arg, struct ct_trigger_opts *t,
			     FILE *err)
{
	bool prefix;

	switch (c) {
	case CT_OPT_TRIG_DELAY:
		return ct_trigger_time(arg, &t->delay_ns, err, "trigger delay");
	case CT_OPT_TRIG_IRQ:
		return ct_trigger_time(arg, &t->irq_ns, err, "trigger interrupt time");
	case CT_OPT_TRIG_PID:
	case CT_OPT_TRIG_TID:
		if (!ct_parse_pid(arg, c == CT_OPT_TRIG_PID ? &t->pid : &t->tid))
			return 0;
		fprintf(err, "coretrace record: invalid %s '%s' (want a number from 1 to %d)\n",
			c == CT_OPT_TRIG_PID ? "trigger pid" : "trigger tid",
			arg, CT_PID_MAX);
		return -1;
	case CT_OPT_TRIG_EXEC:
		if (!ct_parse_comm(arg, t->exec, &t->exec_len, &prefix) && !prefix)
			return 0;
		fprintf(err, "coretrace record: invalid program name '%s' (want 1 to 15 characters, as the task is named)\n",
			arg);
		return -1;
	case CT_OPT_TRIG_BEFORE:
		return ct_trigger_seconds(arg, &t->before, err, "time before the trigger");
	case CT_OPT_TRIG_AFTER:
		return ct_trigger_seconds(arg, &t->after, err, "time after the trigger");
	case CT_OPT_TRIG_COOLDOWN:
		return ct_trigger_seconds(arg, &t->cooldown, err, "trigger cooldown");
	default:
		if (!ct_parse_count(arg, &t->max))
			return 0;
		fprintf(err, "coretrace record: invalid trigger count '%s' (want a number, 0 for no limit)\n",
			arg);
		return -1;
	}
}

#define CT_PART_MIN_BYTES	(256ull << 10)	/* a flight recorder, a chunk */
#define CT_PART_MAX_BYTES	(1ull << 40)

/* --flight-recorder, --chunk-size: 256K to 1T */
static int ct_part_size(const char *arg, uint64_t *bytes, FILE *err,
			const char *cmd, const char *what)
{
	if (!ct_parse_size(arg, bytes) && *bytes >= CT_PART_MIN_BYTES &&
	    *bytes <= CT_PART_MAX_BYTES)
		return 0;
	fprintf(err, "coretrace %s: invalid %s '%s' (want 256K to 1T, e.g. 64M)\n",
		cmd, what, arg);
	return -1;
}

/* One option of `record`; returns 0 or prints why it is wrong. */
static int ct_record_option(int c, const char *arg, struct ct_record_opts *opts,
			    FILE *err, const char *cmd)
{
	uint64_t bytes;

	switch (c) {
	case 'd':
		if (!ct_parse_seconds(arg, &opts->duration))
			return 0;
		fprintf(err, "coretrace %s: invalid duration '%s' (want seconds, e.g. 5, 0.5, 200ms)\n", cmd,
			arg);
		return -1;
	case 'b':
		if (!ct_parse_size(arg, &bytes) &&
		    !ct_ring_size(bytes, &opts->buffer_size))
			return 0;
		fprintf(err, "coretrace %s: invalid buffer size '%s' (want 4K to 1G, e.g. 256K, 4M)\n", cmd,
			arg);
		return -1;
	case 'f':
		if (!ct_parse_format(arg, &opts->format))
			return 0;
		fprintf(err, "coretrace %s: unknown format '%s' (want text or json)\n", cmd,
			arg);
		return -1;
	case 'e':
		return ct_parse_events(arg, &opts->events, err) ? -1 : 0;
	case 'p':
	case 't':
		if (!ct_parse_pid(arg, c == 'p' ? &opts->pid : &opts->tid))
			return 0;
		fprintf(err, "coretrace %s: invalid %s '%s' (want a number from 1 to %d)\n", cmd,
			c == 'p' ? "pid" : "tid", arg, CT_PID_MAX);
		return -1;
	case 'c':
		if (!ct_parse_comm(arg, opts->comm, &opts->comm_len,
				   &opts->comm_prefix))
			return 0;
		fprintf(err, "coretrace %s: invalid task name '%s' (want 1 to 15 characters, optionally ending in '*')\n", cmd,
			arg);
		return -1;
	case 'C':
		if (!ct_parse_cpus(arg, opts->cpus)) {
			opts->cpus_set = true;
			return 0;
		}
		fprintf(err, "coretrace %s: invalid CPU list '%s' (want e.g. 0 or 0,2-3, CPUs below %d)\n", cmd,
			arg, CT_MAX_CPUS);
		return -1;
	case 'G':
		if (opts->ncgroups == CT_MAX_CGROUPS) {
			fprintf(err, "coretrace %s: -G is given more than %d times\n",
				cmd, CT_MAX_CGROUPS);
			return -1;
		}
		if (ct_cgroup_resolve(arg, &opts->cgroups[opts->ncgroups],
				      err, cmd))
			return -1;
		opts->ncgroups++;
		return 0;
	case 'o':
		if (!*arg) {
			fprintf(err, "coretrace %s: -o needs a directory\n", cmd);
			return -1;
		}
		opts->output_dir = arg;
		return 0;
	case CT_OPT_PER_CPU_RINGS:
		opts->per_cpu_rings = true;
		return 0;
	case CT_OPT_BTF:
	case CT_OPT_BTF_FORMATS:
		return ct_layout_option(c, arg, &opts->layout, err, cmd);
	case CT_OPT_NO_CGROUP_NAMES:
		opts->no_cgroup_names = true;
		return 0;
	case CT_OPT_WAKEUP:
		if (!strcmp(arg, "batch") || !strcmp(arg, "always")) {
			opts->wakeup_always = !strcmp(arg, "always");
			return 0;
		}
		fprintf(err, "coretrace %s: unknown wakeup mode '%s' (want batch or always)\n", cmd,
			arg);
		return -1;
	case CT_OPT_FLIGHT:
		return ct_part_size(arg, &opts->flight_bytes, err, cmd,
				    "flight recorder size");
	case CT_OPT_CHUNK_SIZE:
		return ct_part_size(arg, &opts->chunk_bytes, err, cmd,
				    "chunk size");
	case CT_OPT_CHUNK_TIME:
		if (!ct_parse_seconds(arg, &opts->chunk_time))
			return 0;
		fprintf(err, "coretrace %s: invalid chunk time '%s' (want seconds, e.g. 30, 10m)\n",
			cmd, arg);
		return -1;
	case CT_OPT_MAX_CHUNKS:
		if (!ct_parse_count(arg, &opts->max_chunks) && opts->max_chunks)
			return 0;
		fprintf(err, "coretrace %s: invalid chunk count '%s' (want a number from 1)\n",
			cmd, arg);
		return -1;
	case CT_OPT_TRIG_DELAY ... CT_OPT_TRIG_MAX:
		return ct_trigger_option(c, arg, &opts->trigger, err);
	case 'v':
		opts->verbose++;
		return 0;
	default:
		return -1;
	}
}

/* Triggers take snapshots: they need a flight recorder */
static int ct_check_triggers(const struct ct_record_opts *opts, FILE *err)
{
	const struct ct_trigger_opts *t = &opts->trigger;

	if (ct_triggers_on(t) && !opts->flight_bytes) {
		fprintf(err, "coretrace record: a trigger takes a snapshot of a flight recorder: add --flight-recorder SIZE and -o DIR\n");
		return -1;
	}
	if ((t->pid || t->tid) && !t->delay_ns) {
		fprintf(err, "coretrace record: --trigger-pid and --trigger-tid narrow --trigger-delay, which is not given\n");
		return -1;
	}
	return 0;
}

/* The always-on options go with -o, and one kind at a time */
static int ct_check_parts(const struct ct_record_opts *opts, FILE *err)
{
	bool chunks = opts->chunk_bytes || opts->chunk_time > 0;

	if ((opts->flight_bytes || chunks || opts->max_chunks) && !opts->output_dir) {
		fprintf(err, "coretrace record: --flight-recorder and the chunk options need -o DIR\n");
		return -1;
	}
	if (opts->flight_bytes && (chunks || opts->max_chunks)) {
		fprintf(err, "coretrace record: --flight-recorder keeps the capture in memory; it does not take the chunk options\n");
		return -1;
	}
	if (opts->max_chunks && !chunks) {
		fprintf(err, "coretrace record: --max-chunks needs --chunk-size or --chunk-time\n");
		return -1;
	}
	return ct_check_triggers(opts, err);
}

/* --- the commands' option tables */

static int ct_set_record(int id, const char *arg, void *opts, FILE *err,
			 const char *cmd)
{
	return ct_record_option(id, arg, opts, err, cmd);
}

/* What to trace and which tasks: record's and top's, defined once */
static const struct ct_opt ct_trace_opts[] = {
	{ 'e', "event", "EVENTS", "events to trace, comma-separated: a name\n"
	  "(sched_switch), group:name, group:* or all\n"
	  "(default: all; see coretrace list)", ct_set_record },
	{ 'p', "pid", "PID", "only events about the threads of process PID",
	  ct_set_record },
	{ 't', "tid", "TID", "only events about thread TID", ct_set_record },
	{ 'c', "comm", "NAME", "only events about tasks named NAME, or whose\n"
	  "name starts with NAME when it ends in '*'", ct_set_record },
	{ 'C', "cpu", "CPUS", "only events on these CPUs (e.g. 0,2-3)",
	  ct_set_record },
	{ 'G', "cgroup", "DIR", "only events about tasks in cgroup v2 group DIR\n"
	  "(e.g. /sys/fs/cgroup/system.slice) or below\n"
	  "it; repeat for more groups (8 at most)", ct_set_record },
	{ CT_OPT_NO_CGROUP_NAMES, "no-cgroup-names", NULL,
	  "do not announce tasks' cgroups and groups'\n"
	  "paths (no --by cgroup views)", ct_set_record },
	{ 0 },
};

#define CT_TRACE_NOTE							\
	"An event is about the task(s) it names (both sides of a switch, the\n" \
	"woken task, the parent and the child of a fork); interrupt, timer,\n" \
	"work and power events are about the task they interrupted.\n"

/* How long, how big, how loud: record's and top's too */
static const struct ct_opt ct_session_opts[] = {
	{ 'd', "duration", "SECONDS", "stop after SECONDS (e.g. 5, 0.5, 200ms, 2m)",
	  ct_set_record },
	{ 'b', "buffer-size", "SIZE", "ring buffer size, e.g. 256K, 16M (default 4M;\n"
	  "rounded up to a power of two)", ct_set_record },
	{ 'v', "verbose", NULL, "counters every second and per event at exit,\n"
	  "and libbpf's log; -vv adds libbpf's debug log", ct_set_record },
	CT_LAYOUT_OPTS(ct_set_record),
	{ 0 },
};

static const struct ct_opt ct_record_output_opts[] = {
	{ 'o', "output", "DIR", "write a CTF 1.8 capture to DIR (read it with\n"
	  "babeltrace2 or Trace Compass) instead of lines", ct_set_record },
	{ 'f', "format", "FORMAT", "text (default) or json, one object per line",
	  ct_set_record },
	{ CT_OPT_PER_CPU_RINGS, "per-cpu-rings", NULL,
	  "one ring per CPU (each of --buffer-size)\n"
	  "instead of one shared ring", ct_set_record },
	{ CT_OPT_WAKEUP, "wakeup", "MODE", "batch (default: drain every 100 ms or when a\n"
	  "ring is a quarter full) or always (wake the\n"
	  "reader for every record)", ct_set_record },
	{ 0 },
};

static const struct ct_opt ct_always_on_opts[] = {
	{ CT_OPT_FLIGHT, "flight-recorder", "SIZE",
	  "keep only the newest SIZE of the capture in\n"
	  "memory (e.g. 64M), overwriting the oldest; a\n"
	  "snapshot writes it to DIR/snapshot-N on SIGUSR1\n"
	  "and at the end", ct_set_record },
	{ CT_OPT_CHUNK_SIZE, "chunk-size", "SIZE",
	  "write DIR/chunk-N, each a capture of at most\n"
	  "SIZE (e.g. 256M), then begin the next", ct_set_record },
	{ CT_OPT_CHUNK_TIME, "chunk-time", "SECONDS",
	  "begin the next chunk after SECONDS (e.g. 10m)", ct_set_record },
	{ CT_OPT_MAX_CHUNKS, "max-chunks", "N",
	  "keep the newest N chunks, removing the oldest\n"
	  "(default: keep all)", ct_set_record },
	{ 0 },
};

static const struct ct_opt ct_trigger_opts[] = {
	{ CT_OPT_TRIG_DELAY, "trigger-delay", "TIME",
	  "a task waited longer than TIME (e.g. 20ms)\n"
	  "from its wakeup or preemption to running", ct_set_record },
	{ CT_OPT_TRIG_PID, "trigger-pid", "PID", "... only a thread of process PID",
	  ct_set_record },
	{ CT_OPT_TRIG_TID, "trigger-tid", "TID", "... only thread TID",
	  ct_set_record },
	{ CT_OPT_TRIG_IRQ, "trigger-irq", "TIME",
	  "an interrupt or softirq ran longer than TIME", ct_set_record },
	{ CT_OPT_TRIG_EXEC, "trigger-exec", "NAME",
	  "a program named NAME (1-15 chars) was exec'd", ct_set_record },
	{ CT_OPT_TRIG_BEFORE, "trigger-before", "SECONDS",
	  "keep SECONDS before the trigger in its\n"
	  "snapshot (default: all the recorder holds)", ct_set_record },
	{ CT_OPT_TRIG_AFTER, "trigger-after", "SECONDS",
	  "go on recording SECONDS after it before\n"
	  "the snapshot is written (default 1, 0: none)", ct_set_record },
	{ CT_OPT_TRIG_COOLDOWN, "trigger-cooldown", "SECONDS",
	  "no trigger sooner than SECONDS after\n"
	  "the last (default 10)", ct_set_record },
	{ CT_OPT_TRIG_MAX, "trigger-max", "N",
	  "at most N triggers (default 10, 0: no limit)", ct_set_record },
	{ 0 },
};

static void ct_record_init(void *p)
{
	struct ct_record_opts *opts = p;

	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->format = CT_FORMAT_TEXT;
	opts->events = ct_all_events();
	opts->trigger.after = 1.0;
	opts->trigger.cooldown = 10.0;
	opts->trigger.max = 10;
}

static int ct_record_finish(void *opts, int argc, char **argv, int first,
			    FILE *err)
{
	if (first < argc) {
		fprintf(err, "coretrace record: unexpected argument '%s'\n",
			argv[first]);
		return -1;
	}
	return ct_check_parts(opts, err);
}

static const struct ct_opt_group ct_record_groups[] = {
	{ "what to trace:", ct_trace_opts, CT_TRACE_NOTE },
	{ "output and buffering:", ct_record_output_opts, NULL },
	{ NULL, ct_session_opts, NULL },
	{ "always on (with -o DIR, which may exist and hold earlier parts):",
	  ct_always_on_opts, NULL },
	{ "triggers (with --flight-recorder; decided in the kernel, each takes a\n"
	  "snapshot; their events are traced whatever -e says):",
	  ct_trigger_opts, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_record_command = {
	.name = "record",
	.summary = "trace events and print them, one line each",
	.usage = "[options]",
	.description =
		"Trace until Ctrl-C, SIGTERM or the end of --duration, one line per\n"
		"event on stdout, then a summary of records received and lost on\n"
		"stderr. Filters run in the kernel: what they reject never reaches\n"
		"the ring buffer.\n",
	.groups = ct_record_groups,
	.footer =
		"exit status: 0 when tracing ended normally, 1 when it could not start\n"
		"(no privileges, no BTF) or failed, 2 for a bad command line.\n",
	.opts_size = sizeof(struct ct_record_opts),
	.init = ct_record_init,
	.finish = ct_record_finish,
};

int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err)
{
	return ct_parse_command(&ct_record_command, argc, argv, opts, out, err);
}

/* top's own options, then record's for what to trace */
static int ct_set_top(int id, const char *arg, void *p, FILE *err,
		      const char *cmd)
{
	struct ct_record_opts *opts = p;

	switch (id) {
	case 'i':
		if (!ct_parse_seconds(arg, &opts->top_interval) &&
		    opts->top_interval >= 0.1)
			return 0;
		fprintf(err, "coretrace top: invalid interval '%s' (want seconds, at least 0.1)\n",
			arg);
		return -1;
	case 'n':
		if (!ct_parse_count(arg, &opts->top_rows))
			return 0;
		fprintf(err, "coretrace top: -n wants a number of rows, not '%s'\n",
			arg);
		return -1;
	default:
		return ct_parse_by(arg, &opts->top_by_cgroup, err, cmd);
	}
}

static const struct ct_opt ct_top_opts[] = {
	{ 'i', "interval", "SECONDS", "refresh period (default 2)", ct_set_top },
	{ 'n', "rows", "N", "rows shown (default: what fits, or 30)", ct_set_top },
	{ CT_OPT_BY, "by", "cgroup", "a row per cgroup: CPU time, switches, wakeups,\n"
	  "scheduling delay (--by task: the default rows)", ct_set_top },
	{ 0 },
};

static void ct_top_init(void *p)
{
	struct ct_record_opts *opts = p;

	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->events = ct_all_events();
	opts->top_interval = 2.0;
}

static const struct ct_opt_group ct_top_groups[] = {
	{ NULL, ct_top_opts, NULL },
	{ "what to trace:", ct_trace_opts, NULL },
	{ NULL, ct_session_opts, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_top_command = {
	.name = "top",
	.summary = "a live overview: CPU use and wakeups, idle states",
	.usage = "[options]",
	.description =
		"A live overview, refreshed every interval: what used the CPUs (ms\n"
		"per second) and woke them (events per second), by process,\n"
		"interrupt, softirq, timer and work function, then idle-state and\n"
		"frequency residency per CPU. q quits. When stdout is not a\n"
		"terminal, one plain report is printed per interval.\n",
	.groups = ct_top_groups,
	.opts_size = sizeof(struct ct_record_opts),
	.init = ct_top_init,
};

int ct_parse_top_args(int argc, char **argv, struct ct_record_opts *opts,
		      FILE *out, FILE *err)
{
	return ct_parse_command(&ct_top_command, argc, argv, opts, out, err);
}

static int ct_set_timechart(int id, const char *arg, void *p, FILE *err,
			    const char *cmd)
{
	struct ct_timechart_opts *opts = p;

	switch (id) {
	case 'o':
		opts->output = arg;
		return 0;
	case 'n':
		if (!ct_parse_count(arg, &opts->tasks) && opts->tasks <= 1000)
			return 0;
		fprintf(err, "coretrace timechart: invalid task count '%s' (want 0 to 1000)\n",
			arg);
		return -1;
	case 'w':
		if (!ct_parse_count(arg, &opts->width) && opts->width >= 100 &&
		    opts->width <= 100000)
			return 0;
		fprintf(err, "coretrace timechart: invalid width '%s' (want 100 to 100000 pixels)\n",
			arg);
		return -1;
	default:
		return ct_parse_by(arg, &opts->by_cgroup, err, cmd);
	}
}

static const struct ct_opt ct_timechart_opts[] = {
	{ 'o', "output", "FILE", "the SVG to write (required)", ct_set_timechart },
	{ 'n', "tasks", "N", "task lanes (default 20)", ct_set_timechart },
	{ 'w', "width", "PIXELS", "width of the time axis (default 1600)",
	  ct_set_timechart },
	{ CT_OPT_BY, "by", "cgroup", "CPU lanes coloured by the cgroup of the task\n"
	  "that ran (--by task: a colour per task)", ct_set_timechart },
	{ 0 },
};

static const struct ct_opt_group ct_timechart_groups[] = {
	{ NULL, ct_timechart_opts, NULL },
	{ NULL, NULL, NULL },
};

static void ct_timechart_init(void *p)
{
	struct ct_timechart_opts *opts = p;

	opts->tasks = 20;
	opts->width = 1600;
}

static int ct_timechart_finish(void *p, int argc, char **argv, int first,
			       FILE *err)
{
	struct ct_timechart_opts *opts = p;

	if (first + 1 != argc || !opts->output) {
		fprintf(err, "coretrace timechart: want a capture directory and -o FILE.svg (see coretrace timechart --help)\n");
		return -1;
	}
	opts->dir = argv[first];
	return 0;
}

const struct ct_command ct_timechart_command = {
	.name = "timechart",
	.summary = "draw a capture as an SVG timeline",
	.usage = "DIR -o FILE.svg [-n TASKS] [-w PIXELS] [--by cgroup]",
	.description =
		"Draw a capture as an SVG, like perf timechart: a lane per CPU (the\n"
		"task that ran, or idle), a lane per task for the busiest ones\n"
		"(running, runnable, sleeping), a time axis and a legend.\n",
	.groups = ct_timechart_groups,
	.permute = true,
	.opts_size = sizeof(struct ct_timechart_opts),
	.init = ct_timechart_init,
	.finish = ct_timechart_finish,
};

int ct_parse_timechart_args(int argc, char **argv, struct ct_timechart_opts *opts,
			    FILE *out, FILE *err)
{
	return ct_parse_command(&ct_timechart_command, argc, argv, opts, out, err);
}

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

int ct_parse_convert_args(int argc, char **argv, struct ct_convert_opts *opts,
			  FILE *out, FILE *err)
{
	return ct_parse_command(&ct_convert_command, argc, argv, opts, out, err);
}

static int ct_set_list(int id, const char *arg, void *p, FILE *err,
		       const char *cmd)
{
	struct ct_list_opts *opts = p;

	(void)id;
	(void)arg;
	(void)err;
	(void)cmd;
	opts->verbose++;
	return 0;
}

static const struct ct_opt ct_list_opts_table[] = {
	{ 'v', "verbose", NULL, "each record's size too, in the record and in\n"
	  "the ring buffer (with the ring's 8-byte header)", ct_set_list },
	{ 0 },
};

static const struct ct_opt_group ct_list_groups[] = {
	{ NULL, ct_list_opts_table, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_list_command = {
	.name = "list",
	.summary = "list the events, whether this kernel has them, their size",
	.usage = "[-v]",
	.description =
		"List every event coretrace can trace, its tracepoint, and whether\n"
		"the running kernel has it.\n",
	.groups = ct_list_groups,
	.opts_size = sizeof(struct ct_list_opts),
};

static int ct_set_serve(int id, const char *arg, void *p, FILE *err,
			const char *cmd)
{
	struct ct_serve_opts *opts = p;

	switch (id) {
	case CT_OPT_LISTEN:
		opts->listen = arg;
		return 0;
	case CT_OPT_METRICS_PATH:
		opts->path = arg;
		if (arg[0] == '/' && strlen(arg) < 200 && !strpbrk(arg, " ?#"))
			return 0;
		fprintf(err, "coretrace %s: --web.telemetry-path wants a path such as /metrics, not '%s'\n",
			cmd, arg);
		return -1;
	case CT_OPT_MAX_CGROUPS:
		if (!ct_parse_count(arg, &opts->max_cgroups) &&
		    opts->max_cgroups >= 1 && opts->max_cgroups <= 65536)
			return 0;
		fprintf(err, "coretrace %s: --max-cgroups wants a number from 1 to 65536, not '%s'\n",
			cmd, arg);
		return -1;
	case 'd':
		if (!ct_parse_seconds(arg, &opts->duration))
			return 0;
		fprintf(err, "coretrace %s: invalid duration '%s'\n", cmd, arg);
		return -1;
	case 'v':
		opts->verbose++;
		return 0;
	default:
		return ct_layout_option(id, arg, &opts->layout, err, cmd);
	}
}

static const struct ct_opt ct_serve_opts_table[] = {
	{ CT_OPT_LISTEN, "web.listen-address", "ADDR:PORT",
	  "where to serve (default " CT_SERVE_LISTEN ": every address;\n"
	  "127.0.0.1:9476 for this machine only)", ct_set_serve },
	{ CT_OPT_METRICS_PATH, "web.telemetry-path", "PATH",
	  "the metrics' path (default " CT_SERVE_PATH ")", ct_set_serve },
	{ CT_OPT_MAX_CGROUPS, "max-cgroups", "N",
	  "groups with series of their own (default 256); the\n"
	  "others add up in cgroup=\"(folded)\"", ct_set_serve },
	{ 'd', "duration", "SECONDS", "stop after SECONDS", ct_set_serve },
	{ 'v', "verbose", NULL, "each request on stderr; -vv: libbpf's log too",
	  ct_set_serve },
	CT_LAYOUT_OPTS(ct_set_serve),
	{ 0 },
};

static const struct ct_opt_group ct_serve_groups[] = {
	{ NULL, ct_serve_opts_table, NULL },
	{ NULL, NULL, NULL },
};

static void ct_serve_init(void *p)
{
	struct ct_serve_opts *opts = p;

	opts->listen = CT_SERVE_LISTEN;
	opts->path = CT_SERVE_PATH;
	opts->max_cgroups = CT_SERVE_MAX_CGROUPS;
}

const struct ct_command ct_serve_command = {
	.name = "serve",
	.summary = "in-kernel summaries served to Prometheus (OpenMetrics)",
	.usage = "[--web.listen-address ADDR:PORT] [options]",
	.description =
		"Run the same tracepoint programs, adding up in BPF maps instead of\n"
		"writing records, and serve the sums over HTTP for Prometheus to\n"
		"scrape: scheduling delay histograms (log2 microseconds), overall and\n"
		"per cgroup; CPU time, switches, wakeups and migrations per cgroup;\n"
		"time per CPU in each idle state; time in each interrupt and softirq;\n"
		"coretrace's own counters. The text format is OpenMetrics when the\n"
		"scraper asks for it (Accept), Prometheus' 0.0.4 otherwise.\n",
	.groups = ct_serve_groups,
	.opts_size = sizeof(struct ct_serve_opts),
	.init = ct_serve_init,
};

int ct_parse_list_args(int argc, char **argv, struct ct_list_opts *opts,
		       FILE *out, FILE *err)
{
	return ct_parse_command(&ct_list_command, argc, argv, opts, out, err);
}

static int ct_set_check(int id, const char *arg, void *p, FILE *err,
			const char *cmd)
{
	struct ct_check_opts *opts = p;

	if (id != CT_OPT_JSON)
		return ct_layout_option(id, arg, &opts->layout, err, cmd);
	opts->json = true;
	return 0;
}

static const struct ct_opt ct_check_opts_table[] = {
	{ CT_OPT_JSON, "json", NULL, "the same as one JSON document", ct_set_check },
	CT_LAYOUT_OPTS(ct_set_check),
	{ 0 },
};

static const struct ct_opt_group ct_check_groups[] = {
	{ NULL, ct_check_opts_table, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_check_command = {
	.name = "check",
	.summary = "will coretrace work here? load every program, compare\n"
		   "every field it reads with BTF and the tracefs format",
	.usage = "[--json]",
	.description =
		"Load each BPF program on its own and report, for each: its\n"
		"tracepoint and whether this kernel has it, whether the verifier\n"
		"accepted it, the instructions it verified, its JIT-ed size and its\n"
		"load time; and for every field it reads: the offset libbpf\n"
		"relocated it to, its offset and size in the kernel's BTF, and its\n"
		"offset and size in the tracefs format file. Any disagreement or\n"
		"rejected program is named on stderr and makes the exit status 1.\n",
	.groups = ct_check_groups,
	.opts_size = sizeof(struct ct_check_opts),
};

int ct_parse_check_args(int argc, char **argv, struct ct_check_opts *opts,
			FILE *out, FILE *err)
{
	return ct_parse_command(&ct_check_command, argc, argv, opts, out, err);
}

static int ct_parse_report_format(const char *arg, enum ct_report_out *out)
{
	static const char *const names[] = { "text", "json", "csv", "html" };
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			*out = (enum ct_report_out)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* one report option; 0, or -1 after a message */
static int ct_report_option(int c, const char *arg, struct ct_report_opts *opts,
			    FILE *err)
{
	static const char *const view_names[] = {
		[CT_VIEW_TOP] = "--top", [CT_VIEW_LATENCY] = "--latency",
		[CT_VIEW_TIMEHIST] = "--timehist",
	};
	enum ct_report_view view;

	switch (c) {
	case CT_OPT_TOP:
	case CT_OPT_LATENCY:
	case CT_OPT_TIMEHIST:
		view = c == CT_OPT_TOP ? CT_VIEW_TOP :
		       c == CT_OPT_LATENCY ? CT_VIEW_LATENCY : CT_VIEW_TIMEHIST;
		if (opts->view != CT_VIEW_RECORDS && opts->view != view) {
			fprintf(err, "coretrace report: %s and %s are two views: pick one\n",
				view_names[opts->view], view_names[view]);
			return -1;
		}
		opts->view = view;
		return 0;
	case CT_OPT_JSON:
	case CT_OPT_CSV:
	case CT_OPT_HTML:
		opts->out = c == CT_OPT_JSON ? CT_REPORT_JSON :
			    c == CT_OPT_CSV ? CT_REPORT_CSV : CT_REPORT_HTML;
		return 0;
	case 'f':
		if (!ct_parse_report_format(arg, &opts->out))
			return 0;
		fprintf(err, "coretrace report: unknown format '%s' (want text, json, csv or html)\n",
			arg);
		return -1;
	case 'n':
		opts->rows_set = true;
		if (!ct_parse_count(arg, &opts->rows))
			return 0;
		fprintf(err, "coretrace report: -n wants a number of rows, not '%s'\n",
			arg);
		return -1;
	case CT_OPT_BY:
		opts->by_set = true;
		return ct_parse_by(arg, &opts->by_cgroup, err, "report");
	}
	return -1;
}

static int ct_set_report(int id, const char *arg, void *opts, FILE *err,
			 const char *cmd)
{
	(void)cmd;
	return ct_report_option(id, arg, opts, err);
}

static const struct ct_opt ct_report_views[] = {
	{ CT_OPT_TOP, "top", NULL, "what used the CPUs and woke them (ms/s,\n"
	  "events/s) per process, interrupt, softirq,\n"
	  "timer and work function; C-states, frequencies", ct_set_report },
	{ CT_OPT_LATENCY, "latency", NULL, "per task: runtime, switches, average and\n"
	  "maximum scheduling delay (perf sched latency)", ct_set_report },
	{ CT_OPT_TIMEHIST, "timehist", NULL, "a line per run of a task: wait time,\n"
	  "scheduling delay, run time (perf sched timehist)", ct_set_report },
	{ CT_OPT_BY, "by", "cgroup", "--top and --latency: a row per cgroup v2 group\n"
	  "(CPU time, switches, wakeups, scheduling delay\n"
	  "and where its maximum was); --by task: per task", ct_set_report },
	{ 'f', "format", "FORMAT", "text (default), json; csv and html for --top",
	  ct_set_report },
	{ CT_OPT_JSON, "json", NULL, "the same as --format json", ct_set_report },
	{ CT_OPT_CSV, "csv", NULL, "the same as --format csv", ct_set_report },
	{ CT_OPT_HTML, "html", NULL, "the same as --format html", ct_set_report },
	{ 'n', "rows", "N", "--top: the N busiest rows (default 20, 0: all)",
	  ct_set_report },
	{ 0 },
};

static const struct ct_opt_group ct_report_groups[] = {
	{ NULL, ct_report_views, NULL },
	{ NULL, NULL, NULL },
};

static void ct_report_init(void *p)
{
	struct ct_report_opts *opts = p;

	opts->rows = CT_REPORT_TOP_ROWS;
}

static int ct_report_finish(void *p, int argc, char **argv, int first,
			    FILE *err)
{
	struct ct_report_opts *opts = p;

	if (opts->out >= CT_REPORT_CSV && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: csv and html are for --top\n");
		return -1;
	}
	if (opts->rows_set && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: -n is for --top\n");
		return -1;
	}
	if (opts->by_set && opts->view != CT_VIEW_TOP &&
	    opts->view != CT_VIEW_LATENCY) {
		fprintf(err, "coretrace report: --by is for --top and --latency\n");
		return -1;
	}
	if (first + 1 != argc) {
		fprintf(err, "coretrace report: want one capture directory (see coretrace report --help)\n");
		return -1;
	}
	opts->dir = argv[first];
	return 0;
}

const struct ct_command ct_report_command = {
	.name = "report",
	.summary = "read a capture written by record -o",
	.usage = "DIR [--top|--latency|--timehist] [--by cgroup]\n"
		 "                           [--json|--csv|--html]",
	.description =
		"Read a CTF capture written by coretrace record -o DIR. Without a\n"
		"view, print every record as record prints them live. A capture that\n"
		"does not read cleanly is named with the file and offset, exit 2.\n",
	.groups = ct_report_groups,
	.permute = true,
	.opts_size = sizeof(struct ct_report_opts),
	.init = ct_report_init,
	.finish = ct_report_finish,
};

int ct_parse_report_args(int argc, char **argv, struct ct_report_opts *opts,
			 FILE *out, FILE *err)
{
	return ct_parse_command(&ct_report_command, argc, argv, opts, out, err);
}

static const struct ct_opt_group ct_no_groups[] = {
	{ NULL, NULL, NULL },
};

const struct ct_command ct_version_command = {
	.name = "version",
	.summary = "print the version, record ABI and libbpf versions",
	.usage = "",
	.description =
		"Print coretrace's version, its record ABI version (captures carry\n"
		"it) and the version of libbpf it was built with.\n",
	.groups = ct_no_groups,
	.opts_size = 0,
};

int ct_parse_version_args(int argc, char **argv, FILE *out, FILE *err)
{
	char none;

	return ct_parse_command(&ct_version_command, argc, argv, &none, out, err);
}
