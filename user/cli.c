// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "convert.h"
#include "timechart.h"

void ct_usage(FILE *out)
{
	fputs("usage: coretrace <command> [options]\n"
	      "\n"
	      "A low-overhead scheduler, power, interrupt and timer tracer. CO-RE\n"
	      "BPF programs read the kernel's tracepoints through offsets relocated\n"
	      "against the running kernel's BTF, so one binary works on every\n"
	      "kernel with BTF.\n"
	      "\n"
	      "commands:\n"
	      "  record     trace events and print them, one line each\n"
	      "  list       list the events, whether this kernel has them, their size\n"
	      "  top        a live overview: CPU use and wakeups, idle states\n"
	      "  report     read a capture written by record -o\n"
	      "  timechart  draw a capture as an SVG timeline\n"
	      "  convert    write a capture as a Perfetto (Chrome JSON) trace\n"
	      "  check      will coretrace work here? load every program, compare\n"
	      "             every field it reads with BTF and the tracefs format\n"
	      "  version    print the version, record ABI and libbpf versions\n"
	      "  help       show this help\n"
	      "\n"
	      "'coretrace <command> --help' shows a command's options.\n",
	      out);
}

static void ct_record_usage(FILE *out)
{
	fputs("usage: coretrace record [options]\n"
	      "\n"
	      "Trace until Ctrl-C, SIGTERM or the end of --duration, one line per\n"
	      "event on stdout, then a summary of records received and lost on\n"
	      "stderr. Filters run in the kernel: what they reject never reaches\n"
	      "the ring buffer.\n"
	      "\n"
	      "what to trace:\n"
	      "  -e, --event EVENTS       events to trace, comma-separated: a name\n"
	      "                           (sched_switch), group:name, group:* or all\n"
	      "                           (default: all; see coretrace list)\n"
	      "  -p, --pid PID            only events about the threads of process PID\n"
	      "  -t, --tid TID            only events about thread TID\n"
	      "  -c, --comm NAME          only events about tasks named NAME, or whose\n"
	      "                           name starts with NAME when it ends in '*'\n"
	      "  -C, --cpu CPUS           only events on these CPUs (e.g. 0,2-3)\n"
	      "  -G, --cgroup DIR         only events about tasks in cgroup v2 group DIR\n"
	      "                           (e.g. /sys/fs/cgroup/system.slice) or below\n"
	      "                           it; repeat for more groups (8 at most)\n"
	      "      --no-cgroup-names    do not announce tasks' cgroups and groups'\n"
	      "                           paths (no --by cgroup views of the capture)\n"
	      "\n"
	      "An event is about the task(s) it names (both sides of a switch, the\n"
	      "woken task, the parent and the child of a fork); interrupt, timer,\n"
	      "work and power events are about the task they interrupted.\n"
	      "\n"
	      "output and buffering:\n"
	      "  -o, --output DIR         write a CTF 1.8 capture to DIR (read it with\n"
	      "                           babeltrace2 or Trace Compass) instead of lines\n"
	      "  -d, --duration SECONDS   stop after SECONDS (e.g. 5, 0.5, 200ms, 2m)\n"
	      "  -f, --format FORMAT      text (default) or json, one object per line\n"
	      "  -b, --buffer-size SIZE   ring buffer size, e.g. 256K, 16M (default 4M;\n"
	      "                           rounded up to a power of two)\n"
	      "      --per-cpu-rings      one ring per CPU (each of --buffer-size)\n"
	      "                           instead of one shared ring\n"
	      "      --wakeup MODE        batch (default: drain every 100 ms or when a\n"
	      "                           ring is a quarter full) or always (wake the\n"
	      "                           reader for every record)\n"
	      "  -v, --verbose            counters every second and per event at exit,\n"
	      "                           and libbpf's log; -vv adds libbpf's debug log\n"
	      "  -h, --help               show this help\n"
	      "\n"
	      "always on (with -o DIR, which may exist and hold earlier parts):\n"
	      "      --flight-recorder SIZE  keep only the newest SIZE of the capture in\n"
	      "                           memory (e.g. 64M), overwriting the oldest; a\n"
	      "                           snapshot writes it to DIR/snapshot-N on SIGUSR1\n"
	      "                           and at the end\n"
	      "      --chunk-size SIZE    write DIR/chunk-N, each a capture of at most\n"
	      "                           SIZE (e.g. 256M), then begin the next\n"
	      "      --chunk-time SECONDS begin the next chunk after SECONDS (e.g. 10m)\n"
	      "      --max-chunks N       keep the newest N chunks, removing the oldest\n"
	      "                           (default: keep all)\n"
	      "\n"
	      "triggers (with --flight-recorder; decided in the kernel, each takes a\n"
	      "snapshot; their events are traced whatever -e says):\n"
	      "      --trigger-delay TIME a task waited longer than TIME (e.g. 20ms)\n"
	      "                           from its wakeup or preemption to running\n"
	      "      --trigger-pid PID    ... only a thread of process PID\n"
	      "      --trigger-tid TID    ... only thread TID\n"
	      "      --trigger-irq TIME   an interrupt or softirq ran longer than TIME\n"
	      "      --trigger-exec NAME  a program named NAME (1-15 chars) was exec'd\n"
	      "      --trigger-before SECONDS  keep SECONDS before the trigger in its\n"
	      "                           snapshot (default: all the recorder holds)\n"
	      "      --trigger-after SECONDS   go on recording SECONDS after it before\n"
	      "                           the snapshot is written (default 1, 0: none)\n"
	      "      --trigger-cooldown SECONDS  no trigger sooner than SECONDS after\n"
	      "                           the last (default 10)\n"
	      "      --trigger-max N      at most N triggers (default 10, 0: no limit)\n"
	      "\n"
	      "exit status: 0 when tracing ended normally, 1 when it could not start\n"
	      "(no privileges, no BTF) or failed, 2 for a bad command line.\n",
	      out);
}

