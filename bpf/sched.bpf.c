// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler events: switches, wakeups, migrations (sched:sched_switch,
 * sched_wakeup, sched_wakeup_new, sched_waking, sched_migrate_task).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"
#include "helpers/announce.h"
#include "helpers/trigger.h"

/*
 * next_comm into the record: two loads where the field is 8-byte aligned
 * in the kernel's record (it follows a long in 6.1, padded or not), one
 * bpf_probe_read_kernel() call otherwise. The offset is a CO-RE constant,
 * so the verifier keeps only the branch this kernel takes.
 */
static __always_inline void
ct_copy_next_comm(char *dst, struct trace_event_raw_sched_switch *ctx)
{
	__u64 *words = (__u64 *)dst;

	if (bpf_core_field_offset(ctx->next_comm) & 7) {
		bpf_probe_read_kernel(dst, CT_COMM_LEN, ctx->next_comm);
		return;
	}
	words[0] = *(__u64 *)&ctx->next_comm[0];
	words[1] = *(__u64 *)&ctx->next_comm[8];
}

SEC("tp/sched/sched_switch")
int handle_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 cpu;
	__u32 current_pid = ct_current_tid();
	__u32 prev_pid = ctx->prev_pid;
	__u32 next_pid = ctx->next_pid;
	struct ct_sched_switch *rec;
	__u64 now;
	bool want;

	want = ct_want2(CT_EV_SCHED_SWITCH, prev_pid, ctx->prev_comm, next_pid,
			ctx->next_comm);
	/* -G: a task switched out for the last time leaves the groups */
	if (ct_filter_cgroups && (ctx->prev_state & CT_STATE_EXITED))
		ct_cg_remember(prev_pid, false);
	if (!want)
		return 0;
	/*
	 * The record names the task it switches in (next_comm); the one
	 * switched out is announced, with its group, the first time.
	 */
	ct_announce_task(prev_pid, ctx->prev_comm, prev_pid == current_pid);

	rec = ct_reserve(CT_EV_SCHED_SWITCH, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_SWITCH);
		ct_trig_switch_delays(ctx, prev_pid, next_pid, ct_trig_now());
		return 0;
	}
	now = ct_fill_hdr(rec, CT_EV_SCHED_SWITCH, cpu);
	if (prev_pid != current_pid)
		rec->flags |= CT_F_PID_MISMATCH;
	rec->prev_pid = prev_pid;
	rec->next_pid = next_pid;
	rec->prev_state = (__u16)ctx->prev_state;
	rec->prev_prio = (__u8)ctx->prev_prio;
	rec->next_prio = (__u8)ctx->next_prio;
	ct_copy_next_comm(rec->next_comm, ctx);
	ct_submit(rec);
	ct_trig_switch_delays(ctx, prev_pid, next_pid, now);
	return 0;
}

static __always_inline int
ct_emit_wakeup(__u32 event_type, struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_wakeup *rec;
	__u64 now;

	if (!ct_want(event_type, pid, ctx->comm))
		return 0;
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		if (event_type != CT_EV_SCHED_WAKING)
			ct_trig_runnable(pid, ct_trig_now());
		return 0;
	}
	now = ct_fill_hdr(rec, event_type, cpu);
	rec->pid = pid;
	rec->target_cpu = (__u16)ctx->target_cpu;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	if (event_type != CT_EV_SCHED_WAKING)
		ct_trig_runnable(pid, now);
	return 0;
}

SEC("tp/sched/sched_wakeup")
int handle_sched_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKEUP, ctx);
}

SEC("tp/sched/sched_wakeup_new")
int handle_sched_wakeup_new(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKEUP_NEW, ctx);
}

SEC("tp/sched/sched_waking")
int handle_sched_waking(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKING, ctx);
}

SEC("tp/sched/sched_migrate_task")
int handle_sched_migrate_task(struct trace_event_raw_sched_migrate_task *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_migrate *rec;

	if (!ct_want(CT_EV_SCHED_MIGRATE_TASK, pid, ctx->comm))
		return 0;
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(CT_EV_SCHED_MIGRATE_TASK, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_MIGRATE_TASK);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_MIGRATE_TASK, cpu);
	rec->pid = pid;
	rec->orig_cpu = (__u16)ctx->orig_cpu;
	rec->dest_cpu = (__u16)ctx->dest_cpu;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	return 0;
}
