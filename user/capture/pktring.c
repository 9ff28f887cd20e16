// SPDX-License-Identifier: GPL-2.0
/* The flight recorder's packet memory (pktring.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "capture/pktring.h"

struct ct_pkt_entry {
	uint32_t len;		/* bytes of the packet after this header */
	uint32_t cpu;
	uint64_t records;
};

#define CT_PKT_ALIGN	8

static size_t ct_entry_size(size_t len)
{
	size_t n = sizeof(struct ct_pkt_entry) + len;

	return (n + CT_PKT_ALIGN - 1) & ~(size_t)(CT_PKT_ALIGN - 1);
}

int ct_pktring_init(struct ct_pktring *r, size_t size)
{
	memset(r, 0, sizeof(*r));
	size &= ~(size_t)(CT_PKT_ALIGN - 1);
	if (size < ct_entry_size(1))
		return -EINVAL;
	r->buf = malloc(size);
	if (!r->buf)
		return -ENOMEM;
	/*
	 * Touched now: the recorder's memory is its bound from the start,
	 * not something that creeps up while a quiet machine fills it.
	 */
	memset(r->buf, 0, size);
	r->size = size;
	r->limit = size;
	return 0;
}

void ct_pktring_free(struct ct_pktring *r)
{
	free(r->buf);
	r->buf = NULL;
}

size_t ct_pktring_max_packet(const struct ct_pktring *r)
{
	return r->size - sizeof(struct ct_pkt_entry);
}

static const struct ct_pkt_entry *ct_entry_at(const struct ct_pktring *r,
					      size_t at)
{
	return (const struct ct_pkt_entry *)(r->buf + at);
}

/* Push out the oldest packet. */
static void ct_pktring_drop(struct ct_pktring *r)
{
	const struct ct_pkt_entry *e = ct_entry_at(r, r->head);

	if (r->on_drop)
		r->on_drop(r->drop_ctx, e->cpu, e + 1, e->len);
	r->dropped_packets++;
	r->dropped_records += e->records;
	r->bytes -= e->len;
	r->head += ct_entry_size(e->len);
	r->count--;
	if (r->wrapped && r->head >= r->limit) {
		r->head = 0;		/* what is left starts at 0 */
		r->wrapped = false;
		r->limit = r->size;
	}
}

/* Where an entry of @need bytes (at most the size) goes, making room. */
static size_t ct_pktring_room(struct ct_pktring *r, size_t need)
{
	for (;;) {
		if (!r->count) {
			r->head = r->tail = 0;
			r->wrapped = false;
			r->limit = r->size;
			return 0;
		}
		if (!r->wrapped) {
			/* held: [head, tail) */
			if (r->size - r->tail >= need)
				return r->tail;
			r->limit = r->tail;	/* the end stays unused */
			r->tail = 0;
			r->wrapped = true;
			continue;
		}
		/* held: [head, limit) and [0, tail); free: [tail, head) */
		if (r->head - r->tail >= need)
			return r->tail;
		ct_pktring_drop(r);
	}
}

int ct_pktring_push(struct ct_pktring *r, unsigned int cpu, uint64_t records,
		    const void *packet, size_t len)
{
	size_t need = ct_entry_size(len), at;
	struct ct_pkt_entry e = { (uint32_t)len, cpu, records };

	if (need > r->size || len > UINT32_MAX)
		return -E2BIG;
	at = ct_pktring_room(r, need);
	memcpy(r->buf + at, &e, sizeof(e));
	memcpy(r->buf + at + sizeof(e), packet, len);
	r->tail = at + need;
	r->count++;
	r->bytes += len;
	r->pushed_packets++;
	return 0;
}

int ct_pktring_for_each(const struct ct_pktring *r,
			int (*fn)(void *ctx, unsigned int cpu, uint64_t records,
				  const void *data, size_t len),
			void *ctx)
{
	const struct ct_pkt_entry *e;
	size_t at = r->head, i;
	int err;

	for (i = 0; i < r->count; i++) {
		if (r->wrapped && at >= r->limit)
			at = 0;
		e = ct_entry_at(r, at);
		err = fn(ctx, e->cpu, e->records, (const unsigned char *)(e + 1),
			 e->len);
		if (err)
			return err;
		at += ct_entry_size(e->len);
	}
	return 0;
}
