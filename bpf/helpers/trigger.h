/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers (record --trigger-*): the conditions the record handlers
 * check, and the one ct_trigger record that tells user space one held.
 */
#ifndef CORETRACE_BPF_TRIGGER_H
#define CORETRACE_BPF_TRIGGER_H

#include "ring.h"
#include "filter.h"

/*
 * A trigger's condition held: one ct_trigger record, unless what it
 * measured began before the triggers were armed (coretrace's own start),
 * the cooldown since the last one has not passed or the maximum has
 * fired.
 */
static __always_inline void ct_fire(__u8 kind, __u32 pid, __u32 source,
				    __u64 value_ns)
{
	__u32 zero = 0;
	struct ct_trigger_state *st = bpf_map_lookup_elem(&ct_trig_state, &zero);
	void *ring = ct_ring_for_cpu();
	struct ct_trigger *rec;
	__u64 now = bpf_ktime_get_ns();

	if (!st || !ring)
		return;
	if (!ct_trig_armed_ns || now - value_ns < ct_trig_armed_ns) {
		__sync_fetch_and_add(&st->before_armed, 1);
		return;
	}
	if ((ct_trig_max && st->fired >= ct_trig_max) || now < st->next_ns) {
		__sync_fetch_and_add(&st->held_back, 1);
		return;
	}
	st->next_ns = now + ct_trig_cooldown_ns;
	rec = bpf_ringbuf_reserve(ring, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&st->lost, 1);
		st->next_ns = 0;	/* the next time it holds may tell */
		return;
	}
	__sync_fetch_and_add(&st->fired, 1);
	rec->ts_high = (__u32)(now >> 32);
	rec->cpu = (__u16)bpf_get_smp_processor_id();
	rec->flags = 0;
	rec->type = CT_REC_TRIGGER;
	rec->ts_low = (__u32)now;
	rec->pid = pid;
	rec->kind = kind;
	rec->reserved[0] = rec->reserved[1] = rec->reserved[2] = 0;
	rec->source = source;
	rec->value_ns = value_ns;
	/* rare, and user space has a window to keep: wake it now */
	bpf_ringbuf_submit(rec, BPF_RB_FORCE_WAKEUP);
}

/* --trigger-pid/--trigger-tid: is @tid a task whose delays are watched? */
static __always_inline bool ct_trig_task_ok(__u32 tid)
{
	if (ct_trig_tid && tid != ct_trig_tid)
		return false;
	if (ct_trig_tgid && !bpf_map_lookup_elem(&ct_trig_tids, &tid))
		return false;
	return true;
}

/*
 * The times triggers measure are the records' own (the @now passed in),
 * so that a snapshot shows the trigger's figure to the nanosecond. A
 * wakeup or switch the ring had no room for takes the clock here; an
 * interrupt or softirq whose entry or exit record was lost is not
 * measured (the lost records are counted, and the verifier walks a
 * quarter more of these short handlers when their lost paths measure too).
 */
static __always_inline __u64 ct_trig_now(void)
{
	return ct_trig_delay_ns ? bpf_ktime_get_ns() : 0;
}

/* @tid became runnable (woken, or preempted while it could run) */
static __always_inline void ct_trig_runnable(__u32 tid, __u64 now)
{
	struct ct_runnable_slot *slot;

	if (!ct_trig_delay_ns || !tid || !ct_trig_task_ok(tid))
		return;
	slot = ct_runnable_slot(tid);
	if (!slot)
		return;
	slot->pid = tid;
	slot->since = now;
}

/* @tid runs: how long since it became runnable? */
static __always_inline void ct_trig_switch_in(__u32 tid, __u64 now)
{
	struct ct_runnable_slot *slot;
	__u64 delay;

	if (!ct_trig_delay_ns)
		return;
	slot = ct_runnable_slot(tid);
	if (!slot || slot->pid != tid || !tid)
		return;
	delay = now - slot->since;
	slot->pid = 0;
	if (delay >= ct_trig_delay_ns)
		ct_fire(CT_TRIG_DELAY, tid, 0, delay);
}

/* An interrupt (@slot 0) or softirq (1) begins on this CPU */
static __always_inline void ct_trig_enter(__u32 slot, __u32 source, __u64 now)
{
	struct ct_irq_start *start;

	if (!ct_trig_irq_ns)
		return;
	start = bpf_map_lookup_elem(&ct_irq_start, &slot);
	if (!start)
		return;
	start->ts = now;
	start->source = source;
}

/* ... and ends: did it run longer than the threshold? */
static __always_inline void ct_trig_leave(__u32 slot, __u8 kind, __u64 now)
{
	struct ct_irq_start *start;
	__u64 ran;

	if (!ct_trig_irq_ns)
		return;
	start = bpf_map_lookup_elem(&ct_irq_start, &slot);
	if (!start || !start->ts)
		return;
	ran = now - start->ts;
	start->ts = 0;
	if (ran >= ct_trig_irq_ns)
		ct_fire(kind, ct_current_tid(), start->source, ran);
}

/* --trigger-exec: the current task's new name is the one asked for */
static __always_inline bool ct_exec_matches(void)
{
	char name[CT_COMM_LEN];
	__u32 i;

	bpf_get_current_comm(name, sizeof(name));
#pragma unroll
	for (i = 0; i < CT_COMM_LEN; i++) {
		if (i >= ct_trig_exec_len)
			break;
		if (name[i] != ct_trig_exec_comm[i])
			return false;
	}
	return ct_trig_exec_len >= CT_COMM_LEN ||
	       name[ct_trig_exec_len & (CT_COMM_LEN - 1)] == '\0';
}

/* A switch: prev may still run (preempted), next's wait ends */
static __always_inline void
ct_trig_switch_delays(struct trace_event_raw_sched_switch *ctx, __u32 prev_pid,
		      __u32 next_pid, __u64 now)
{
	if (!ct_trig_delay_ns)
		return;
	/* state bits 0..7 clear: R, runnable (bit 8: preempted) */
	if (!(ctx->prev_state & 0xff))
		ct_trig_runnable(prev_pid, now);
	ct_trig_switch_in(next_pid, now);
}


/* A softirq's entry or exit, for --trigger-irq */
static __always_inline void ct_trig_softirq(__u32 event_type, __u32 vec, __u64 now)
{
	if (event_type == CT_EV_SOFTIRQ_ENTRY)
		ct_trig_enter(1, vec, now);
	else
		ct_trig_leave(1, CT_TRIG_SOFTIRQ, now);
}

#endif /* CORETRACE_BPF_TRIGGER_H */
