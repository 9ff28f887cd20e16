/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pid -> comm map, fed by the comm and rename records BPF emits. Fixed
 * size, allocated once: nothing is allocated per event. When a probe run
 * finds no free slot the oldest name in it is replaced, so the cache
 * stays bounded on machines that churn through pids.
 */
#ifndef CORETRACE_COMM_CACHE_H
#define CORETRACE_COMM_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "ct_abi.h"

struct ct_comm_slot {
	uint32_t pid;
	uint32_t used;		/* 0: empty, else insertion stamp */
	char comm[CT_COMM_LEN];
};

struct ct_comm_cache {
	struct ct_comm_slot *slots;
	uint32_t mask;		/* capacity - 1, capacity a power of two */
	uint32_t stamp;
};

/* capacity is rounded up to a power of two; returns 0 or -ENOMEM */
int ct_comm_cache_init(struct ct_comm_cache *cache, uint32_t capacity);
/*
 * Touch every page of the cache now (a recorder that runs for days): its
 * memory then stays what it is at the start instead of growing page by
 * page as new pids land in new slots.
 */
void ct_comm_cache_prefault(struct ct_comm_cache *cache);
void ct_comm_cache_free(struct ct_comm_cache *cache);

/* Remember @comm (at most CT_COMM_LEN bytes, NUL not required) for @pid. */
void ct_comm_cache_set(struct ct_comm_cache *cache, uint32_t pid,
		       const char *comm);

/* The name of @pid, or NULL when it was never announced. */
const char *ct_comm_cache_get(const struct ct_comm_cache *cache, uint32_t pid);

/*
 * Name to print for @pid seen on @cpu: the cached comm, "swapper/CPU" for
 * the idle task (pid 0), or "<...>" when unknown (as ftrace prints it).
 */
const char *ct_comm_name(const struct ct_comm_cache *cache, uint32_t pid,
			 unsigned int cpu, char *buf, size_t len);

#endif /* CORETRACE_COMM_CACHE_H */
