// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace serve: programs of their own on the tracepoints serve watches,
 * which add up in the serve maps (ct_serve.h) instead of writing records.
 * The loader loads them instead of the record handlers (serve_* in place
 * of handle_*), as it picks the cgroup programs: a recording never runs
 * their code, and they never run a recording's.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/ring.h"

/*
 * coretrace serve: what each handler adds up. The event is counted as
 * attempted in ct_stats (coretrace_events_total), and as lost when it
 * could not be added (a full table, an idle state past CT_IDLE_STATES).
 */
struct ct_agg_ctx {
	struct ct_agg_cpu *row;
	struct ct_counts *counts;
	__u64 now;
};

/* The CPU's row and the event's counts; false when not serving yet */
static __always_inline bool ct_agg_begin(struct ct_agg_ctx *a, __u32 event_type)
{
	__u32 cpu;

	if (!ct_tracing)
		return false;
	cpu = bpf_get_smp_processor_id();
	a->counts = ct_counts_at(cpu, event_type);
	a->row = bpf_map_lookup_elem(&ct_agg_cpus, &cpu);
	a->now = bpf_ktime_get_ns();
	if (a->counts)
		a->counts->attempted++;
	return a->row != NULL;
}

static __always_inline void ct_agg_lost(struct ct_agg_ctx *a)
{
	if (a->counts)
		a->counts->lost++;
}

/* The entry of group @id: found, or a free one taken, or the folded one */
static __always_inline __u32 ct_agg_index(__u64 id)
{
	__u32 *known = bpf_map_lookup_elem(&ct_agg_group_ids, &id), fresh;
	struct ct_agg_cgroup *g;
	__u8 one = 1;

	if (known)
		return *known;
	if (id == CT_AGG_CG_UNKNOWN)
		return CT_AGG_IDX_UNKNOWN;
	if (bpf_map_pop_elem(&ct_agg_free, &fresh)) {
		bpf_map_update_elem(&ct_agg_folded, &id, &one, BPF_NOEXIST);
		return CT_AGG_IDX_FOLDED;
	}
	g = bpf_map_lookup_elem(&ct_agg_groups, &fresh);
	if (!g)
		return CT_AGG_IDX_FOLDED;
	g->id = id;
	if (bpf_map_update_elem(&ct_agg_group_ids, &id, &fresh, BPF_NOEXIST)) {
		/* another CPU gave it one meanwhile: this entry goes back */
		g->id = 0;
		bpf_map_push_elem(&ct_agg_free, &fresh, 0);
		known = bpf_map_lookup_elem(&ct_agg_group_ids, &id);
		return known ? *known : CT_AGG_IDX_FOLDED;
	}
	return fresh;
}

/*
 * The sums of group @id, whose entry was @index when last looked at: that
 * entry while it is still the group's (or the folded one), else looked up
 */
static __always_inline struct ct_agg_cgroup *ct_agg_group(__u64 id, __u32 *index)
{
	struct ct_agg_cgroup *g = bpf_map_lookup_elem(&ct_agg_groups, index);

	if (g && (g->id == id || *index == CT_AGG_IDX_FOLDED))
		return g;
	*index = ct_agg_index(id);
	return bpf_map_lookup_elem(&ct_agg_groups, index);
}

/* @tid's group as last seen (slot), CT_AGG_CG_UNKNOWN when it was not */
static __always_inline __u64 ct_agg_task_group(struct ct_runnable_slot *slot,
					       __u32 tid, __u32 *index)
{
	if (slot && slot->pid == tid) {
		*index = slot->group;
		return slot->cgroup;
	}
	*index = CT_AGG_IDX_UNKNOWN;
	return CT_AGG_CG_UNKNOWN;
}

/* prev ran since the last switch; next waited since it became runnable */
static __always_inline int
ct_agg_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 prev_pid = ctx->prev_pid, next_pid = ctx->next_pid;
	struct ct_runnable_slot *slot;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group, delay;
	__u32 bucket, index;

	if (!ct_agg_begin(&a, CT_EV_SCHED_SWITCH))
		return 0;
	if (prev_pid) {
		group = bpf_get_current_cgroup_id();
		slot = ct_runnable_slot(prev_pid);
		index = CT_AGG_IDX_UNKNOWN;
		if (slot && slot->pid == prev_pid && slot->cgroup == group)
			index = slot->group;
		g = ct_agg_group(group, &index);
		if (g) {
			if (a.row->switch_ns)
				__sync_fetch_and_add(&g->oncpu_ns,
						     a.now - a.row->switch_ns);
			__sync_fetch_and_add(&g->switches, 1);
		}
		if (slot) {
			slot->pid = prev_pid;
			slot->group = index;
			slot->cgroup = group;
			/* state bits 0..7 clear: still runnable (preempted) */
			slot->since = (ctx->prev_state & 0xff) ? 0 : a.now;
		}
	}
	a.row->switch_ns = a.now;
	if (!next_pid)
		return 0;
	slot = ct_runnable_slot(next_pid);
	if (!slot || slot->pid != next_pid || !slot->since)
		return 0;	/* runnable since before serving began */
	delay = a.now - slot->since;
	slot->since = 0;
	index = slot->group;
	g = ct_agg_group(slot->cgroup, &index);
	if (!g) {
		ct_agg_lost(&a);
		return 0;
	}
	slot->group = index;
	bucket = ct_delay_bucket(delay);
	__sync_fetch_and_add(&g->delay_sum_ns, delay);
	if (bucket < CT_DELAY_BUCKETS)
		__sync_fetch_and_add(&g->delay[bucket], 1);
	return 0;
}

/*
 * A task woken (or a new one, in its parent's group, the current one)
 * waits from now; its group counts the wakeup.
 */
