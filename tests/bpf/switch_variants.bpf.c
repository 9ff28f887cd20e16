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

static __always_inline struct ct_sched_switch *sv_reserve(void)
{
	struct ct_sched_switch *rec;
	__u32 key = 0;
	__u64 *lost;

	rec = bpf_ringbuf_reserve(&sv_ring, sizeof(*rec), 0);
	if (rec) {
		__u64 now = bpf_ktime_get_ns();

		rec->ts_high = (__u32)(now >> 32);
		rec->cpu = (__u16)bpf_get_smp_processor_id();
		rec->flags = 0;
		rec->type = CT_EV_SCHED_SWITCH;
		rec->ts_low = (__u32)now;
		return rec;
	}
	lost = bpf_map_lookup_elem(&sv_lost, &key);
	if (lost)
		*lost += 1;
	return NULL;
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
