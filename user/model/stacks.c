// SPDX-License-Identifier: GPL-2.0
/*
 * The table of call stacks by id (stacks.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/htab.h"
#include "model/stacks.h"

void ct_stacks_init(struct ct_stacks *t)
{
	memset(t, 0, sizeof(*t));
}

void ct_stacks_free(struct ct_stacks *t)
{
	uint32_t i;

	if (t->slot)
		for (i = 0; i <= t->mask; i++)
			free(t->slot[i].frames);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/*
 * Where user space ends (x86-64, 47-bit addresses): a frame-pointer walk
 * that leaves the stack (past the first function built without frame
 * pointers) reads words that are no addresses; the kernel gives them as
 * addresses it could not place, and the stack ends before the first. A
 * word below a mapping gets that mapping's build ID and an offset before
 * the file's start from Linux 6.1 (it takes the next mapping up): the
 * stack ends there too.
 */
#define CT_USER_ADDR_END	0x800000000000ull

static uint32_t ct_user_frames(const struct ct_uframe *f, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		if (f[i].status != CT_UFRAME_VALID ?
		    f[i].offset >= CT_USER_ADDR_END : f[i].offset >= 1ull << 63)
			return i;
	return nr;
}

static size_t ct_frame_size(bool user)
{
	return user ? sizeof(struct ct_uframe) : sizeof(uint64_t);
}

int ct_stacks_put(struct ct_stacks *t, bool user, uint32_t id, uint32_t tgid,
		  uint32_t nr, const void *frames)
{
	struct ct_probe probe;
	struct ct_stack *s = NULL;
	uint32_t at;
	void *copy;

	if (!id || nr > (user ? CT_USTACK_DEPTH : CT_KSTACK_DEPTH))
		return -EINVAL;
	if (!t->slot) {
		t->slot = calloc(CT_STACKS_SLOTS, sizeof(*t->slot));
		if (!t->slot)
			return -ENOMEM;
		t->mask = CT_STACKS_SLOTS - 1;
	}
	/* the frames may be unaligned (a capture's bytes): copied first */
	copy = malloc(nr ? nr * ct_frame_size(user) : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, frames, nr * ct_frame_size(user));
	if (user)
		nr = ct_user_frames(copy, nr);
	probe = ct_probe(id, t->mask, CT_STACKS_PROBE);
	while (ct_probe_next(&probe, &at)) {
		if (!t->slot[at].id || t->slot[at].id == id) {
			s = &t->slot[at];
			break;
		}
	}
	if (!s) {
		/* every slot tried is taken: the newer stack gets its home */
		s = &t->slot[ct_probe_home(id, t->mask)];
		t->replaced++;
	}
	if (s->id)
		free(s->frames);
	else
		t->count++;
	s->id = id;
	s->tgid = tgid;
	s->nr = (uint16_t)nr;
	s->user = user;
	s->frames = copy;
	return 0;
}

int ct_stacks_message(struct ct_stacks *t, const void *data, size_t len)
{
	struct ct_stack_msg m;
	bool user;

	if (len < sizeof(m)) {
		t->refused++;
		return -EINVAL;
	}
	memcpy(&m, data, sizeof(m));
	user = m.type == CT_REC_USTACK;
	if (m.nr > (user ? CT_USTACK_DEPTH : CT_KSTACK_DEPTH) ||
	    len < sizeof(m) + m.nr * ct_frame_size(user) || !m.id) {
		t->refused++;
		return -EINVAL;
	}
	return ct_stacks_put(t, user, m.id, m.tgid, m.nr,
			     (const unsigned char *)data + sizeof(m));
}

const struct ct_stack *ct_stacks_get(const struct ct_stacks *t, uint32_t id)
{
	struct ct_probe probe;
	uint32_t at;

	if (!t->slot || !id)
		return NULL;
	probe = ct_probe(id, t->mask, CT_STACKS_PROBE);
	while (ct_probe_next(&probe, &at)) {
		if (t->slot[at].id == id)
			return &t->slot[at];
		if (!t->slot[at].id)
			break;
	}
	/* a stack that took its home slot when the table was full */
	at = ct_probe_home(id, t->mask);
	return t->slot[at].id == id ? &t->slot[at] : NULL;
}

void ct_build_id_hex(const unsigned char id[CT_BUILD_ID_SIZE], char *buf)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < CT_BUILD_ID_SIZE; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * CT_BUILD_ID_SIZE] = '\0';
}

const char *ct_uframe_str(const struct ct_uframe *f, char *buf, size_t len)
{
	char hex[2 * CT_BUILD_ID_SIZE + 1];

	if (f->status == CT_UFRAME_VALID) {
		ct_build_id_hex(f->build_id, hex);
		snprintf(buf, len, "%.16s+0x%llx", hex,
			 (unsigned long long)f->offset);
	} else {
		snprintf(buf, len, "[unknown] 0x%llx",
			 (unsigned long long)f->offset);
	}
	return buf;
}
