/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The filters every handler applies before it reserves anything (-p, -t,
 * -c, -C, -G), and the gate every handler starts with (ct_want).
 */
#ifndef CORETRACE_BPF_FILTER_H
#define CORETRACE_BPF_FILTER_H

#include "ring.h"

/* -C: did this hit fire on an allowed CPU? */
static __always_inline bool ct_cpu_ok(void)
{
	__u32 cpu;

	if (!ct_filter_cpus)
		return true;
	cpu = bpf_get_smp_processor_id();
	return cpu < CT_MAX_CPUS && ct_cpu_allowed[cpu & (CT_MAX_CPUS - 1)];
}

/* Add the current thread to @tids when it belongs to process @tgid. */
static __always_inline void ct_learn_thread(void *tids, __u32 tgid)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;
	__u8 one = 1;

	if ((__u32)(pid_tgid >> 32) != tgid)
		return;
	if (!bpf_map_lookup_elem(tids, &tid))
		bpf_map_update_elem(tids, &tid, &one, BPF_ANY);
}

/* -p, --trigger-pid: remember the current thread when it is the process's. */
static __always_inline void ct_learn_current(void)
{
	if (ct_filter_tgid)
		ct_learn_thread(&ct_tids, ct_filter_tgid);
	if (ct_trig_tgid)
		ct_learn_thread(&ct_trig_tids, ct_trig_tgid);
}

static __always_inline bool ct_comm_matches(const char *comm)
{
	char name[CT_COMM_LEN];
	__u32 i;

	if (comm)
		bpf_probe_read_kernel(name, sizeof(name), comm);
	else
		bpf_get_current_comm(name, sizeof(name));
#pragma unroll
	for (i = 0; i < CT_COMM_LEN; i++) {
		if (i >= ct_filter_comm_len)
			break;
		if (name[i] != ct_filter_comm[i])
			return false;
	}
	/* an exact match also needs the name to end there */
	if (!ct_filter_comm_prefix && ct_filter_comm_len < CT_COMM_LEN)
		return name[ct_filter_comm_len & (CT_COMM_LEN - 1)] == '\0';
	return true;
}

/* -G: is the current task in one of the groups, or below one? */
static __always_inline bool ct_cg_current(void)
{
	__u32 i;

	for (i = 0; i < CT_MAX_CGROUPS; i++) {
		if (i >= ct_filter_cgroups)
			break;
		if (bpf_get_current_ancestor_cgroup_id(ct_cg_level[i]) ==
		    ct_cg_id[i])
			return true;
	}
	return false;
}

/* @tid's word of ct_cg_tids, or NULL */
static __always_inline __u64 *ct_cg_word(__u32 tid)
{
	__u32 word = tid / 64;

	return bpf_map_lookup_elem(&ct_cg_tids, &word);
}

/* Keep ct_cg_tids's answer for @tid */
static __always_inline void ct_cg_remember(__u32 tid, bool in)
{
	__u64 *word = ct_cg_word(tid), bit = 1ull << (tid & 63);

	if (!word)
		return;
	if (in)
		__sync_fetch_and_or(word, bit);
	else
		__sync_fetch_and_and(word, ~bit);
}

/* What ct_cg_tids says of @tid */
static __always_inline bool ct_cg_known(__u32 tid)
{
	__u64 *word = ct_cg_word(tid);

	return word && (*word >> (tid & 63)) & 1;
}

/*
 * -G: is task @tid in the groups? The current task is asked of the kernel
 * and the answer kept for the events about it while it does not run.
 */
static __always_inline bool ct_cg_task_ok(__u32 tid)
{
	bool known = ct_cg_known(tid);
	bool in;

	if (tid != (__u32)bpf_get_current_pid_tgid())
		return known;
	in = ct_cg_current();
	if (in != known)
		ct_cg_remember(tid, in);
	return in;
}

/*
 * -p/-t/-c/-G: is task @tid (named at @comm in the ctx, or the current
 * task when @comm is NULL) one the user asked for?
 */
static __always_inline bool ct_task_ok(__u32 tid, const char *comm)
{
	if (!ct_filter_tasks)
		return true;
	if (ct_filter_tid && tid != ct_filter_tid)
		return false;
	if (ct_filter_tgid && !bpf_map_lookup_elem(&ct_tids, &tid))
		return false;
	if (ct_filter_comm_len && !ct_comm_matches(comm))
		return false;
	if (ct_filter_cgroups && !ct_cg_task_ok(tid))
		return false;
	return true;
}

static __always_inline __u32 ct_current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}


/*
 * Common entry of every handler: nothing before every program is attached
 * or once detaching began; then learn -p threads, apply -C, and apply the
 * task filters to one task. Counts the hit as filtered when rejected.
 */
static __always_inline bool ct_want(__u32 event_type, __u32 tid,
				    const char *comm)
{
	if (!ct_tracing)
		return false;
	if (!ct_checks)
		return true;
	ct_learn_current();
	if (ct_cpu_ok() && ct_task_ok(tid, comm))
		return true;
	ct_count_filtered(event_type);
	return false;
}

/* The same for events about two tasks: either may match. */
static __always_inline bool ct_want2(__u32 event_type, __u32 tid_a,
				     const char *comm_a, __u32 tid_b,
				     const char *comm_b)
{
	if (!ct_tracing)
		return false;
	if (!ct_checks)
		return true;
	ct_learn_current();
	if (ct_cpu_ok() && (ct_task_ok(tid_a, comm_a) || ct_task_ok(tid_b, comm_b)))
		return true;
	ct_count_filtered(event_type);
	return false;
}

#endif /* CORETRACE_BPF_FILTER_H */
