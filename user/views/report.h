/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_REPORT_H
#define CORETRACE_REPORT_H

#include "base/options.h"

#include <stdbool.h>
#include "model/args.h"

/* what `coretrace report` prints */
enum ct_report_view {
	CT_VIEW_RECORDS,	/* every record, as record prints them */
	CT_VIEW_TOP,		/* the powertop-like overview */
	CT_VIEW_LATENCY,	/* perf sched latency's table */
	CT_VIEW_TIMEHIST,	/* perf sched timehist's lines */
	CT_VIEW_OFFCPU,		/* off-CPU time by call stack (record -g) */
};

enum ct_report_out {
	CT_REPORT_TEXT,		/* --offcpu: folded stacks */
	CT_REPORT_JSON,
	CT_REPORT_CSV,		/* --top only */
	CT_REPORT_HTML,		/* --top only */
};

struct ct_report_opts {
	const char *dir;
	enum ct_report_view view;
	enum ct_report_out out;
	unsigned int rows;	/* --top: rows shown, 0 for all */
	bool rows_set;		/* -n was given */
	bool by_cgroup;		/* --by cgroup: --top and --latency per group */
	bool by_set;		/* --by was given */
};

#define CT_REPORT_TOP_ROWS	20	/* --top's rows without -n */

/* `coretrace report DIR`; returns the exit code */
int ct_report(const struct ct_report_opts *opts);

extern const struct ct_command ct_report_command;

#endif /* CORETRACE_REPORT_H */
