// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v2: tasks moving between groups (cgroup:cgroup_attach_task),
 * groups made and renamed (cgroup_mkdir, cgroup_rename), for -G and for
 * the groups' names.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"
#include "helpers/announce.h"

/* Is @path (from the hierarchy's root) group @i or below it? */
static __always_inline bool ct_cg_path_under(const char *path, __u32 i)
{
	__u32 len = ct_cg_path_len[i], j;

	if (len >= CT_CGROUP_PATH_LEN)
		return false;
	for (j = 0; j < CT_CGROUP_PATH_LEN; j++) {
		if (j >= len)
			break;
		if (path[j] != ct_cg_path[i][j])
			return false;
	}
	return path[len] == '\0' || path[len] == '/';
}

/*
 * -G: is the group at @path (from the hierarchy's root) one of ours or
 * below one? Paths are compared, not ids: whether a group is below
 * another is not asked of the kernel from here.
 */
static __always_inline bool ct_cg_path_ok(const char *path)
{
	__u32 i;

	for (i = 0; i < CT_MAX_CGROUPS; i++) {
		if (i >= ct_filter_cgroups)
			break;
		if (ct_cg_path_under(path, i))
			return true;
	}
	return false;
}

/* @tid moved to group @id: announce it (unless filtered out) */
static __always_inline void
ct_emit_task_cgroup(struct trace_event_raw_cgroup_migrate *ctx, __u32 tid)
{
	__u32 cpu;
	__u32 *seen;
	struct ct_task_cgroup *rec;

	if (!ct_tracing || !ct_cpu_ok() ||
	    !ct_task_ok(tid, (void *)ctx + (ctx->__data_loc_comm & 0xffff))) {
		ct_count_filtered(CT_EV_TASK_CGROUP);
		return;
	}
	rec = ct_reserve(CT_EV_TASK_CGROUP, sizeof(*rec), &cpu);
	seen = ct_announced_slot(tid);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_CGROUP);
		if (seen && *seen == (tid | CT_GROUP_TOLD))
			*seen = tid;	/* its next switch tells it */
		return;
	}
	ct_fill_hdr(rec, CT_EV_TASK_CGROUP, cpu);
	rec->pid = tid;
	rec->cgroup_id = ctx->dst_id;
	ct_submit(rec);
	/* told, once its name is known too */
	if (seen && *seen == tid)
		*seen = tid | CT_GROUP_TOLD;
}

/*
 * A task moved to another group (cgroup.procs, cgroup.threads; a v1
 * hierarchy's moves are not looked at): its new group is announced, and
 * -G judges it again by its new group's path.
 */
SEC("tp/cgroup/cgroup_attach_task")
int handle_cgroup_attach_task(struct trace_event_raw_cgroup_migrate *ctx)
{
	__u32 loc = ctx->__data_loc_dst_path, zero = 0;
	__u32 tid = ctx->pid;
	char *path;

	if (ctx->dst_root != 0)		/* 0: the cgroup v2 hierarchy */
		return 0;
	if (ct_filter_cgroups) {
		path = bpf_map_lookup_elem(&ct_cg_scratch, &zero);
		if (!path ||
		    bpf_probe_read_kernel_str(path, CT_CGROUP_PATH_LEN,
					      (void *)ctx + (loc & 0xffff)) <= 0)
			return 0;
		ct_cg_remember(tid, ct_cg_path_ok(path));
	}
	if (ct_cgroup_records)
		ct_emit_task_cgroup(ctx, tid);
	return 0;
}

/* A group made or renamed: its id and path, for user space's names */
static __always_inline int ct_emit_cgroup_name(struct trace_event_raw_cgroup *ctx)
{
	__u32 cpu;
	struct ct_cgroup_name *rec;

	if (!ct_tracing || ctx->root != 0)
		return 0;
	rec = ct_reserve(CT_EV_CGROUP_NAME, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_CGROUP_NAME);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_CGROUP_NAME, cpu);
	rec->level = ctx->level;
	rec->cgroup_id = ctx->id;
	if (bpf_probe_read_kernel_str(rec->path, sizeof(rec->path),
				      (void *)ctx + (ctx->__data_loc_path & 0xffff)) < 0)
		rec->path[0] = '\0';
	ct_submit(rec);
	return 0;
}

SEC("tp/cgroup/cgroup_mkdir")
int handle_cgroup_mkdir(struct trace_event_raw_cgroup *ctx)
{
	return ct_emit_cgroup_name(ctx);
}

SEC("tp/cgroup/cgroup_rename")
int handle_cgroup_rename(struct trace_event_raw_cgroup *ctx)
{
	return ct_emit_cgroup_name(ctx);
}
