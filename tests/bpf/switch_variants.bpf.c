// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark only (issue 8): the same sched_switch record made two ways.
 * switch_tp reads the classic tracepoint's record, as coretrace does
 * (fields relocated by CO-RE); switch_btf is a tp_btf program that gets
 * the typed arguments (prev and next task_struct) and reads the tasks
 * directly, with no record copied by the kernel. Each writes coretrace's
 * struct ct_sched_switch (40 bytes, next_comm included) into one ring
 * buffer. The tool loads one
 * of them; tests/guest/bench-tpbtf times a ping-pong under each.
 *
 * With the other five minimal handlers below (variant "all" of the tool:
 * reserve, fill the fields coretrace's record has, submit; no filter,
 * counter or name announcement), switch_tp is make bench's "minimal"
 * tracer: the least a classic-tracepoint design can cost for the
 * benchmark's six events, against which coretrace's cost is judged.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "ct_abi.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} sv_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sv_lost SEC(".maps");

/* a record of @size with its header filled, or NULL (counted as lost) */
static __always_inline void *sv_reserve_type(__u32 size, __u8 type)
{
	struct ct_hdr *rec;
	__u32 key = 0;
	__u64 *lost;

	rec = bpf_ringbuf_reserve(&sv_ring, size, 0);
	if (rec) {
		__u64 now = bpf_ktime_get_ns();

		rec->ts_high = (__u32)(now >> 32);
		rec->cpu = (__u16)bpf_get_smp_processor_id();
		rec->flags = 0;
		rec->type = type;
		rec->ts_low = (__u32)now;
		return rec;
	}
	lost = bpf_map_lookup_elem(&sv_lost, &key);
	if (lost)
		*lost += 1;
	return NULL;
}

static __always_inline struct ct_sched_switch *sv_reserve(void)
{
	return sv_reserve_type(sizeof(struct ct_sched_switch),
			       CT_EV_SCHED_SWITCH);
}

SEC("tp/sched/sched_switch")
int switch_tp(struct trace_event_raw_sched_switch *ctx)
{
	struct ct_sched_switch *rec = sv_reserve();

	if (!rec)
		return 0;
	rec->prev_pid = ctx->prev_pid;
	rec->next_pid = ctx->next_pid;
	rec->prev_state = (__u16)ctx->prev_state;
	rec->prev_prio = (__u8)ctx->prev_prio;
	rec->next_prio = (__u8)ctx->next_prio;
	/* 8-byte aligned in 6.1's record, padded or not, as coretrace reads it */
	*(__u64 *)&rec->next_comm[0] = *(__u64 *)&ctx->next_comm[0];
	*(__u64 *)&rec->next_comm[8] = *(__u64 *)&ctx->next_comm[8];
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

/*
 * switch_tp without next_comm: the 24-byte record of ABI 3, in a
 * 24-byte reservation (32 in the ring against 48): what carrying the
 * name switched in costs BPF and the ring (make bench-tpbtf, same boot)
 */
SEC("tp/sched/sched_switch")
int switch_tp_nocomm(struct trace_event_raw_sched_switch *ctx)
{
	struct ct_sched_switch *rec = sv_reserve_type(
		offsetof(struct ct_sched_switch, next_comm), CT_EV_SCHED_SWITCH);

	if (!rec)
		return 0;
	rec->prev_pid = ctx->prev_pid;
	rec->next_pid = ctx->next_pid;
	rec->prev_state = (__u16)ctx->prev_state;
	rec->prev_prio = (__u8)ctx->prev_prio;
	rec->next_prio = (__u8)ctx->next_prio;
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

/* 6.1: TP_PROTO(bool preempt, struct task_struct *prev, struct task_struct *next, unsigned int prev_state) */
SEC("tp_btf/sched_switch")
int BPF_PROG(switch_btf, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct ct_sched_switch *rec = sv_reserve();

	(void)ctx;		/* BPF_PROG's raw arguments, unused */
	if (!rec)
		return 0;
	rec->prev_pid = prev->pid;
	rec->next_pid = next->pid;
	/* the tracepoint's report: preempted is R+ (TASK_REPORT_MAX) */
	rec->prev_state = preempt ? 0x100 : (__u16)(prev_state & 0xff);
	rec->prev_prio = (__u8)prev->prio;
	rec->next_prio = (__u8)next->prio;
	__builtin_memcpy(rec->next_comm, next->comm, CT_COMM_LEN);
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

static __always_inline int
sv_wakeup(struct trace_event_raw_sched_wakeup_template *ctx, __u8 type)
{
	struct ct_wakeup *rec = sv_reserve_type(sizeof(*rec), type);

	if (!rec)
		return 0;
	rec->pid = ctx->pid;
	rec->target_cpu = (__u16)ctx->target_cpu;
	rec->prio = (__u8)ctx->prio;
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp/sched/sched_wakeup")
int min_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return sv_wakeup(ctx, CT_EV_SCHED_WAKEUP);
}

SEC("tp/sched/sched_wakeup_new")
int min_wakeup_new(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return sv_wakeup(ctx, CT_EV_SCHED_WAKEUP_NEW);
}

SEC("tp/sched/sched_process_fork")
int min_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	struct ct_fork *rec = sv_reserve_type(sizeof(*rec),
					      CT_EV_SCHED_PROCESS_FORK);

	if (!rec)
		return 0;
	rec->parent_pid = ctx->parent_pid;
	rec->child_pid = ctx->child_pid;
	bpf_probe_read_kernel(rec->child_comm, sizeof(rec->child_comm),
			      ctx->child_comm);
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp/sched/sched_process_exec")
int min_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	struct ct_exec *rec = sv_reserve_type(sizeof(*rec),
					      CT_EV_SCHED_PROCESS_EXEC);
	__u32 loc = ctx->__data_loc_filename;

	if (!rec)
		return 0;
	rec->pid = ctx->pid;
	rec->old_pid = ctx->old_pid;
	if (bpf_probe_read_kernel_str(rec->filename, sizeof(rec->filename),
				      (void *)ctx + (loc & 0xffff)) < 0)
		rec->filename[0] = '\0';
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp/sched/sched_process_exit")
int min_exit(struct trace_event_raw_sched_process_template *ctx)
{
	struct ct_exit *rec = sv_reserve_type(sizeof(*rec),
					      CT_EV_SCHED_PROCESS_EXIT);

	if (!rec)
		return 0;
	rec->pid = ctx->pid;
	rec->prio = (__u8)ctx->prio;
	bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	return 0;
}
