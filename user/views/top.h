/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The overview of `coretrace top` and `coretrace report --top`, as
 * powertop shows it: what used the CPUs (ms per second) and how often it
 * woke them (events per second), by process, interrupt, softirq, timer
 * and work function; then C-state and frequency residency per CPU. One
 * builder, four printers (text, JSON, CSV, HTML).
 */
#ifndef CORETRACE_TOP_H
#define CORETRACE_TOP_H

#include <stdbool.h>
#include <stdio.h>
#include "model/analysis.h"

enum ct_out {
	CT_OUT_TEXT,
	CT_OUT_JSON,
	CT_OUT_CSV,
	CT_OUT_HTML,
};

struct ct_top_row {
	const char *category;	/* "Process", "Interrupt", ... */
	char description[96];
	uint32_t id;		/* tid, irq, vector; 0 for functions */
	double usage_ms;	/* per second of the window */
	double events;		/* per second of the window */
	const struct ct_an_task *task;	/* a process row's task, or NULL */
};

/*
 * Rows of the window [a->window_start, a->last_ts] (settle first), most
 * used first, into @rows (at most @max); returns how many.
 */
size_t ct_top_rows(const struct ct_analysis *a, const struct ct_print_ctx *names,
		   struct ct_top_row *rows, size_t max);
/*
 * qsort order of the rows: usage, then events, each as printed (to 0.1),
 * higher first; then the description.
 */
int ct_top_row_cmp(const void *pa, const void *pb);

/*
 * Print the overview: at most @limit rows (0: all), then the CPU pane.
 * @title names the source (a capture directory, "live"). @by_cgroup: a
 * row per cgroup instead of the process, interrupt and function rows.
 */
void ct_top_print(FILE *out, enum ct_out fmt, const struct ct_analysis *a,
		  const struct ct_print_ctx *names, size_t limit,
		  const char *title, bool by_cgroup);

/* rows enough for every group and the tasks of none */
#define CT_GROUP_ROWS	(CT_AN_GROUPS + 1)

/*
 * The groups that did anything, into @rows (at most @max), the tasks
 * whose group was never announced summed as group 0. @window: the
 * window's figures, busiest first; else the whole run's, largest
 * scheduling delay first. Returns how many.
 */
size_t ct_group_rows(const struct ct_analysis *a, bool window,
		     struct ct_an_group *rows, size_t max);
/* Group @id's path for printing, in @buf or a constant string */
const char *ct_group_name(const struct ct_print_ctx *names, uint64_t id,
			  char *buf, size_t size);

/* @s as HTML/SVG text: the five XML characters escaped, controls dropped */
void ct_put_xml(FILE *out, const char *s);

#endif /* CORETRACE_TOP_H */
