/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What crosses between coretrace's BPF programs and its loader besides
 * the records of ct_abi.h: the loss and filter counters, the triggers'
 * message and state, and the limits of the filters set at load time.
 * None of it reaches a capture, so CT_ABI_VERSION does not cover it.
 */
#ifndef CORETRACE_CT_CONTROL_H
#define CORETRACE_CT_CONTROL_H

#include "ct_abi.h"

/*
 * Per-CPU counters, one slot per event type: tracepoint hits the filters
 * rejected, records the handler tried to write, and records lost because
 * the ring had no room. received + lost == attempted once drained.
 */
struct ct_counts {
	__u64 filtered;
	__u64 attempted;
	__u64 lost;
};

/* ct_stats: a CPU's row of counts, whole cache lines (32 x 24 bytes) */
#define CT_STATS_STRIDE		32
_Static_assert(CT_STATS_STRIDE >= CT_EV_MAX, "a row holds every event type");

/*
 * A trigger fired (record --trigger-*): the condition held in BPF, which
 * then writes this record; nothing else about triggers crosses to user
 * space. Its type, CT_REC_TRIGGER, is outside the event table: a trigger
 * record is a message to the recorder, never fed to an output or written
 * to a capture, so the records captures hold (and CT_ABI_VERSION, which
 * captures carry) are unchanged by it. 32 bytes, 40 in the ring.
 */
#define CT_REC_TRIGGER		0xf0

enum ct_trigger_kind {
	CT_TRIG_DELAY = 1,	/* a task waited longer than the threshold to run */
	CT_TRIG_IRQ,		/* an interrupt handler ran longer */
	CT_TRIG_SOFTIRQ,	/* a softirq ran longer */
	CT_TRIG_EXEC,		/* a task with the given name was exec'd */
	CT_TRIG_KINDS
};

struct ct_trigger {
	CT_RECORD_HEADER;
	__u32 pid;		/* delay, exec: the task; irq, softirq: current */
	__u8 kind;		/* enum ct_trigger_kind */
	__u8 reserved[3];
	__u32 source;		/* irq: its number; softirq: its vector */
	ct_u64 value_ns;	/* delay: how long it waited; irq: how long it ran */
};

/*
 * The triggers' shared state (one slot): BPF fires no sooner than next_ns
 * and no more than the maximum; it counts what fired, what held while
 * held back by the cooldown or the maximum, and records the ring had no
 * room for. The counts are added without locking: close, not exact.
 */
struct ct_trigger_state {
	__u64 next_ns;
	__u64 fired;
	__u64 held_back;
	__u64 lost;
	__u64 before_armed;	/* held, but began before ct_trig_armed_ns */
};

/* limits of the filters set at load time */
#define CT_MAX_CPUS		1024
#define CT_MAX_CGROUPS		8	/* -G given this many times at most */
#define CT_PID_LIMIT		4194304	/* the kernel's PID_MAX_LIMIT */

#endif /* CORETRACE_CT_CONTROL_H */
