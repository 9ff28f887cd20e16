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

#endif /* CORETRACE_CGROUP_H */
