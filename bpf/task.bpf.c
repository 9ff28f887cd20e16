// SPDX-License-Identifier: GPL-2.0
/*
 * Task lifetimes and names: fork, exec, exit (sched:sched_process_*) and
 * task:task_rename.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"
#include "helpers/announce.h"
#include "helpers/trigger.h"

/* -G: a child joins its parent's group */
static __always_inline void ct_cg_fork(__u32 child_pid)
{
	if (ct_tracing && ct_cg_current())
		ct_cg_remember(child_pid, true);
}

SEC("tp/sched/sched_process_fork")
int handle_sched_process_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	__u32 cpu;
	__u32 parent_pid = ctx->parent_pid;
	__u32 child_pid = ctx->child_pid;
	struct ct_fork *rec;

	/* -G: the child starts in its parent's group */
	if (ct_filter_cgroups)
		ct_cg_fork(child_pid);
	if (!ct_fork_records)
		return 0;
	if (!ct_want2(CT_EV_SCHED_PROCESS_FORK, parent_pid, ctx->parent_comm,
		      child_pid, ctx->child_comm))
		return 0;
	ct_announce(parent_pid, ctx->parent_comm);
	rec = ct_reserve(CT_EV_SCHED_PROCESS_FORK, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_FORK);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_FORK, cpu);
	rec->parent_pid = parent_pid;
	rec->child_pid = child_pid;
	bpf_probe_read_kernel(rec->child_comm, sizeof(rec->child_comm),
			      ctx->child_comm);
	ct_submit(rec);
	/* the fork record names the child */
	ct_name_known(child_pid);
	return 0;
}

SEC("tp/sched/sched_process_exec")
int handle_sched_process_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	__u32 loc = ctx->__data_loc_filename;
	struct ct_exec *rec;

	if (!ct_want(CT_EV_SCHED_PROCESS_EXEC, pid, NULL))
		return 0;
	rec = ct_reserve(CT_EV_SCHED_PROCESS_EXEC, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_EXEC);
		if (ct_trig_exec_len && ct_exec_matches())
			ct_fire(CT_TRIG_EXEC, pid, 0, 0);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_EXEC, cpu);
	rec->pid = pid;
	rec->old_pid = ctx->old_pid;
	/* __data_loc: low 16 bits, offset of the string in the record */
	if (bpf_probe_read_kernel_str(rec->filename, sizeof(rec->filename),
				      (void *)ctx + (loc & 0xffff)) < 0)
		rec->filename[0] = '\0';
	ct_submit(rec);
	if (ct_trig_exec_len && ct_exec_matches())
		ct_fire(CT_TRIG_EXEC, pid, 0, 0);
	return 0;
}

/* -G: a task that exits leaves the groups (after ct_want judged it) */
static __always_inline void ct_cg_exit(__u32 pid)
{
	ct_cg_remember(pid, false);
}

SEC("tp/sched/sched_process_exit")
int handle_sched_process_exit(struct trace_event_raw_sched_process_template *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_exit *rec;

	if (!ct_exit_records || !ct_want(CT_EV_SCHED_PROCESS_EXIT, pid, ctx->comm)) {
		/* a later task with this pid must announce its own group */
		ct_forget_group(pid);
		if (ct_filter_cgroups)
			ct_cg_exit(pid);
		return 0;
	}
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(CT_EV_SCHED_PROCESS_EXIT, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_EXIT);
		ct_forget_group(pid);
		if (ct_filter_cgroups)
			ct_cg_exit(pid);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_EXIT, cpu);
	rec->pid = pid;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	/* a later task with this pid must announce its own name and group */
	ct_forget_name(pid);
	if (ct_filter_cgroups)
		ct_cg_exit(pid);
	return 0;
}

SEC("tp/task/task_rename")
int handle_task_rename(struct trace_event_raw_task_rename *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_task_rename *rec;

	if (!ct_rename_records) {
		/* not traced: user space still learns the new name */
		if (ct_tracing && ct_cpu_ok() &&
		    (ct_task_ok(pid, ctx->oldcomm) ||
		     ct_task_ok(pid, ctx->newcomm))) {
			ct_forget_name(pid);
			ct_announce(pid, ctx->newcomm);
		}
		return 0;
	}
	if (!ct_want2(CT_EV_TASK_RENAME, pid, ctx->oldcomm, pid, ctx->newcomm))
		return 0;
	rec = ct_reserve(CT_EV_TASK_RENAME, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_RENAME);
		/* forget the old name: the next record announces the new one */
		ct_forget_name(pid);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_TASK_RENAME, cpu);
	rec->pid = pid;
	bpf_probe_read_kernel(rec->newcomm, sizeof(rec->newcomm),
			      ctx->newcomm);
	ct_submit(rec);
	ct_name_known(pid);
	return 0;
}
