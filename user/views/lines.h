/* SPDX-License-Identifier: GPL-2.0 */
/* Outputs to a terminal or a pipe (lines.c): lines, the live overview. */
#ifndef CORETRACE_LINES_H
#define CORETRACE_LINES_H

#include "model/output.h"

/*
 * Each record as a line of @format on @f; text escapes control bytes. A
 * write error stops the session, said once as "@who: writing the output
 * failed" (a closed pipe quietly). NULL: no memory.
 */
struct ct_output *ct_lines_output(FILE *f, enum ct_format format,
				  struct ct_names *names, const char *who);

/* The live overview (live_top.h) on @f, keys from @in_fd. NULL: no memory. */
struct ct_live_view;
struct ct_output *ct_top_output(FILE *f, int in_fd,
				const struct ct_live_view *view, int ncpus,
				struct ct_names *names, uint64_t now_ns);

#endif /* CORETRACE_LINES_H */
