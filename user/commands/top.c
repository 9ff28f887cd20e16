// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace top`: a record session whose output is the live overview;
 * its own options, then record's for what to trace (common.c).
 */
#include <string.h>
#include "commands/common.h"
#include "commands/top.h"

enum {
	CT_OPT_BY = CT_OPT_COMMON_END,
};

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

static int ct_top_finish(void *opts, int argc, char **argv, int first,
			 FILE *err)
{
	if (first < argc) {
		fprintf(err, "coretrace top: unexpected argument '%s'\n",
			argv[first]);
		return -1;
	}
	return ct_check_stacks(opts, err, "top");
}

static const struct ct_opt_group ct_top_groups[] = {
	{ NULL, ct_top_opts, NULL },
	{ "what to trace:", ct_trace_table, NULL },
	{ NULL, ct_session_table, NULL },
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
	.finish = ct_top_finish,
};
