/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 groups named on the command line (-G): what BPF needs to know
 * of each (its id, its depth and its path from the hierarchy's root), and
 * the threads in a group and below it. No libbpf here: unit-tested.
 */
#ifndef CORETRACE_CGROUP_H
#define CORETRACE_CGROUP_H

#include <stdint.h>
#include <stdio.h>
#include "ct_abi.h"

#define CT_CGROUP2_MAGIC	0x63677270u	/* statfs f_type of cgroup2 */

struct ct_cgroup {
	const char *arg;		/* as given */
	uint64_t id;			/* the kernel's cgroup id */
	uint32_t level;			/* 0: the hierarchy's root */
	char path[CT_CGROUP_PATH_LEN];	/* from the root: "" or "/a/b" */
};

/*
 * The path of directory @real (absolute, resolved) from the root of the
 * cgroup2 hierarchy mounted over it, using @mountinfo's text (the format
 * of /proc/self/mountinfo). Returns 0, -ENOENT when no cgroup2 mount
 * holds it, -ENAMETOOLONG when the path does not fit, -EINVAL on a
 * mountinfo line it cannot read.
 */
int ct_cgroup_path_in(const char *mountinfo, const char *real, char *path,
		      size_t size);

/* Depth of @path ("" or "/a/b") below the hierarchy's root */
uint32_t ct_cgroup_level(const char *path);

/*
 * Resolve -G @arg into @cg. On error, one sentence to @err naming @cmd
 * and a negative errno.
 */
int ct_cgroup_resolve(const char *arg, struct ct_cgroup *cg, FILE *err,
		      const char *cmd);

/*
 * Call @fn for every thread listed in cgroup.threads of directory @dir
 * and of every directory below it (a group's subgroups), @max_depth
 * levels down at most. Returns the number of threads, or a negative
 * errno when @dir cannot be read or @fn fails.
 */
int ct_cgroup_threads(const char *dir, unsigned int max_depth,
		      int (*fn)(uint32_t tid, void *arg), void *arg);

/*
 * The mount point of the whole cgroup2 hierarchy (a cgroup2 mount whose
 * root is the hierarchy's) in @mountinfo's text, into @mnt. Returns 0,
 * -ENOENT when there is none, -EINVAL on a line it cannot read.
 */
int ct_cgroup_mount(const char *mountinfo, char *mnt, size_t size);

/* The same from /proc/self/mountinfo */
int ct_cgroup_find_mount(char *mnt, size_t size);

/*
 * Call @fn for the group at @mnt (the hierarchy's root, path "/") and
 * every group below it, @max_depth levels down at most, with its id, its
 * depth and its path from the root. Returns the number of groups, or a
 * negative errno when @mnt cannot be read or @fn fails.
 */
int ct_cgroup_groups(const char *mnt, unsigned int max_depth,
		     int (*fn)(uint64_t id, uint32_t level, const char *path,
			       void *arg), void *arg);

/*
 * A task's cgroup v2 path ("/" or "/a/b") from the text of its
 * /proc/PID/cgroup (the "0::PATH" line). Returns 0, -ENOENT when there
 * is no such line, -ENAMETOOLONG when it does not fit in @size.
 */
int ct_cgroup_of_task(const char *text, char *path, size_t size);

/*
 * What the records say about groups: each task's group (task_cgroup) and
 * each group's path (cgroup_name). Fixed size, allocated once, oldest
 * entries replaced when a probe run is full, as the comm cache does.
 */
struct ct_cg_task {
	uint32_t pid;
	uint32_t used;		/* 0: empty, else insertion stamp */
	uint64_t id;
};

struct ct_cg_group {
	uint64_t id;
	uint32_t level;
	uint32_t used;
	char path[CT_CGROUP_PATH_LEN];
};

struct ct_cgroup_names {
	struct ct_cg_task *tasks;
	struct ct_cg_group *groups;
	uint32_t task_mask, group_mask;	/* capacity - 1 */
	uint32_t stamp;
};

/* Room for @tasks tasks and @groups groups (powers of two); 0 or -ENOMEM */
int ct_cgroup_names_init(struct ct_cgroup_names *n, uint32_t tasks,
			 uint32_t groups);
void ct_cgroup_names_prefault(struct ct_cgroup_names *n);
void ct_cgroup_names_free(struct ct_cgroup_names *n);

void ct_cgroup_set_task(struct ct_cgroup_names *n, uint32_t pid, uint64_t id);
/* @pid's group, 0 when it was never announced */
uint64_t ct_cgroup_task(const struct ct_cgroup_names *n, uint32_t pid);
void ct_cgroup_set_group(struct ct_cgroup_names *n, uint64_t id,
			 uint32_t level, const char *path);
/* group @id's path, NULL when it was never announced */
const char *ct_cgroup_path(const struct ct_cgroup_names *n, uint64_t id);

/* Learn from a task_cgroup or cgroup_name record; others are ignored */
void ct_cgroup_learn(struct ct_cgroup_names *n, int type, const void *rec);

#endif /* CORETRACE_CGROUP_H */