static void ct_list_usage(FILE *out)
{
	fputs("usage: coretrace list [-v]\n"
	      "\n"
	      "List every event coretrace can trace, its tracepoint, and whether\n"
	      "the running kernel has it. -v adds each record's size, in the\n"
	      "record and in the ring buffer (with the ring's 8-byte header).\n",
	      out);
}

static void ct_check_usage(FILE *out)
{
	fputs("usage: coretrace check [--json]\n"
	      "\n"
	      "Load each BPF program on its own and report, for each: its\n"
	      "tracepoint and whether this kernel has it, whether the verifier\n"
	      "accepted it, the instructions it verified, its JIT-ed size and its\n"
	      "load time; and for every field it reads: the offset libbpf\n"
	      "relocated it to, its offset and size in the kernel's BTF, and its\n"
	      "offset and size in the tracefs format file. Any disagreement or\n"
	      "rejected program is named on stderr and makes the exit status 1.\n"
	      "\n"
	      "  --json    the same as one JSON document\n",
	      out);
}

static void ct_version_usage(FILE *out)
{
	fputs("usage: coretrace version\n"
	      "\n"
	      "Print coretrace's version, its record ABI version (captures carry\n"
	      "it) and the version of libbpf it was built with.\n",
	      out);
}

int ct_parse_seconds(const char *arg, double *seconds)
{
	double value, scale = 1.0;
	char *end;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		scale = 0.001;
	else if (!strcmp(end, "us"))
		scale = 0.000001;
	else if (!strcmp(end, "m"))
		scale = 60.0;
	else if (*end && strcmp(end, "s"))
		return -EINVAL;
	value *= scale;
	if (!isfinite(value) || value <= 0.0 || value > 86400.0)
		return -ERANGE;
	*seconds = value;
	return 0;
}