static __always_inline int
ct_agg_wakeup(__u32 event_type, struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 pid = ctx->pid;
	struct ct_runnable_slot *slot;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group;
	__u32 index;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	slot = ct_runnable_slot(pid);
	if (!slot)
		return 0;
	if (event_type == CT_EV_SCHED_WAKEUP_NEW) {
		group = bpf_get_current_cgroup_id();
		index = CT_AGG_IDX_UNKNOWN;
	} else {
		group = ct_agg_task_group(slot, pid, &index);
	}
	g = ct_agg_group(group, &index);
	slot->pid = pid;
	slot->group = index;
	slot->cgroup = group;
	slot->since = a.now;
	if (g)
		__sync_fetch_and_add(&g->wakeups, 1);
	else
		ct_agg_lost(&a);
	return 0;
}

static __always_inline int
ct_agg_migrate(struct trace_event_raw_sched_migrate_task *ctx)
{
	__u32 pid = ctx->pid, index;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group;

	if (!ct_agg_begin(&a, CT_EV_SCHED_MIGRATE_TASK))
		return 0;
	group = ct_agg_task_group(ct_runnable_slot(pid), pid, &index);
	g = ct_agg_group(group, &index);
	if (g)
		__sync_fetch_and_add(&g->migrations, 1);
	else
		ct_agg_lost(&a);
	return 0;
}

/* serve: the time each CPU spends in each idle state */
static __always_inline int ct_agg_idle(struct trace_event_raw_cpu *ctx)
{
	__u32 state = ctx->state, was;
	struct ct_agg_ctx a;

	if (!ct_agg_begin(&a, CT_EV_CPU_IDLE))
		return 0;
	if (state != (__u32)CT_IDLE_EXIT) {
		a.row->idle_since = a.now;
		a.row->idle_state = state;
		return 0;
	}
	if (!a.row->idle_since)
		return 0;	/* idle since before serving began */
	was = a.row->idle_state;
	if (was < CT_IDLE_STATES) {
		a.row->idle_ns[was] += a.now - a.row->idle_since;
		a.row->idle_entries[was]++;
	} else {
		ct_agg_lost(&a);
	}
	a.row->idle_since = 0;
	return 0;
}

/* serve: interrupt handlers' time per irq (they do not nest) */
static __always_inline int ct_agg_irq(__u32 event_type, __u32 irq)
{
	struct ct_agg_irq *sum, zero = {};
	struct ct_agg_ctx a;
	__u64 ran;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	if (event_type == CT_EV_IRQ_HANDLER_ENTRY) {
		a.row->irq_since = a.now;
		a.row->irq = irq;
		return 0;
	}
	if (!a.row->irq_since || a.row->irq != irq)
		return 0;
	ran = a.now - a.row->irq_since;
	a.row->irq_since = 0;
	sum = bpf_map_lookup_elem(&ct_agg_irqs, &irq);
	if (!sum) {
		bpf_map_update_elem(&ct_agg_irqs, &irq, &zero, BPF_NOEXIST);
		sum = bpf_map_lookup_elem(&ct_agg_irqs, &irq);
	}
	if (!sum) {
		ct_agg_lost(&a);
		return 0;
	}
	__sync_fetch_and_add(&sum->ns, ran);
	__sync_fetch_and_add(&sum->count, 1);
	return 0;
}

/* serve: softirq time per vector, on this CPU's row */
static __always_inline int ct_agg_softirq(__u32 event_type, __u32 vec)
{
	struct ct_agg_ctx a;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	if (event_type == CT_EV_SOFTIRQ_ENTRY) {
		a.row->softirq_since = a.now;
		a.row->softirq_vec = vec;
		return 0;
	}
	if (!a.row->softirq_since || a.row->softirq_vec != vec)
		return 0;
	if (vec < CT_SOFTIRQS) {
		a.row->softirq_ns[vec] += a.now - a.row->softirq_since;
		a.row->softirq_count[vec]++;
	} else {
		ct_agg_lost(&a);
	}
	a.row->softirq_since = 0;
	return 0;
}

SEC("tp/sched/sched_switch")
int serve_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	return ct_agg_switch(ctx);
}

SEC("tp/sched/sched_wakeup")
int serve_sched_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_agg_wakeup(CT_EV_SCHED_WAKEUP, ctx);
}

SEC("tp/sched/sched_wakeup_new")
int serve_sched_wakeup_new(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_agg_wakeup(CT_EV_SCHED_WAKEUP_NEW, ctx);
}

SEC("tp/sched/sched_migrate_task")
int serve_sched_migrate_task(struct trace_event_raw_sched_migrate_task *ctx)
{
	return ct_agg_migrate(ctx);
}

SEC("tp/power/cpu_idle")
int serve_cpu_idle(struct trace_event_raw_cpu *ctx)
{
	return ct_agg_idle(ctx);
}

SEC("tp/irq/irq_handler_entry")
int serve_irq_handler_entry(struct trace_event_raw_irq_handler_entry *ctx)
{
	return ct_agg_irq(CT_EV_IRQ_HANDLER_ENTRY, ctx->irq);
}

SEC("tp/irq/irq_handler_exit")
int serve_irq_handler_exit(struct trace_event_raw_irq_handler_exit *ctx)
{
	return ct_agg_irq(CT_EV_IRQ_HANDLER_EXIT, ctx->irq);
}

SEC("tp/irq/softirq_entry")
int serve_softirq_entry(struct trace_event_raw_softirq *ctx)
{
	return ct_agg_softirq(CT_EV_SOFTIRQ_ENTRY, ctx->vec);
}

SEC("tp/irq/softirq_exit")
int serve_softirq_exit(struct trace_event_raw_softirq *ctx)
{
	return ct_agg_softirq(CT_EV_SOFTIRQ_EXIT, ctx->vec);
}
