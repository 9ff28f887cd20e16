/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values every command's options take, the exit codes, and the check of
 * a command's output on close (args.c).
 */
#ifndef CORETRACE_ARGS_H
#define CORETRACE_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ct_control.h"
#include "model/events.h"

#define CT_DEFAULT_BUFFER_SIZE	(4u << 20)
#define CT_MIN_BUFFER_SIZE	4096u
#define CT_MAX_BUFFER_SIZE	(1u << 30)

/* exit codes */
#define CT_EXIT_OK		0
#define CT_EXIT_FAILURE		1	/* runtime: no privileges, no BTF... */
#define CT_EXIT_USAGE		2	/* bad command line */

#define CT_PID_MAX		CT_PID_LIMIT	/* the kernel's PID_MAX_LIMIT */

_Static_assert(CT_EV_MAX <= 64, "event masks are 64 bits");

/* "2", "0.5", "1.5s", "200ms", "3m": positive, at most a day */
int ct_parse_seconds(const char *arg, double *seconds);
/* "65536", "64K", "4M", "1G" (binary units) */
int ct_parse_size(const char *arg, uint64_t *bytes);
/* round up to a power of two within the ring buffer's limits */
int ct_ring_size(uint64_t requested, uint32_t *size);
/*
 * "sched_switch,irq:*,timer:hrtimer_expire_entry", "all": the events to
 * trace as a mask of 1 << type. On error, one sentence naming the bad
 * item and the valid ones goes to @err.
 */
int ct_parse_events(const char *arg, uint64_t *mask, FILE *err);
/* "0,2-3": CPUs into @cpus (CT_MAX_CPUS flags) */
int ct_parse_cpus(const char *arg, uint8_t *cpus);
/* a pid or tid: 1 .. CT_PID_MAX */
int ct_parse_pid(const char *arg, uint32_t *pid);
/* "bash" or "kworker*": a task name to match, 1..15 bytes */
int ct_parse_comm(const char *arg, char *comm, uint32_t *len, bool *prefix);
/* every event that has a tracepoint */
uint64_t ct_all_events(void);

/* --by task|cgroup: rows per group? 0, or -1 after one sentence on @err */
int ct_parse_by(const char *arg, bool *by_cgroup, FILE *err, const char *cmd);
/* A decimal count ("20"); 0 or -EINVAL. */
int ct_parse_count(const char *arg, unsigned int *count);
/* --file-mode: octal permission bits, read by anyone, written by the owner (0 to 0644) */
int ct_parse_file_mode(const char *arg, unsigned int *mode);

/*
 * Flushes and closes @f (NULL: stdout, flushed and checked, left open);
 * a write error is one line "WHO: writing WHAT failed: reason" on stderr.
 * 0, or -1 after saying why.
 */
int ct_close_output(FILE *f, const char *who, const char *what);

#endif /* CORETRACE_ARGS_H */
