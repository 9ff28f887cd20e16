/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers, user space's side: BPF decides when a condition holds and
 * sends one ct_trigger record (ct_abi.h); here it is named, held until
 * its window after has been recorded, and turned into a flight
 * recorder's snapshot of the window around it.
 */
#ifndef CORETRACE_TRIGGER_H
#define CORETRACE_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>
#include "loader/loader.h"
#include "model/output.h"

/*
 * record -g: per task (direct-mapped by pid), the stack it last left the
 * CPU with and who last woke it from where, for the trigger's line
 */
#define CT_TRIG_STACK_SLOTS	65536

struct ct_trig_stacks {
	uint32_t pid;
	uint32_t kstack, ustack;	/* where it left the CPU */
	uint32_t waker;			/* who woke it, 0: not since */
	uint32_t waker_kstack, waker_ustack;
};

struct ct_trigger_ctl {
	const struct ct_trigger_opts *opts;
	bool pending;			/* a snapshot waits for its window */
	uint64_t fired_ns;		/* when it fired (the record's ts) */
	uint64_t due_ns;		/* when its window after has passed */
	char reason[400];		/* what fired, for the snapshot */
	struct ct_trig_stacks *stacks;	/* record -g, or NULL */
	unsigned int taken;		/* snapshots written for triggers */
	unsigned int merged;		/* fired inside a pending window */
	unsigned int refused;		/* past the cooldown or the maximum */
	uint64_t armed_ns;		/* BPF fires for what began after this */
	uint64_t earliest_ns;		/* the earliest a received one began */
};

void ct_trigger_init(struct ct_trigger_ctl *ctl,
		     const struct ct_trigger_opts *opts);
/* With record -g: keep each task's stacks (0, or -ENOMEM) */
int ct_trigger_keep_stacks(struct ct_trigger_ctl *ctl);
void ct_trigger_free(struct ct_trigger_ctl *ctl);
/* A callchain record: where a task left the CPU, or who woke it */
void ct_trigger_callchain(struct ct_trigger_ctl *ctl,
			  const struct ct_callchain *c);

/*
 * One sentence for @t, e.g. "sched delay: tid 42 (app) waited 105.301 ms
 * to run on CPU 1", names from @names, and with record -g (@ctl's
 * stacks) where it had left the CPU and where its waker was; a byte of a
 * name that is not
 * printable ASCII, a quote or a backslash shows as '?', so that the same
 * sentence is fit for a terminal and for a capture's env. Returns @buf.
 */
const char *ct_trigger_describe(const struct ct_trigger_ctl *ctl,
				const struct ct_trigger *t,
				const struct ct_names *names, char *buf,
				size_t len);

/*
 * A trigger record arrived: it becomes the pending snapshot unless one is
 * pending already (its window holds this one too) or the cooldown or the
 * maximum says no (BPF says so first; this holds when CPUs race).
 */
void ct_trigger_seen(struct ct_trigger_ctl *ctl, const struct ct_trigger *t,
		     const struct ct_names *names);

/*
 * The pending snapshot, once @now_ns is past its window (any time when
 * @force, at the end): written through @out. 0, or what the snapshot
 * returned.
 */
int ct_trigger_poll(struct ct_trigger_ctl *ctl, struct ct_output *out,
		    uint64_t now_ns, bool force);

#endif /* CORETRACE_TRIGGER_H */
