/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounded hash tables of user space, one way: the names of tasks,
 * interrupts and groups, an analysis's tasks, groups and sources, the
 * addresses a capture has named, convert's groups and threads. Each is
 * an array of a power of two of the caller's own slots (a pid and a name,
 * an id and a path...); a key's slots are tried from its home slot one
 * after another, at most a bound. What a slot holds, and what is done
 * when every slot tried is taken (give up and count it, or replace the
 * oldest), is each table's: they differ in that, and only in that.
 */
#ifndef CORETRACE_HTAB_H
#define CORETRACE_HTAB_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The one hash: a 64-bit mix (xor-shift, multiply, xor-shift) that
 * spreads dense keys (pids, inode numbers) and aligned ones (addresses)
 */
static inline uint32_t ct_hash(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (uint32_t)key;
}

/* Where to look for a key: the slots to try, in order */
struct ct_probe {
	uint32_t at;		/* the slot to try next */
	uint32_t mask;		/* the table's size - 1 */
	uint32_t left;		/* slots still to try */
};

/* @key's slots in a table of @mask + 1 slots, at most @bound of them */
static inline struct ct_probe ct_probe(uint64_t key, uint32_t mask,
				       uint32_t bound)
{
	struct ct_probe p = { ct_hash(key) & mask, mask, bound };

	return p;
}

/* The next slot to try, in *@at; false once @bound slots were tried */
static inline bool ct_probe_next(struct ct_probe *p, uint32_t *at)
{
	if (!p->left)
		return false;
	p->left--;
	*at = p->at;
	p->at = (p->at + 1) & p->mask;
	return true;
}

/* @key's home slot (where a table that replaces puts it when full) */
static inline uint32_t ct_probe_home(uint64_t key, uint32_t mask)
{
	return ct_hash(key) & mask;
}

#endif /* CORETRACE_HTAB_H */
