/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a record: reserve room in the ring, fill the header, submit;
 * and the counters every attempt, loss and filtered hit goes to.
 */
#ifndef CORETRACE_BPF_RING_H
#define CORETRACE_BPF_RING_H

#include "maps.h"

/*
 * The ring. Two layouts, chosen at load time (ct_per_cpu_rings):
 *  - one ring shared by all CPUs (ct_ring), the default: one mmap, one
 *    epoll source, records of all CPUs in reservation order;
 *  - one ring per CPU (ct_rings, an array of rings indexed by CPU), for
 *    machines where many CPUs contend on one ring's producer lock.
 * Measured with `make bench-ring` (2 vCPUs, TCG, two ping-pong pairs,
 * sched_switch + sched_waking + sched_wakeup, medians of 5): the four
 * layouts cost 11-15 us per record under emulation, within the run-to-run
 * noise of the untraced baseline (2.9-6.3 s), so no layout wins on two
 * CPUs. The shared ring is the default: one ordered stream, one epoll
 * source, a quarter of the memory of 4 per-CPU rings at the same size.
 * Per-CPU rings stay an option (--per-cpu-rings) for many-CPU machines.
 *
 * Wakeups: records are submitted with BPF_RB_NO_WAKEUP and user space
 * drains the ring on a 100 ms timer, forcing a wakeup only once a ring
 * holds ct_wakeup_bytes (a quarter of it, set at load). The kernel's
 * default adaptive wakeup fires whenever the consumer has caught up, and
 * the consumer's own switch back to sleep then writes the next record
 * and wakes it again: measured in the guest, a feedback loop of ~6000
 * coretrace <-> idle switches a second on an otherwise quiet CPU (10 a
 * second with batching). Batching keeps delivery on a quiet system under
 * the 200 ms goal: rename-to-output latency max 97 ms, median 2 ms
 * (per-record wakeups: max 3 ms). --wakeup=always restores them.
 *
 * Only the records that carry a ring across ct_wakeup_bytes force the
 * wakeup (the window is wider than the largest record, so one of them
 * lands in it): forcing it on every record above the mark queued an
 * irq_work, and on x86 a self-IPI, per record while a consumer that was
 * already runnable waited for the CPU. make bench, timersleep (64 threads
 * keep the consumer behind): 1207 -> 1076 instructions per event on the
 * padded kernel, 1280 -> 1131 on the stock one; pingpong, whose consumer
 * keeps up, unchanged. If the wakeup comes while the consumer drains, its
 * next epoll_wait returns at once; the 100 ms timer is the backstop.
 *
 * Asking the ring how full it is is a helper call, so only one record in
 * about 16 asks (those stamped in the first of 16 microseconds, from bits
 * of the timestamp the record already has), and the window is wide enough
 * that one of them lands in it.
 */
#define CT_WAKEUP_WINDOW	(16 << 10)
#define CT_WAKEUP_SAMPLE(ts_low)	((((ts_low) >> 10) & 15) == 0)

/* Fill a record's header, on the CPU ct_reserve() said; returns its time */
static __always_inline __u64 ct_fill_hdr(void *record, __u8 event_type,
					 __u32 cpu)
{
	struct ct_hdr *hdr = record;
	__u64 now = bpf_ktime_get_ns();

	hdr->ts_high = (__u32)(now >> 32);
	hdr->cpu = (__u16)cpu;
	hdr->flags = 0;
	hdr->type = event_type;
	hdr->ts_low = (__u32)now;
	return now;
}

static __always_inline struct ct_counts *ct_counts_at(__u32 cpu,
						     __u32 event_type)
{
	__u32 slot = cpu * CT_STATS_STRIDE + event_type;

	return bpf_map_lookup_elem(&ct_stats, &slot);
}

static __always_inline struct ct_counts *ct_counts_of(__u32 event_type)
{
	return ct_counts_at(bpf_get_smp_processor_id(), event_type);
}

static __always_inline void ct_count_filtered(__u32 event_type)
{
	struct ct_counts *counts = ct_counts_of(event_type);

	if (counts)
		counts->filtered++;
}

/*
 * Helpers are calls the compiler cannot move: a read-only switch that
 * the verifier resolves (ct_per_cpu_rings, ct_filter_cpus) is tested
 * before the helper whose answer only its other branch needs, so that the
 * helper call goes with the dead branch (6.1 inlines neither the CPU id
 * nor a per-CPU lookup).
 */
static __always_inline void *ct_ring_of(__u32 cpu)
{
	if (!ct_per_cpu_rings)
		return &ct_ring;
	return bpf_map_lookup_elem(&ct_rings, &cpu);
}

static __always_inline void *ct_ring_for_cpu(void)
{
	if (!ct_per_cpu_rings)
		return &ct_ring;
	return ct_ring_of(bpf_get_smp_processor_id());
}

/*
 * Reserve room for one record, counting the attempt; @cpu for its header
 * (the one CPU id a record costs). The caller checks the result once and
 * counts a failure with ct_count_lost(): a second NULL check of the same
 * pointer here would leave the verifier unsure that a reserved record is
 * always submitted (the compiler merges the two).
 */
static __always_inline void *ct_reserve(__u32 event_type, __u32 size,
					__u32 *cpu)
{
	struct ct_counts *counts;
	void *ring;

	*cpu = bpf_get_smp_processor_id();
	counts = ct_counts_at(*cpu, event_type);
	ring = ct_ring_of(*cpu);
	if (counts)
		counts->attempted++;
	if (!ring)
		return NULL;
	return bpf_ringbuf_reserve(ring, size, 0);
}

static __always_inline void ct_count_lost(__u32 event_type)
{
	struct ct_counts *counts = ct_counts_of(event_type);

	if (counts)
		counts->lost++;
}

/* Hand a record to user space, waking it only when the ring fills up. */
static __always_inline void ct_submit(void *rec)
{
	void *ring = ct_ring_for_cpu();
	__u64 flags = BPF_RB_NO_WAKEUP;

	__u64 avail;

	if (ct_wakeup_always) {
		flags = 0;
	} else if (ring && CT_WAKEUP_SAMPLE(((struct ct_hdr *)rec)->ts_low)) {
		/* the records that carry the ring across the mark, not all after */
		avail = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
		if (avail >= ct_wakeup_bytes &&
		    avail < ct_wakeup_bytes + CT_WAKEUP_WINDOW)
			flags = BPF_RB_FORCE_WAKEUP;
	}
	bpf_ringbuf_submit(rec, flags);
}

#endif /* CORETRACE_BPF_RING_H */
