// SPDX-License-Identifier: GPL-2.0
/*
 * Negative control, test code only: a sched_switch handler that reads
 * prev_pid at the offset the stock 6.1 layout has, frozen at compile
 * time. No CO-RE: this struct is declared after vmlinux.h pops its
 * preserve_access_index attribute, so clang bakes the offsets in, as a C
 * struct baked them into powertop in 2011. It counts the switches whose
 * prev_pid differs from the task that is switching out.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct frozen_sched_switch {
	__u64 common;		/* struct trace_entry, stock: 8 bytes */
	char prev_comm[16];
	int prev_pid;		/* offset 24, frozen */
	int prev_prio;
	long prev_state;
	char next_comm[16];
	int next_pid;
	int next_prio;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);		/* 0: switches, 1: misread prev_pid */
	__type(key, __u32);
	__type(value, __u64);
} frozen_counts SEC(".maps");

SEC("tp/sched/sched_switch")
int frozen_switch(struct frozen_sched_switch *ctx)
{
	__u32 current_pid = (__u32)bpf_get_current_pid_tgid();
	__u32 key = 0;
	__u64 *count;

	count = bpf_map_lookup_elem(&frozen_counts, &key);
	if (count)
		__sync_fetch_and_add(count, 1);
	if ((__u32)ctx->prev_pid == current_pid)
		return 0;
	key = 1;
	count = bpf_map_lookup_elem(&frozen_counts, &key);
	if (count)
		__sync_fetch_and_add(count, 1);
	return 0;
}
