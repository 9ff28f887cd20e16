/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU time by call stack (record -g; report --offcpu): from the
 * moment a task is switched out to the moment it is switched in again,
 * credited to the stack it left the CPU with (the callchain record after
 * its switch), as offcputime and perf's off-CPU profiles count it: time
 * blocked, and time waiting to run again after a wakeup or preemption.
 * A task still off the CPU when the recording ends is not counted.
 *
 * Bounded: tasks and (task, stack) sums in tables sized once; what does
 * not fit is counted (->dropped), never grown into.
 */
#ifndef CORETRACE_OFFCPU_H
#define CORETRACE_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "model/events.h"

#define CT_OFFCPU_TASKS		65536
#define CT_OFFCPU_SUMS		65536

struct ct_offcpu_task {
	uint32_t tid;		/* 0: empty */
	uint32_t kstack, ustack;	/* of the current time off the CPU */
	uint64_t out_at;	/* switched out; 0: on a CPU, or not known */
};

struct ct_offcpu_sum {
	uint32_t tid;		/* 0: empty */
	uint32_t kstack, ustack;
	uint64_t ns, count;
	char comm[CT_COMM_LEN];	/* the task's name when last counted */
};

struct ct_offcpu {
	struct ct_offcpu_task *tasks;
	struct ct_offcpu_sum *sums;
	uint64_t dropped;	/* times off the CPU with no room to count */
	uint64_t unknown;	/* times whose stack was not taken or is not known */
	uint64_t total_ns;
	uint64_t window_ns;	/* time before this is not counted (top) */
	const struct ct_comm_cache *comms;
};

/* Empty tables; 0 or -ENOMEM */
int ct_offcpu_init(struct ct_offcpu *o, const struct ct_comm_cache *comms);
void ct_offcpu_free(struct ct_offcpu *o);

/* One record, in time order (switches and callchains; others ignored) */
void ct_offcpu_feed(struct ct_offcpu *o, const union ct_record *rec);

enum ct_offcpu_format {
	CT_OFFCPU_FOLDED,	/* "comm;frame;...;frame US" per line */
	CT_OFFCPU_JSON,		/* one object, the stacks by time */
};

/*
 * The sums to @f, the longest first, frames named through @pctx: folded
 * (user frames outermost first, then kernel frames, the innermost last,
 * in microseconds as FlameGraph and speedscope read them) or JSON. The
 * same frames in different stack ids add up. 0, or -ENOMEM.
 */
int ct_offcpu_print(const struct ct_offcpu *o, FILE *f,
		    const struct ct_print_ctx *pctx,
		    enum ct_offcpu_format format);

/*
 * A new window from @now_ns: the sums back to zero; a time off the CPU
 * under way counts from @now_ns on
 */
void ct_offcpu_new_window(struct ct_offcpu *o, uint64_t now_ns);

/*
 * coretrace top -g: the @rows stacks with the most time off the CPU in a
 * window of @window_ns, one line each: ms a second, the task, where it
 * left the CPU (ct_stack_where). Text for a terminal.
 */
void ct_offcpu_top(const struct ct_offcpu *o, FILE *f,
		   const struct ct_print_ctx *pctx, unsigned int rows,
		   uint64_t window_ns);

#endif /* CORETRACE_OFFCPU_H */
