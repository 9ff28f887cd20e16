/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `coretrace top`: the overview of top.h, live. Records go into an
 * analysis; every interval the window is printed and a new one starts.
 * On a terminal the screen is redrawn in place and q quits (the terminal
 * is put in non-canonical mode and restored on close); otherwise one
 * plain-text report follows another.
 */
#ifndef CORETRACE_LIVE_TOP_H
#define CORETRACE_LIVE_TOP_H

#include <stdbool.h>
#include <stdio.h>
#include "views/top.h"

struct ct_live_top;

/* what the overview shows */
struct ct_live_view {
	double interval_s;	/* refresh period */
	unsigned int rows;	/* 0: what fits a terminal, else 30 */
	bool by_cgroup;		/* a row per cgroup */
	bool stacks;		/* record -g: where tasks waited, by stack */
};

/*
 * Print to @out every @view->interval_s seconds; keys are read from
 * @in_fd when both are terminals.
 */
struct ct_live_top *ct_live_top_open(FILE *out, int in_fd,
				     const struct ct_live_view *view, int ncpus,
				     const struct ct_print_ctx *names,
				     uint64_t now_ns);
void ct_live_top_feed(struct ct_live_top *t, const union ct_record *rec);
/* After each drain pass: redraw when an interval ended. True: q pressed. */
bool ct_live_top_tick(struct ct_live_top *t, uint64_t now_ns);
/* Restore the terminal; frees @t. */
void ct_live_top_close(struct ct_live_top *t);

#endif /* CORETRACE_LIVE_TOP_H */
