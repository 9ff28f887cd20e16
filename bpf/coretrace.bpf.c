// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace's BPF side: one handler per tracepoint, each reading the
 * kernel's record through CO-RE relocated offsets (vmlinux.h types carry
 * preserve_access_index) and writing a compact record of ct_abi.h into
 * the ring buffer.
 *
 * Rules that hold in every handler:
 *  - never read struct trace_entry (the common fields): for classic
 *    tracepoints the kernel has overwritten its first 8 bytes with a
 *    pt_regs pointer by the time we run; the current task comes from
 *    bpf_get_current_pid_tgid();
 *  - every record attempt is counted and every failed reservation is
 *    counted as lost, per CPU and per event type (ct_stats).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "ct_abi.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * One ring buffer shared by all CPUs; user space sizes it at load time
 * (--buffer-size).
 *
 * Wakeups: records are submitted with BPF_RB_NO_WAKEUP and user space
 * drains the ring on a 100 ms timer, forcing a wakeup only once the ring
 * holds ct_wakeup_bytes (a quarter of it, set at load). The kernel's
 * default adaptive wakeup fires whenever the consumer has caught up, and
 * the consumer's own switch back to sleep then writes the next record
 * and wakes it again: measured in the guest, a feedback loop of ~6000
 * coretrace <-> idle switches a second on an otherwise quiet CPU.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} ct_ring SEC(".maps");

const volatile __u64 ct_wakeup_bytes = 1 << 20;

/* Records attempted and lost, per CPU, one slot per event type. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CT_EV_MAX);
	__type(key, __u32);
	__type(value, struct ct_counts);
} ct_stats SEC(".maps");

/*
 * Pids whose name user space has been told about. sched_switch carries
 * no comm strings; the first time a pid shows up we emit a ct_comm record
 * instead. LRU, so pids that stopped running age out.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} ct_announced SEC(".maps");

#define CT_FILL_HDR(rec, event_type)				\
	do {							\
		(rec)->ts = bpf_ktime_get_ns();			\
		(rec)->type = (event_type);			\
		(rec)->flags = 0;				\
		(rec)->cpu = bpf_get_smp_processor_id();	\
	} while (0)

/* Reserve room for one record, counting the attempt and any loss. */
static __always_inline void *ct_reserve(__u32 event_type, __u32 size)
{
	struct ct_counts *counts;
	void *rec;

	counts = bpf_map_lookup_elem(&ct_stats, &event_type);
	if (counts)
		counts->attempted++;
	rec = bpf_ringbuf_reserve(&ct_ring, size, 0);
	if (!rec && counts)
		counts->lost++;
	return rec;
}

/* Hand a record to user space, waking it only when the ring fills up. */
static __always_inline void ct_submit(void *rec)
{
	__u64 flags = BPF_RB_NO_WAKEUP;

	if (bpf_ringbuf_query(&ct_ring, BPF_RB_AVAIL_DATA) >= ct_wakeup_bytes)
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(rec, flags);
}

/* Tell user space the name of @pid, once; @comm points into the ctx. */
static __always_inline void ct_announce(__u32 pid, const char *comm)
{
	struct ct_comm *rec;
	__u8 one = 1;

	if (pid == 0 || bpf_map_lookup_elem(&ct_announced, &pid))
		return;
	rec = ct_reserve(CT_EV_COMM, sizeof(*rec));
	if (!rec)
		return;	/* not marked: we try again at its next switch */
	CT_FILL_HDR(rec, CT_EV_COMM);
	rec->pid = pid;
	bpf_probe_read_kernel(rec->comm, sizeof(rec->comm), comm);
	ct_submit(rec);
	bpf_map_update_elem(&ct_announced, &pid, &one, BPF_ANY);
}

SEC("tp/sched/sched_switch")
int handle_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 current_pid = (__u32)bpf_get_current_pid_tgid();
	__u32 prev_pid = ctx->prev_pid;
	__u32 next_pid = ctx->next_pid;
	struct ct_sched_switch *rec;

	ct_announce(prev_pid, ctx->prev_comm);
	ct_announce(next_pid, ctx->next_comm);

	rec = ct_reserve(CT_EV_SCHED_SWITCH, sizeof(*rec));
	if (!rec)
		return 0;
	CT_FILL_HDR(rec, CT_EV_SCHED_SWITCH);
	if (prev_pid != current_pid)
		rec->flags |= CT_F_PID_MISMATCH;
	rec->prev_pid = prev_pid;
	rec->next_pid = next_pid;
	rec->prev_state = (__u16)ctx->prev_state;
	rec->prev_prio = (__u8)ctx->prev_prio;
	rec->next_prio = (__u8)ctx->next_prio;
	ct_submit(rec);
	return 0;
}

SEC("tp/task/task_rename")
int handle_task_rename(struct trace_event_raw_task_rename *ctx)
{
	__u32 pid = ctx->pid;
	struct ct_task_rename *rec;
	__u8 one = 1;

	rec = ct_reserve(CT_EV_TASK_RENAME, sizeof(*rec));
	if (!rec) {
		/* forget the old name: the next switch announces the new one */
		bpf_map_delete_elem(&ct_announced, &pid);
		return 0;
	}
	CT_FILL_HDR(rec, CT_EV_TASK_RENAME);
	rec->pid = pid;
	bpf_probe_read_kernel(rec->newcomm, sizeof(rec->newcomm),
			      ctx->newcomm);
	ct_submit(rec);
	bpf_map_update_elem(&ct_announced, &pid, &one, BPF_ANY);
	return 0;
}
