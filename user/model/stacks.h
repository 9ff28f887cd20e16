/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call stacks (record -g): the frames of each stack id, as BPF sent them
 * (the stack messages of ct_control.h) or a capture gave them (its
 * coretrace_kstack and coretrace_ustack events). Records refer to stacks
 * by id (ct_callchain); this table turns an id back into frames.
 *
 * Bounded: a power of two of slots, a stack's slots tried from its home
 * one, at most CT_STACKS_PROBE of them; when all are taken the home slot
 * is given to the newer stack (an always-on recording meets new stacks
 * for as long as it runs, and the recent ones are those a snapshot
 * needs). A replaced stack is counted.
 */
#ifndef CORETRACE_STACKS_H
#define CORETRACE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ct_control.h"

#define CT_STACKS_SLOTS		65536
#define CT_STACKS_PROBE		32

struct ct_stack {
	uint32_t id;		/* 0: an empty slot */
	uint32_t tgid;		/* a user stack's process */
	uint16_t nr;		/* frames */
	bool user;
	/* kernel: nr return addresses; user: nr struct ct_uframe */
	void *frames;
};

struct ct_stacks {
	struct ct_stack *slot;	/* NULL until the first stack */
	uint32_t mask;
	uint32_t count;		/* stacks held */
	uint64_t replaced;	/* stacks given up for newer ones */
	uint64_t refused;	/* messages that were not stacks */
};

/* An empty table (it allocates at the first stack). */
void ct_stacks_init(struct ct_stacks *t);
void ct_stacks_free(struct ct_stacks *t);

/*
 * Keep stack @id: @nr frames at @frames (return addresses, or struct
 * ct_uframe when @user), copied. The same id again replaces it. 0,
 * -EINVAL (id 0, or more frames than BPF takes) or -ENOMEM.
 */
int ct_stacks_put(struct ct_stacks *t, bool user, uint32_t id, uint32_t tgid,
		  uint32_t nr, const void *frames);

/*
 * A message of the ring (@len bytes at @data) that gives a stack
 * (CT_REC_KSTACK, CT_REC_USTACK): kept, or counted in ->refused when it
 * is not whole. 0 or a negative errno.
 */
int ct_stacks_message(struct ct_stacks *t, const void *data, size_t len);

/* Is the ring's @len bytes at @data a stack message (by its type)? */
static inline bool ct_is_stack_message(const void *data, size_t len)
{
	const struct ct_hdr *h = data;

	return len >= sizeof(*h) &&
	       (h->type == CT_REC_KSTACK || h->type == CT_REC_USTACK);
}

/* Stack @id, or NULL when the table does not have it. */
const struct ct_stack *ct_stacks_get(const struct ct_stacks *t, uint32_t id);

/* A kernel stack's frame @i, a user stack's frame @i */
static inline uint64_t ct_stack_ip(const struct ct_stack *s, unsigned int i)
{
	return ((const uint64_t *)s->frames)[i];
}

static inline const struct ct_uframe *ct_stack_uframe(const struct ct_stack *s,
						      unsigned int i)
{
	return &((const struct ct_uframe *)s->frames)[i];
}

/*
 * A user frame that has no name: "BUILDID+0xOFFSET" (the file by its
 * build ID, the first 8 bytes of it in hex) or "[unknown] 0xADDR" when
 * the kernel gave the address only. Returns @buf.
 */
const char *ct_uframe_str(const struct ct_uframe *f, char *buf, size_t len);

/* A build ID in hex, 40 digits and a NUL into @buf (41 bytes). */
void ct_build_id_hex(const unsigned char id[CT_BUILD_ID_SIZE], char *buf);

#endif /* CORETRACE_STACKS_H */