int ct_parse_size(const char *arg, uint64_t *bytes)
{
	unsigned long long value;
	unsigned int shift = 0;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	value = strtoull(arg, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -EINVAL;
	if (value > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes = (uint64_t)value << shift;
	return 0;
}

int ct_ring_size(uint64_t requested, uint32_t *size)
{
	uint64_t ring = CT_MIN_BUFFER_SIZE;

	if (requested == 0 || requested > CT_MAX_BUFFER_SIZE)
		return -ERANGE;
	while (ring < requested)
		ring <<= 1;
	*size = (uint32_t)ring;
	return 0;
}

uint64_t ct_all_events(void)
{
	uint64_t mask = 0;
	int i;

	for (i = 0; i < CT_EV_MAX; i++)
		if (ct_events[i].tp_name[0])
			mask |= 1ull << i;
	return mask;
}

/* one item of -e: "name", "group:name", "group:*", "*" or "all" */
static uint64_t ct_match_event(const char *item, size_t len)
{
	const char *colon = memchr(item, ':', len);
	uint64_t mask = 0;
	int i;

	if ((len == 1 && item[0] == '*') || (len == 3 && !strncmp(item, "all", 3)))
		return ct_all_events();
	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *d = &ct_events[i];
		size_t cat_len;

		if (!d->tp_name[0])
			continue;
		if (!colon) {
			if (strlen(d->name) == len && !strncmp(d->name, item, len))
				mask |= 1ull << i;
			continue;
		}
		cat_len = (size_t)(colon - item);
		if (strlen(d->tp_category) != cat_len ||
		    strncmp(d->tp_category, item, cat_len))
			continue;
		if ((len - cat_len - 1 == 1 && colon[1] == '*') ||
		    (strlen(d->tp_name) == len - cat_len - 1 &&
		     !strncmp(d->tp_name, colon + 1, len - cat_len - 1)))
			mask |= 1ull << i;
	}
	return mask;
}

static void ct_list_valid_events(FILE *err)
{
	const char *sep = "";
	int i;

	fputs("valid events are all, GROUP:* and", err);
	for (i = 0; i < CT_EV_MAX; i++) {
		if (!ct_events[i].tp_name[0])
			continue;
		fprintf(err, "%s %s:%s", sep, ct_events[i].tp_category,
			ct_events[i].tp_name);
		sep = ",";
	}
	fputs("\n", err);
}

int ct_parse_events(const char *arg, uint64_t *mask, FILE *err)
{
	uint64_t result = 0, one;
	const char *p = arg;

	if (!arg || !*arg) {
		fputs("coretrace record: -e needs at least one event; ", err);
		ct_list_valid_events(err);
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		one = len ? ct_match_event(p, len) : 0;
		if (!one) {
			fprintf(err, "coretrace record: unknown event '%.*s'; ",
				(int)len, p);
			ct_list_valid_events(err);
			return -EINVAL;
		}
		result |= one;
		p += len;
		if (!*p)
			break;
		p++;	/* a comma: another item must follow */
	}
	*mask = result;
	return 0;
}

static int ct_parse_uint(const char **p, unsigned long *value)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*value = strtoul(*p, &end, 10);
	if (errno)
		return -ERANGE;
	*p = end;
	return 0;
}

int ct_parse_count(const char *arg, unsigned int *count)
{
	unsigned long value;
	const char *p = arg;

	if (!arg || ct_parse_uint(&p, &value) || *p || value > UINT_MAX)
		return -EINVAL;
	*count = (unsigned int)value;
	return 0;
}

