/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coretrace serve's map layouts, shared by its BPF programs (serve.bpf.c)
 * and the user space that reads the maps when scraped (metrics.c).
 */
#ifndef CORETRACE_CT_SERVE_H
#define CORETRACE_CT_SERVE_H

#include "ct_abi.h"

/*
 * coretrace serve: programs of its own (serve_*) add up in maps instead
 * of writing records, and user space reads the maps when scraped.
 * Nothing here reaches a capture: CT_ABI_VERSION does not cover it.
 *
 * Scheduling delay (wakeup or preemption to running) in log2 microsecond
 * buckets, as runqlat and ebpf_exporter's example: bucket b counts the
 * delays of at most 2^b us that did not fit bucket b - 1 (bucket 0: at
 * most 1 us), the last one every longer delay (le="+Inf").
 */
/* the events serve has programs for (serve_<event name>), and attaches */
#define CT_SERVE_EVENTS							\
	(1ull << CT_EV_SCHED_SWITCH | 1ull << CT_EV_SCHED_WAKEUP |	\
	 1ull << CT_EV_SCHED_WAKEUP_NEW | 1ull << CT_EV_SCHED_MIGRATE_TASK | \
	 1ull << CT_EV_CPU_IDLE | 1ull << CT_EV_IRQ_HANDLER_ENTRY |	\
	 1ull << CT_EV_IRQ_HANDLER_EXIT | 1ull << CT_EV_SOFTIRQ_ENTRY |	\
	 1ull << CT_EV_SOFTIRQ_EXIT)

#define CT_DELAY_BUCKETS	27
#define CT_IDLE_STATES		16	/* cpuidle's are fewer (CPUIDLE_STATE_MAX 10) */
#define CT_SOFTIRQS		16	/* the kernel's are fewer (NR_SOFTIRQS 10) */

#define CT_AGG_FOLDED_KEPT	16384	/* folded groups told apart, for their count */
#define CT_AGG_IRQS		1024	/* interrupts with sums of their own */

/* cgroup ids are inode numbers, never 0 or all ones */
#define CT_AGG_CG_UNKNOWN	0ull	/* a task never seen switched out */
#define CT_AGG_CG_FOLDED	(~0ull)	/* groups past the cap, together */

/* ct_agg_groups' first two entries; the groups' own follow */
#define CT_AGG_IDX_UNKNOWN	0
#define CT_AGG_IDX_FOLDED	1
#define CT_AGG_IDX_FIRST	2

/*
 * ct_agg_groups: an array entry per cgroup v2 group, added to by every
 * CPU; @id says whose it is (CT_AGG_CG_UNKNOWN, CT_AGG_CG_FOLDED, or the
 * group's id; 0 in a free entry).
 */
struct ct_agg_cgroup {
	__u64 id;
	__u64 oncpu_ns;		/* time its tasks ran, counted at switch-out */
	__u64 switches;		/* its tasks switched out */
	__u64 wakeups;		/* its tasks woken (sched_wakeup, _new) */
	__u64 migrations;	/* its tasks moved to another CPU */
	__u64 delay_sum_ns;
	__u64 delay[CT_DELAY_BUCKETS];	/* per bucket, not cumulative */
};

/* ct_agg_cpus: a CPU's row, written by that CPU only */
struct ct_agg_cpu {
	__u64 switch_ns;	/* when the running task was switched in */
	__u64 idle_since;	/* 0: not idle */
	__u32 idle_state;
	__u32 irq;		/* the interrupt running since irq_since */
	__u64 irq_since;
	__u64 softirq_since;
	__u32 softirq_vec;
	__u32 reserved;
	__u64 idle_ns[CT_IDLE_STATES];
	__u64 idle_entries[CT_IDLE_STATES];
	__u64 softirq_ns[CT_SOFTIRQS];
	__u64 softirq_count[CT_SOFTIRQS];
};

/* ct_agg_irqs: per interrupt number, added to by every CPU */
struct ct_agg_irq {
	__u64 ns;
	__u64 count;
};

/*
 * The delay bucket of @ns: the smallest b with ceil(ns / 1000) <= 2^b,
 * CT_DELAY_BUCKETS - 1 past the last. No clz: BPF has none.
 */
static inline __u32 ct_delay_bucket(__u64 ns)
{
	__u64 x, shift;
	__u32 log = 0;

	if (ns >= 1ull << 62)
		return CT_DELAY_BUCKETS - 1;
	x = (ns + 999) / 1000;
	if (x <= 1)
		return 0;
	x--;		/* floor(log2(us - 1)) + 1 */
	shift = (x > 0xffffffffull) << 5;
	x >>= shift;
	log |= shift;
	shift = (x > 0xffff) << 4;
	x >>= shift;
	log |= shift;
	shift = (x > 0xff) << 3;
	x >>= shift;
	log |= shift;
	shift = (x > 0xf) << 2;
	x >>= shift;
	log |= shift;
	shift = (x > 0x3) << 1;
	x >>= shift;
	log |= shift;
	log |= (__u32)(x >> 1);
	log++;
	return log < CT_DELAY_BUCKETS - 1 ? log : CT_DELAY_BUCKETS - 1;
}

#endif /* CORETRACE_CT_SERVE_H */
