// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/htab.h"
#include "model/comm_cache.h"

#define CT_COMM_PROBES	16

int ct_comm_cache_init(struct ct_comm_cache *cache, uint32_t capacity)
{
	uint32_t size = 16;

	while (size < capacity && size < (1u << 24))
		size <<= 1;
	cache->slots = calloc(size, sizeof(*cache->slots));
	if (!cache->slots)
		return -ENOMEM;
	cache->mask = size - 1;
	cache->stamp = 0;
	return 0;
}

void ct_comm_cache_prefault(struct ct_comm_cache *cache)
{
	volatile char *p = (volatile char *)cache->slots;
	size_t size = ((size_t)cache->mask + 1) * sizeof(*cache->slots), off;

	/* calloc's pages are zero: write a zero to each so it is mapped */
	for (off = 0; p && off < size; off += 4096)
		p[off] = 0;
}

void ct_comm_cache_free(struct ct_comm_cache *cache)
{
	free(cache->slots);
	cache->slots = NULL;
	cache->mask = 0;
}

void ct_comm_cache_set(struct ct_comm_cache *cache, uint32_t pid,
		       const char *comm)
{
	struct ct_probe probe = ct_probe(pid, cache->mask, CT_COMM_PROBES);
	struct ct_comm_slot *victim = NULL;
	uint32_t at;
	size_t len;

	/* every slot tried taken: the name set longest ago goes */
	while (ct_probe_next(&probe, &at)) {
		struct ct_comm_slot *slot = &cache->slots[at];

		if (!slot->used || slot->pid == pid) {
			victim = slot;
			break;
		}
		if (!victim || slot->used < victim->used)
			victim = slot;
	}
	if (++cache->stamp == 0)
		cache->stamp = 1;
	len = strnlen(comm, CT_COMM_LEN - 1);
	victim->pid = pid;
	victim->used = cache->stamp;
	memcpy(victim->comm, comm, len);
	victim->comm[len] = '\0';
}

const char *ct_comm_cache_get(const struct ct_comm_cache *cache, uint32_t pid)
{
	struct ct_probe probe = ct_probe(pid, cache->mask, CT_COMM_PROBES);
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		const struct ct_comm_slot *slot = &cache->slots[at];

		if (!slot->used)
			return NULL;
		if (slot->pid == pid)
			return slot->comm;
	}
	return NULL;
}

/*
 * "swapper/CPU", the idle task's name, spelled without snprintf: a
 * capture names the idle task in every switch to it.
 */
static const char *ct_swapper_name(unsigned int cpu, char *buf, size_t len)
{
	static const char prefix[] = "swapper/";
	char digits[10];
	size_t n = 0, used = sizeof(prefix) - 1;

	do {
		digits[n++] = (char)('0' + cpu % 10);
		cpu /= 10;
	} while (cpu && n < sizeof(digits));
	if (len < used + n + 1)
		return "swapper";
	memcpy(buf, prefix, used);
	while (n)
		buf[used++] = digits[--n];
	buf[used] = '\0';
	return buf;
}

const char *ct_comm_name(const struct ct_comm_cache *cache, uint32_t pid,
			 unsigned int cpu, char *buf, size_t len)
{
	const char *comm;

	if (pid == 0)
		return ct_swapper_name(cpu, buf, len);
	comm = cache ? ct_comm_cache_get(cache, pid) : NULL;
	return comm ? comm : "<...>";
}
