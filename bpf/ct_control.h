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

/*
 * ct_stats: a CPU's row of counts, whole cache lines (32 x 24 bytes): one
 * slot per event type, and at the end of the row the call stacks of
 * record -g, kernel and user: stacks asked for (attempted), not taken or
 * not sent (lost: the walk failed, or the ring had no room for a new
 * stack's frames), none to take (filtered: a kernel thread's user stack)
 */
#define CT_STATS_STRIDE		32
#define CT_STATS_KSTACK		30
#define CT_STATS_USTACK		31
_Static_assert(CT_STATS_KSTACK >= CT_EV_MAX, "a row holds every event type");

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

/*
 * record -g: a call stack's frames, given once, ahead of the first
 * ct_callchain record that refers to it by id. Like a trigger, a message
 * to the reader outside the event table: the reader keeps the frames in
 * its stack table, and a capture gives them in an event of its own.
 * Kernel stacks: nr return addresses (u64), innermost first; user stacks:
 * nr struct ct_uframe. Ids start at 1 and are never given twice in a
 * recording; a stack BPF has forgotten (its table is an LRU) is given
 * again under a new id. 32 bytes and the frames.
 */
#define CT_REC_KSTACK		0xf1
#define CT_REC_USTACK		0xf2

#define CT_STACK_KERNEL		0x1	/* ct_stacks: kernel frames */
#define CT_STACK_USER		0x2	/* ct_stacks: user frames */
#define CT_KSTACK_DEPTH		48	/* frames kept, innermost first */
#define CT_USTACK_DEPTH		32

struct ct_stack_msg {
	CT_RECORD_HEADER;
	__u32 id;
	__u32 tgid;		/* a user stack's process; 0 for the kernel */
	__u32 nr;		/* frames that follow */
	__u32 reserved[2];
};

/*
 * A user frame as the kernel gives it (struct bpf_stack_build_id): the
 * build ID of the file mapped there and the offset in that file, or,
 * when the kernel could not read the build ID then (status
 * CT_UFRAME_IP), the address itself.
 */
#define CT_UFRAME_EMPTY		0
#define CT_UFRAME_VALID		1
#define CT_UFRAME_IP		2
#define CT_BUILD_ID_SIZE	20

struct ct_uframe {
	__s32 status;
	unsigned char build_id[CT_BUILD_ID_SIZE];
	__u64 offset;		/* CT_UFRAME_IP: the address */
};

/* limits of the filters set at load time */
#define CT_MAX_CPUS		1024
#define CT_MAX_CGROUPS		8	/* -G given this many times at most */
#define CT_PID_LIMIT		4194304	/* the kernel's PID_MAX_LIMIT */

#endif /* CORETRACE_CT_CONTROL_H */
