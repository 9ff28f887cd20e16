// SPDX-License-Identifier: GPL-2.0
/*
 * Negative control, test code only: sched_switch read through a type
 * flavor with a field no kernel has. read_unguarded reads it blindly and
 * must fail to load; read_guarded asks bpf_core_field_exists() first and
 * records that the field is absent.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct trace_event_raw_sched_switch___future {
	int prev_pid;
	int prev_cgroup_id;	/* not in any 6.1 kernel */
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);		/* 0: hits, 1: hits where the field existed */
	__type(key, __u32);
	__type(value, __u64);
} field_counts SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *value = bpf_map_lookup_elem(&field_counts, &key);

	if (value)
		__sync_fetch_and_add(value, 1);
}

SEC("tp/sched/sched_switch")
int read_unguarded(struct trace_event_raw_sched_switch___future *ctx)
{
	count(0);
	if (ctx->prev_cgroup_id)
		count(1);
	return 0;
}

SEC("tp/sched/sched_switch")
int read_guarded(struct trace_event_raw_sched_switch___future *ctx)
{
	count(0);
	if (bpf_core_field_exists(ctx->prev_cgroup_id) && ctx->prev_cgroup_id >= 0)
		count(1);
	return 0;
}
