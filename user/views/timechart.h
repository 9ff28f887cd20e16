/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `coretrace timechart DIR -o chart.svg`: an SVG like perf timechart. One
 * lane per CPU (the task that ran, or idle) and one per task of the
 * busiest N (running, runnable, sleeping), on one time axis, with a
 * legend. Each lane keeps one state per pixel column (the one that held
 * it longest), and runs of equal columns become one rectangle: the file
 * grows with lanes x width, not with the number of records.
 */
#ifndef CORETRACE_TIMECHART_H
#define CORETRACE_TIMECHART_H

#include "base/options.h"

#include <stdbool.h>

struct ct_timechart_opts {
	const char *dir;
	const char *output;
	unsigned int tasks;	/* task lanes, the busiest first */
	unsigned int width;	/* pixels of the time axis */
	bool by_cgroup;		/* CPU lanes coloured by the task's cgroup */
};

/* Returns the exit code. */
int ct_timechart(const struct ct_timechart_opts *opts);

extern const struct ct_command ct_timechart_command;

#endif /* CORETRACE_TIMECHART_H */
