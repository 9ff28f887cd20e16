// SPDX-License-Identifier: GPL-2.0
/*
 * The options several commands share, defined once: what to trace and
 * the session (record, top), and the session's duration, verbosity and
 * layouts (serve too; the layouts: check).
 */
#include <errno.h>
#include <string.h>
#include "commands/common.h"

static int ct_layout_conflict(FILE *err, const char *cmd)
{
	fprintf(err, "coretrace %s: --btf and --btf-from-formats name two layouts; give one\n", cmd);
	return -1;
}

/* --btf, --btf-from-formats: record's, top's and check's */
int ct_layout_option(int id, const char *arg, struct ct_layout_opts *opts,
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

/*
 * -d, -v, --btf, --btf-from-formats: the session options record, top and
 * serve share, into the struct ct_session_opts @p
 */
int ct_set_session(int id, const char *arg, void *p, FILE *err,
		   const char *cmd)
{
	struct ct_session_opts *opts = p;

	switch (id) {
	case 'd':
		if (!ct_parse_seconds(arg, &opts->duration))
			return 0;
		fprintf(err, "coretrace %s: invalid duration '%s' (want seconds, e.g. 5, 0.5, 200ms)\n", cmd,
			arg);
		return -1;
	case 'v':
		opts->verbose++;
		return 0;
	case CT_OPT_USER:
		if (*arg) {
			opts->user = arg;
			return 0;
		}
		fprintf(err, "coretrace %s: --user needs a user name\n", cmd);
		return -1;
	default:
		return ct_layout_option(id, arg, &opts->layout, err, cmd);
	}
}

/*
 * --call-graph: which stacks. perf's "fp" is both, walked by frame
 * pointers, the only way coretrace walks them; perf's other ways (dwarf,
 * lbr) copy stacks or need hardware coretrace does not use.
 */
static int ct_parse_call_graph(const char *arg, uint32_t *stacks, FILE *err,
			       const char *cmd)
{
	if (!strcmp(arg, "fp") || !strcmp(arg, "kernel,user") ||
	    !strcmp(arg, "user,kernel"))
		*stacks = CT_STACK_KERNEL | CT_STACK_USER;
	else if (!strcmp(arg, "kernel"))
		*stacks = CT_STACK_KERNEL;
	else if (!strcmp(arg, "user"))
		*stacks = CT_STACK_USER;
	else {
		fprintf(err, "coretrace %s: unknown call graph '%s' (want kernel, user, kernel,user or fp; stacks are walked by frame pointers only)\n",
			cmd, arg);
		return -1;
	}
	return 0;
}

int ct_check_stacks(const struct ct_record_opts *opts, FILE *err,
		    const char *cmd)
{
	if (!opts->stacks ||
	    (opts->events & (1ull << CT_EV_SCHED_SWITCH | 1ull << CT_EV_SCHED_WAKING)))
		return 0;
	fprintf(err, "coretrace %s: stacks are taken at sched_switch and sched_waking, and -e traces neither\n",
		cmd);
	return -1;
}

/* What to trace, and the session: record's and top's */
int ct_set_trace(int id, const char *arg, void *p, FILE *err, const char *cmd)
{
	struct ct_record_opts *opts = p;
	uint64_t bytes;

	switch (id) {
	case 'b':
		if (!ct_parse_size(arg, &bytes) &&
		    !ct_ring_size(bytes, &opts->buffer_size))
			return 0;
		fprintf(err, "coretrace %s: invalid buffer size '%s' (want 4K to 1G, e.g. 256K, 4M)\n", cmd,
			arg);
		return -1;
	case 'e':
		return ct_parse_events(arg, &opts->events, err) ? -1 : 0;
	case 'p':
	case 't':
		if (!ct_parse_pid(arg, id == 'p' ? &opts->pid : &opts->tid))
			return 0;
		fprintf(err, "coretrace %s: invalid %s '%s' (want a number from 1 to %d)\n", cmd,
			id == 'p' ? "pid" : "tid", arg, CT_PID_MAX);
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
	case CT_OPT_NO_CGROUP_NAMES:
		opts->no_cgroup_names = true;
		return 0;
	case 'g':
		opts->stacks = CT_STACK_KERNEL | CT_STACK_USER;
		return 0;
	case CT_OPT_CALL_GRAPH:
		return ct_parse_call_graph(arg, &opts->stacks, err, cmd);
	default:
		return ct_set_session(id, arg, &opts->session, err, cmd);
	}
}

/* What to trace and which tasks: record's and top's, defined once */
const struct ct_opt ct_trace_table[] = {
	{ 'e', "event", "EVENTS", "events to trace, comma-separated: a name\n"
	  "(sched_switch), group:name, group:* or all\n"
	  "(default: all; see coretrace list)", ct_set_trace },
	{ 'p', "pid", "PID", "only events about the threads of process PID",
	  ct_set_trace },
	{ 't', "tid", "TID", "only events about thread TID", ct_set_trace },
	{ 'c', "comm", "NAME", "only events about tasks named NAME, or whose\n"
	  "name starts with NAME when it ends in '*'", ct_set_trace },
	{ 'C', "cpu", "CPUS", "only events on these CPUs (e.g. 0,2-3)",
	  ct_set_trace },
	{ 'G', "cgroup", "DIR", "only events about tasks in cgroup v2 group DIR\n"
	  "(e.g. /sys/fs/cgroup/system.slice) or below\n"
	  "it; repeat for more groups (8 at most)", ct_set_trace },
	{ 'g', "stacks", NULL, "call stacks, kernel and user: of each task\n"
	  "switched out (where it blocked) and of each\n"
	  "waker (from where it woke a task)", ct_set_trace },
	{ CT_OPT_CALL_GRAPH, "call-graph", "WHAT", "the stacks to take: kernel, user or\n"
	  "kernel,user (fp, as perf says, is the same)", ct_set_trace },
	{ CT_OPT_NO_CGROUP_NAMES, "no-cgroup-names", NULL,
	  "do not announce tasks' cgroups and groups'\n"
	  "paths (no --by cgroup views)", ct_set_trace },
	{ 0 },
};

/* How long, how big, how loud: record's and top's too */
const struct ct_opt ct_session_table[] = {
	{ 'd', "duration", "SECONDS", "stop after SECONDS (e.g. 5, 0.5, 200ms, 2m)",
	  ct_set_trace },
	{ 'b', "buffer-size", "SIZE", "ring buffer size, e.g. 256K, 16M (default 4M;\n"
	  "rounded up to a power of two)", ct_set_trace },
	{ 'v', "verbose", NULL, "counters every second and per event at exit,\n"
	  "and libbpf's log; -vv adds libbpf's debug log", ct_set_trace },
	CT_USER_OPT(ct_set_trace),
	CT_LAYOUT_OPTS(ct_set_trace),
	{ 0 },
};
