/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names and groups, announced once: no record carries a task's name or
 * cgroup path; the first record about a task is preceded by a ct_comm
 * (and, for the current task, a ct_task_cgroup) record, and ct_announced
 * remembers what user space has been told.
 */
#ifndef CORETRACE_BPF_ANNOUNCE_H
#define CORETRACE_BPF_ANNOUNCE_H

#include "ring.h"

static __always_inline __u32 *ct_announced_slot(__u32 pid)
{
	__u32 slot = pid & (CT_ANNOUNCE_SLOTS - 1);

	return bpf_map_lookup_elem(&ct_announced, &slot);
}

static __always_inline bool ct_slot_names(__u32 seen, __u32 pid)
{
	return (seen & ~CT_GROUP_TOLD) == pid;
}

/* The next record about @pid announces its name (and group) again. */
static __always_inline void ct_forget_name(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && ct_slot_names(*seen, pid))
		*seen = 0;
}

/* The next switch of @pid tells its group again (its name stays known). */
static __always_inline void ct_forget_group(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && *seen == (pid | CT_GROUP_TOLD))
		*seen = pid;
}

/* User space knows the name of @pid (from a record it was sent). */
static __always_inline void ct_name_known(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && !ct_slot_names(*seen, pid))
		*seen = pid;
}
/* The name record of @pid; @comm points into the ctx. True: sent. */
static __always_inline bool ct_emit_comm(__u32 pid, const char *comm)
{
	__u32 cpu;
	struct ct_comm *rec = ct_reserve(CT_EV_COMM, sizeof(*rec), &cpu);

	if (!rec) {
		ct_count_lost(CT_EV_COMM);
		return false;
	}
	ct_fill_hdr(rec, CT_EV_COMM, cpu);
	rec->pid = pid;
	if (comm)
		bpf_probe_read_kernel(rec->comm, sizeof(rec->comm), comm);
	else
		bpf_get_current_comm(rec->comm, sizeof(rec->comm));
	ct_submit(rec);
	return true;
}

/* The group record of @pid, the current task. True: sent. */
static __always_inline bool ct_emit_current_cgroup(__u32 pid)
{
	__u32 cpu;
	struct ct_task_cgroup *rec;

	rec = ct_reserve(CT_EV_TASK_CGROUP, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_CGROUP);
		return false;
	}
	ct_fill_hdr(rec, CT_EV_TASK_CGROUP, cpu);
	rec->pid = pid;
	rec->cgroup_id = bpf_get_current_cgroup_id();
	ct_submit(rec);
	return true;
}

/*
 * Tell user space the name of @pid once, and its cgroup once when @pid is
 * the current task (@current). What could not be sent is not marked: the
 * next switch tries again.
 */
static __always_inline void ct_announce_task(__u32 pid, const char *comm,
					     bool current)
{
	__u32 *seen = ct_announced_slot(pid);
	__u32 want = pid, told;

	if (current && ct_cgroup_records)
		want |= CT_GROUP_TOLD;
	if (pid == 0 || !seen)
		return;
	/*
	 * The name (and the group, if it is wanted) already told: the slot
	 * holds what is wanted, or the name and the group when only the name
	 * is (the same test when the group is wanted too)
	 */
	told = *seen;
	if (told == want || told == (want | CT_GROUP_TOLD))
		return;
	if (!ct_slot_names(*seen, pid)) {
		if (!ct_emit_comm(pid, comm))
			return;
		*seen = pid;
	}
	if (want != pid && ct_emit_current_cgroup(pid))
		*seen = want;
}

/* Tell user space the name of @pid, once; @comm points into the ctx. */
static __always_inline void ct_announce(__u32 pid, const char *comm)
{
	ct_announce_task(pid, comm, false);
}

#endif /* CORETRACE_BPF_ANNOUNCE_H */