int ct_parse_cpus(const char *arg, uint8_t *cpus)
{
	uint8_t parsed[CT_MAX_CPUS] = { 0 };
	unsigned long first, last, cpu;
	const char *p = arg;

	if (!arg || !*arg)
		return -EINVAL;
	for (;;) {
		if (ct_parse_uint(&p, &first))
			return -EINVAL;
		last = first;
		if (*p == '-') {
			p++;
			if (ct_parse_uint(&p, &last) || last < first)
				return -EINVAL;
		}
		if (last >= CT_MAX_CPUS)
			return -ERANGE;
		for (cpu = first; cpu <= last; cpu++)
			parsed[cpu] = 1;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	memcpy(cpus, parsed, sizeof(parsed));
	return 0;
}

int ct_parse_pid(const char *arg, uint32_t *pid)
{
	const char *p = arg;
	unsigned long value;

	if (!arg || ct_parse_uint(&p, &value) || *p)
		return -EINVAL;
	if (value == 0 || value > CT_PID_MAX)
		return -ERANGE;
	*pid = (uint32_t)value;
	return 0;
}

int ct_parse_comm(const char *arg, char *comm, uint32_t *len, bool *prefix)
{
	size_t n = arg ? strlen(arg) : 0;
	bool is_prefix = n > 0 && arg[n - 1] == '*';

	if (is_prefix)
		n--;
	if (n == 0 || n >= CT_COMM_LEN || memchr(arg, '*', n))
		return -EINVAL;
	memset(comm, 0, CT_COMM_LEN);
	memcpy(comm, arg, n);
	*len = (uint32_t)n;
	*prefix = is_prefix;
	return 0;
}

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

/* Did getopt_long stop at the long option @word (without "=VALUE")? */
static bool ct_long_option_failed(const char *word, int len, int opt,
				  const struct option *longopts)
{
	if (strncmp(word, "--", 2))
		return false;
	if (!opt)	/* short options always set optopt */
		return true;
	for (; longopts->name; longopts++)
		if ((int)strlen(longopts->name) == len - 2 &&
		    !strncmp(longopts->name, word + 2, (size_t)len - 2))
			return longopts->val == opt;
	return false;
}

/*
 * Name the option getopt stumbled on as it was typed: "--perfetto" for a
 * long one (without any "=VALUE"), "-x" for a short one. getopt_long
 * sets optopt for a known long option given a value it does not take.
 */
static void ct_bad_option(FILE *err, const char *cmd, const char *what,
			  char **argv, int opt, const struct option *longopts)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	int len = (int)strcspn(word, "=");

	if (!ct_long_option_failed(word, len, opt, longopts)) {
		fprintf(err, "coretrace %s: %s '-%c' (see coretrace %s --help)\n",
			cmd, what, opt ? opt : '?', cmd);
		return;
	}
	if (opt && word[len] == '=' && !strcmp(what, "unknown option"))
		what = "option takes no value";
	fprintf(err, "coretrace %s: %s '%.*s' (see coretrace %s --help)\n",
		cmd, what, len, word, cmd);
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
};

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
static int ct_trigger_option(int c, struct ct_trigger_opts *t, FILE *err)
{
	bool prefix;

	switch (c) {
	case CT_OPT_TRIG_DELAY:
		return ct_trigger_time(optarg, &t->delay_ns, err, "trigger delay");
	case CT_OPT_TRIG_IRQ:
		return ct_trigger_time(optarg, &t->irq_ns, err, "trigger interrupt time");
	case CT_OPT_TRIG_PID:
	case CT_OPT_TRIG_TID:
		if (!ct_parse_pid(optarg, c == CT_OPT_TRIG_PID ? &t->pid : &t->tid))
			return 0;
		fprintf(err, "coretrace record: invalid %s '%s' (want a number from 1 to %d)\n",
			c == CT_OPT_TRIG_PID ? "trigger pid" : "trigger tid",
			optarg, CT_PID_MAX);
		return -1;
	case CT_OPT_TRIG_EXEC:
		if (!ct_parse_comm(optarg, t->exec, &t->exec_len, &prefix) && !prefix)
			return 0;
		fprintf(err, "coretrace record: invalid program name '%s' (want 1 to 15 characters, as the task is named)\n",
			optarg);
		return -1;
	case CT_OPT_TRIG_BEFORE:
		return ct_trigger_seconds(optarg, &t->before, err, "time before the trigger");
	case CT_OPT_TRIG_AFTER:
		return ct_trigger_seconds(optarg, &t->after, err, "time after the trigger");
	case CT_OPT_TRIG_COOLDOWN:
		return ct_trigger_seconds(optarg, &t->cooldown, err, "trigger cooldown");
	default:
		if (!ct_parse_count(optarg, &t->max))
			return 0;
		fprintf(err, "coretrace record: invalid trigger count '%s' (want a number, 0 for no limit)\n",
			optarg);
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
static int ct_record_option(int c, struct ct_record_opts *opts, FILE *err,
			    const char *cmd)
{
	uint64_t bytes;

	switch (c) {
	case 'd':
		if (!ct_parse_seconds(optarg, &opts->duration))
			return 0;
		fprintf(err, "coretrace %s: invalid duration '%s' (want seconds, e.g. 5, 0.5, 200ms)\n", cmd,
			optarg);
		return -1;
	case 'b':
		if (!ct_parse_size(optarg, &bytes) &&
		    !ct_ring_size(bytes, &opts->buffer_size))
			return 0;
		fprintf(err, "coretrace %s: invalid buffer size '%s' (want 4K to 1G, e.g. 256K, 4M)\n", cmd,
			optarg);
		return -1;
	case 'f':
		if (!ct_parse_format(optarg, &opts->format))
			return 0;
		fprintf(err, "coretrace %s: unknown format '%s' (want text or json)\n", cmd,
			optarg);
		return -1;
	case 'e':
		return ct_parse_events(optarg, &opts->events, err) ? -1 : 0;
	case 'p':
	case 't':
		if (!ct_parse_pid(optarg, c == 'p' ? &opts->pid : &opts->tid))
			return 0;
		fprintf(err, "coretrace %s: invalid %s '%s' (want a number from 1 to %d)\n", cmd,
			c == 'p' ? "pid" : "tid", optarg, CT_PID_MAX);
		return -1;
	case 'c':
		if (!ct_parse_comm(optarg, opts->comm, &opts->comm_len,
				   &opts->comm_prefix))
			return 0;
		fprintf(err, "coretrace %s: invalid task name '%s' (want 1 to 15 characters, optionally ending in '*')\n", cmd,
			optarg);
		return -1;
	case 'C':
		if (!ct_parse_cpus(optarg, opts->cpus)) {
			opts->cpus_set = true;
			return 0;
		}
		fprintf(err, "coretrace %s: invalid CPU list '%s' (want e.g. 0 or 0,2-3, CPUs below %d)\n", cmd,
			optarg, CT_MAX_CPUS);
		return -1;
	case 'G':
		if (opts->ncgroups == CT_MAX_CGROUPS) {
			fprintf(err, "coretrace %s: -G is given more than %d times\n",
				cmd, CT_MAX_CGROUPS);
			return -1;
		}
		if (ct_cgroup_resolve(optarg, &opts->cgroups[opts->ncgroups],
				      err, cmd))
			return -1;
		opts->ncgroups++;
		return 0;
	case 'o':
		if (!*optarg) {
			fprintf(err, "coretrace %s: -o needs a directory\n", cmd);
			return -1;
		}
		opts->output_dir = optarg;
		return 0;
	case CT_OPT_PER_CPU_RINGS:
		opts->per_cpu_rings = true;
		return 0;
	case CT_OPT_NO_CGROUP_NAMES:
		opts->no_cgroup_names = true;
		return 0;
	case CT_OPT_WAKEUP:
		if (!strcmp(optarg, "batch") || !strcmp(optarg, "always")) {
			opts->wakeup_always = !strcmp(optarg, "always");
			return 0;
		}
		fprintf(err, "coretrace %s: unknown wakeup mode '%s' (want batch or always)\n", cmd,
			optarg);
		return -1;
	case CT_OPT_FLIGHT:
		return ct_part_size(optarg, &opts->flight_bytes, err, cmd,
				    "flight recorder size");
	case CT_OPT_CHUNK_SIZE:
		return ct_part_size(optarg, &opts->chunk_bytes, err, cmd,
				    "chunk size");
	case CT_OPT_CHUNK_TIME:
		if (!ct_parse_seconds(optarg, &opts->chunk_time))
			return 0;
		fprintf(err, "coretrace %s: invalid chunk time '%s' (want seconds, e.g. 30, 10m)\n",
			cmd, optarg);
		return -1;
	case CT_OPT_MAX_CHUNKS:
		if (!ct_parse_count(optarg, &opts->max_chunks) && opts->max_chunks)
			return 0;
		fprintf(err, "coretrace %s: invalid chunk count '%s' (want a number from 1)\n",
			cmd, optarg);
		return -1;
	case CT_OPT_TRIG_DELAY ... CT_OPT_TRIG_MAX:
		return ct_trigger_option(c, &opts->trigger, err);
	case 'v':
		opts->verbose++;
		return 0;
	default:
		return -1;
	}
}

/* Whether any trigger is asked for */
bool ct_triggers_on(const struct ct_trigger_opts *t)
{
	return t->delay_ns || t->irq_ns || t->exec_len;
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

int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "duration",	   required_argument, NULL, 'd' },
		{ "buffer-size",   required_argument, NULL, 'b' },
		{ "format",	   required_argument, NULL, 'f' },
		{ "event",	   required_argument, NULL, 'e' },
		{ "pid",	   required_argument, NULL, 'p' },
		{ "tid",	   required_argument, NULL, 't' },
		{ "comm",	   required_argument, NULL, 'c' },
		{ "cpu",	   required_argument, NULL, 'C' },
		{ "cgroup",	   required_argument, NULL, 'G' },
		{ "no-cgroup-names", no_argument,     NULL, CT_OPT_NO_CGROUP_NAMES },
		{ "output",	   required_argument, NULL, 'o' },
		{ "per-cpu-rings", no_argument,	      NULL, CT_OPT_PER_CPU_RINGS },
		{ "wakeup",	   required_argument, NULL, CT_OPT_WAKEUP },
		{ "flight-recorder", required_argument, NULL, CT_OPT_FLIGHT },
		{ "chunk-size",	   required_argument, NULL, CT_OPT_CHUNK_SIZE },
		{ "chunk-time",	   required_argument, NULL, CT_OPT_CHUNK_TIME },
		{ "max-chunks",	   required_argument, NULL, CT_OPT_MAX_CHUNKS },
		{ "trigger-delay", required_argument, NULL, CT_OPT_TRIG_DELAY },
		{ "trigger-pid",   required_argument, NULL, CT_OPT_TRIG_PID },
		{ "trigger-tid",   required_argument, NULL, CT_OPT_TRIG_TID },
		{ "trigger-irq",   required_argument, NULL, CT_OPT_TRIG_IRQ },
		{ "trigger-exec",  required_argument, NULL, CT_OPT_TRIG_EXEC },
		{ "trigger-before", required_argument, NULL, CT_OPT_TRIG_BEFORE },
		{ "trigger-after", required_argument, NULL, CT_OPT_TRIG_AFTER },
		{ "trigger-cooldown", required_argument, NULL, CT_OPT_TRIG_COOLDOWN },
		{ "trigger-max",   required_argument, NULL, CT_OPT_TRIG_MAX },
		{ "verbose",	   no_argument,	      NULL, 'v' },
		{ "help",	   no_argument,	      NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->format = CT_FORMAT_TEXT;
	opts->events = ct_all_events();
	opts->trigger.after = 1.0;
	opts->trigger.cooldown = 10.0;
	opts->trigger.max = 10;
	optind = 0;	/* glibc: rescan from the start, tests parse many times */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:d:b:f:e:p:t:c:C:G:o:vh", longopts,
				NULL)) != -1) {
		if (c == 'h') {
			ct_record_usage(out);
			return CT_PARSE_EXIT;
		}
		if (c == ':') {
			ct_bad_option(err, "record", "option needs a value", argv,
				      optopt, longopts);
			return CT_PARSE_ERROR;
		}
		if (c == '?') {
			ct_bad_option(err, "record", "unknown option", argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
		if (ct_record_option(c, opts, err, "record"))
			return CT_PARSE_ERROR;
	}
	if (optind < argc) {
		fprintf(err, "coretrace record: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return ct_check_parts(opts, err) ? CT_PARSE_ERROR : CT_PARSE_OK;
}

static void ct_top_usage(FILE *out)
{
	fputs("usage: coretrace top [options]\n"
	      "\n"
	      "A live overview, refreshed every interval: what used the CPUs (ms\n"
	      "per second) and woke them (events per second), by process,\n"
	      "interrupt, softirq, timer and work function, then idle-state and\n"
	      "frequency residency per CPU. q quits. When stdout is not a\n"
	      "terminal, one plain report is printed per interval.\n"
	      "\n"
	      "  -i, --interval SECONDS   refresh period (default 2)\n"
	      "  -n, --rows N             rows shown (default: what fits, or 30)\n"
	      "  -d, --duration SECONDS   stop after this long\n"
	      "  -e, --event LIST         events to trace (default: all)\n"
	      "  -p, --pid PID            one process;  -t, --tid TID: one thread\n"
	      "  -c, --comm NAME[*]       tasks named NAME (or starting with it)\n"
	      "  -C, --cpu LIST           CPUs, e.g. 0,2-3\n"
	      "  -G, --cgroup DIR         tasks in this cgroup v2 group or below it\n"
	      "      --no-cgroup-names    no group attribution (--by cgroup: one row)\n"
	      "      --by cgroup          a row per cgroup: CPU time, switches, wakeups,\n"
	      "                           scheduling delay (--by task: the default rows)\n"
	      "  -b, --buffer-size SIZE   ring buffer size (default 4M)\n"
	      "  -v, --verbose            libbpf's messages too\n",
	      out);
}

int ct_parse_top_args(int argc, char **argv, struct ct_record_opts *opts,
		      FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "interval",	   required_argument, NULL, 'i' },
		{ "rows",	   required_argument, NULL, 'n' },
		{ "duration",	   required_argument, NULL, 'd' },
		{ "buffer-size",   required_argument, NULL, 'b' },
		{ "event",	   required_argument, NULL, 'e' },
		{ "pid",	   required_argument, NULL, 'p' },
		{ "tid",	   required_argument, NULL, 't' },
		{ "comm",	   required_argument, NULL, 'c' },
		{ "cpu",	   required_argument, NULL, 'C' },
		{ "cgroup",	   required_argument, NULL, 'G' },
		{ "no-cgroup-names", no_argument,     NULL, CT_OPT_NO_CGROUP_NAMES },
		{ "by",		   required_argument, NULL, CT_OPT_BY },
		{ "verbose",	   no_argument,	      NULL, 'v' },
		{ "help",	   no_argument,	      NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->events = ct_all_events();
	opts->top_interval = 2.0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:i:n:d:b:e:p:t:c:C:G:vh", longopts,
				NULL)) != -1) {
		if (c == 'h') {
			ct_top_usage(out);
			return CT_PARSE_EXIT;
		}
		if (c == ':' || c == '?') {
			ct_bad_option(err, "top", c == ':' ? "option needs a value" :
				      "unknown option", argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
		if (c == 'i') {
			if (!ct_parse_seconds(optarg, &opts->top_interval) &&
			    opts->top_interval >= 0.1)
				continue;
			fprintf(err, "coretrace top: invalid interval '%s' (want seconds, at least 0.1)\n",
				optarg);
			return CT_PARSE_ERROR;
		}
		if (c == 'n') {
			if (!ct_parse_count(optarg, &opts->top_rows))
				continue;
			fprintf(err, "coretrace top: -n wants a number of rows, not '%s'\n",
				optarg);
			return CT_PARSE_ERROR;
		}
		if (c == CT_OPT_BY) {
			if (!ct_parse_by(optarg, &opts->top_by_cgroup, err, "top"))
				continue;
			return CT_PARSE_ERROR;
		}
		if (ct_record_option(c, opts, err, "top"))
			return CT_PARSE_ERROR;
	}
	if (optind < argc) {
		fprintf(err, "coretrace top: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}

static void ct_timechart_usage(FILE *out)
{
	fputs("usage: coretrace timechart DIR -o FILE.svg [-n TASKS] [-w PIXELS] [--by cgroup]\n"
	      "\n"
	      "Draw a capture as an SVG, like perf timechart: a lane per CPU (the\n"
	      "task that ran, or idle), a lane per task for the busiest ones\n"
	      "(running, runnable, sleeping), a time axis and a legend.\n"
	      "\n"
	      "  -o, --output FILE        the SVG to write (required)\n"
	      "  -n, --tasks N            task lanes (default 20)\n"
	      "  -w, --width PIXELS       width of the time axis (default 1600)\n"
	      "      --by cgroup          CPU lanes coloured by the cgroup of the task\n"
	      "                           that ran (--by task: a colour per task)\n",
	      out);
}

int ct_parse_timechart_args(int argc, char **argv, struct ct_timechart_opts *opts,
			    FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "tasks",  required_argument, NULL, 'n' },
		{ "width",  required_argument, NULL, 'w' },
		{ "by",     required_argument, NULL, CT_OPT_BY },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->tasks = 20;
	opts->width = 1600;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:n:w:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			ct_timechart_usage(out);
			return CT_PARSE_EXIT;
		}
		if (c == ':' || c == '?') {
			ct_bad_option(err, "timechart", c == ':' ?
				      "option needs a value" : "unknown option",
				      argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
		if (c == 'o') {
			opts->output = optarg;
			continue;
		}
		if (c == 'n' && (ct_parse_count(optarg, &opts->tasks) ||
				 opts->tasks > 1000)) {
			fprintf(err, "coretrace timechart: invalid task count '%s' (want 0 to 1000)\n",
				optarg);
			return CT_PARSE_ERROR;
		}
		if (c == 'w' && (ct_parse_count(optarg, &opts->width) ||
				 opts->width < 100 || opts->width > 100000)) {
			fprintf(err, "coretrace timechart: invalid width '%s' (want 100 to 100000 pixels)\n",
				optarg);
			return CT_PARSE_ERROR;
		}
		if (c == CT_OPT_BY &&
		    ct_parse_by(optarg, &opts->by_cgroup, err, "timechart"))
			return CT_PARSE_ERROR;
	}
	if (optind + 1 != argc || !opts->output) {
		fprintf(err, "coretrace timechart: want a capture directory and -o FILE.svg (see coretrace timechart --help)\n");
		return CT_PARSE_ERROR;
	}
	opts->dir = argv[optind];
	return CT_PARSE_OK;
}

int ct_parse_convert_args(int argc, char **argv, struct ct_convert_opts *opts,
			  FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "perfetto", required_argument, NULL, 'P' },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs("usage: coretrace convert DIR --perfetto FILE.json\n"
			      "\n"
			      "Write a capture as a Chrome/Perfetto JSON trace: a track per\n"
			      "CPU with a slice per run of a task, thread names, counters for\n"
			      "idle states and frequencies, instants for wakeups. Open it in\n"
			      "ui.perfetto.dev or chrome://tracing.\n", out);
			return CT_PARSE_EXIT;
		}
		if (c == 'P') {
			opts->perfetto = optarg;
			continue;
		}
		ct_bad_option(err, "convert", c == ':' ? "option needs a value" :
			      "unknown option", argv, optopt, longopts);
		return CT_PARSE_ERROR;
	}
	if (optind + 1 != argc || !opts->perfetto) {
		fprintf(err, "coretrace convert: want a capture directory and --perfetto FILE.json\n");
		return CT_PARSE_ERROR;
	}
	opts->dir = argv[optind];
	return CT_PARSE_OK;
}

int ct_parse_list_args(int argc, char **argv, struct ct_list_opts *opts,
		       FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help",    no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+vh", longopts, NULL)) != -1) {
		if (c == 'v') {
			opts->verbose++;
		} else if (c == 'h') {
			ct_list_usage(out);
			return CT_PARSE_EXIT;
		} else {
			ct_bad_option(err, "list", "unknown option", argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
	}
	if (optind < argc) {
		fprintf(err, "coretrace list: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}

int ct_parse_check_args(int argc, char **argv, struct ct_check_opts *opts,
			FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'j') {
			opts->json = true;
		} else if (c == 'h') {
			ct_check_usage(out);
			return CT_PARSE_EXIT;
		} else {
			ct_bad_option(err, "check", "unknown option", argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
	}
	if (optind < argc) {
		fprintf(err, "coretrace check: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}

static void ct_report_usage(FILE *out)
{
	fputs("usage: coretrace report DIR [--top|--latency|--timehist] [--by cgroup]\n"
	      "                           [--json|--csv|--html]\n"
	      "\n"
	      "Read a CTF capture written by coretrace record -o DIR. Without a\n"
	      "view, print every record as record prints them live. A capture that\n"
	      "does not read cleanly is named with the file and offset, exit 2.\n"
	      "\n"
	      "  --top                    what used the CPUs and woke them (ms/s,\n"
	      "                           events/s) per process, interrupt, softirq,\n"
	      "                           timer and work function; C-states, frequencies\n"
	      "  --latency                per task: runtime, switches, average and\n"
	      "                           maximum scheduling delay (perf sched latency)\n"
	      "  --timehist               a line per run of a task: wait time,\n"
	      "                           scheduling delay, run time (perf sched timehist)\n"
	      "  --by cgroup              --top and --latency: a row per cgroup v2 group\n"
	      "                           (CPU time, switches, wakeups, scheduling delay\n"
	      "                           and where its maximum was); --by task: per task\n"
	      "  -f, --format FORMAT      text (default), json; csv and html for --top\n"
	      "      --json, --csv, --html  the same as --format\n"
	      "  -n, --rows N             --top: the N busiest rows (default 20, 0: all)\n",
	      out);
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
	case 'T':
	case 'L':
	case 'H':
		view = c == 'T' ? CT_VIEW_TOP :
		       c == 'L' ? CT_VIEW_LATENCY : CT_VIEW_TIMEHIST;
		if (opts->view != CT_VIEW_RECORDS && opts->view != view) {
			fprintf(err, "coretrace report: %s and %s are two views: pick one\n",
				view_names[opts->view], view_names[view]);
			return -1;
		}
		opts->view = view;
		return 0;
	case 'j':
	case 'c':
	case 'm':
		opts->out = c == 'j' ? CT_REPORT_JSON :
			    c == 'c' ? CT_REPORT_CSV : CT_REPORT_HTML;
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

int ct_parse_report_args(int argc, char **argv, struct ct_report_opts *opts,
			 FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "format",   required_argument, NULL, 'f' },
		{ "rows",     required_argument, NULL, 'n' },
		{ "top",      no_argument,       NULL, 'T' },
		{ "latency",  no_argument,       NULL, 'L' },
		{ "timehist", no_argument,       NULL, 'H' },
		{ "json",     no_argument,       NULL, 'j' },
		{ "csv",      no_argument,       NULL, 'c' },
		{ "html",     no_argument,       NULL, 'm' },
		{ "by",       required_argument, NULL, CT_OPT_BY },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->rows = CT_REPORT_TOP_ROWS;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:n:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			ct_report_usage(out);
			return CT_PARSE_EXIT;
		}
		if (c == ':' || c == '?') {
			ct_bad_option(err, "report", c == ':' ?
				      "option needs a value" : "unknown option",
				      argv, optopt, longopts);
			return CT_PARSE_ERROR;
		}
		if (ct_report_option(c, optarg, opts, err))
			return CT_PARSE_ERROR;
	}
	if (opts->out >= CT_REPORT_CSV && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: csv and html are for --top\n");
		return CT_PARSE_ERROR;
	}
	if (opts->rows_set && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: -n is for --top\n");
		return CT_PARSE_ERROR;
	}
	if (opts->by_set && opts->view != CT_VIEW_TOP &&
	    opts->view != CT_VIEW_LATENCY) {
		fprintf(err, "coretrace report: --by is for --top and --latency\n");
		return CT_PARSE_ERROR;
	}
	if (optind + 1 != argc) {
		fprintf(err, "coretrace report: want one capture directory (see coretrace report --help)\n");
		return CT_PARSE_ERROR;
	}
	opts->dir = argv[optind];
	return CT_PARSE_OK;
}

int ct_parse_version_args(int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'h') {
			ct_version_usage(out);
			return CT_PARSE_EXIT;
		}
		ct_bad_option(err, "version", "unknown option", argv, optopt, longopts);
		return CT_PARSE_ERROR;
	}
	if (optind < argc) {
		fprintf(err, "coretrace version: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}

int ct_close_output(FILE *f, const char *who, const char *what)
{
	FILE *out = f ? f : stdout;
	int failed, err;

	errno = 0;
	failed = fflush(out) || ferror(out);
	err = errno;
	if (f && fclose(f) && !failed) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return 0;
	fprintf(stderr, "%s: writing %s failed: %s\n", who, what,
		err ? strerror(err) : "an earlier write failed");
	return -1;
}
