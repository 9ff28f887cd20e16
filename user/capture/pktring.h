/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder's memory: finished capture packets kept in one
 * buffer of a fixed size, newest last. A packet that does not fit pushes
 * out the oldest ones, whole, and they are counted (packets and the
 * records they held), so memory never grows and what was overwritten is
 * known. Packets are stored contiguously (one that does not fit before
 * the end of the buffer starts again at its beginning), so a snapshot
 * writes each with one write.
 */
#ifndef CT_PKTRING_H
#define CT_PKTRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_pktring {
	unsigned char *buf;
	size_t size;
	size_t head;		/* the oldest packet's entry */
	size_t tail;		/* where the next entry goes */
	size_t limit;		/* wrapped: the entries from head end here */
	bool wrapped;		/* entries: [head, limit) then [0, tail) */
	size_t count;		/* packets held */
	size_t bytes;		/* bytes of packets held (without entry headers) */
	uint64_t pushed_packets;
	uint64_t dropped_packets, dropped_records;
	/* told of each packet pushed out, before it goes (may be NULL) */
	void (*on_drop)(void *ctx, unsigned int cpu, const void *data,
			size_t len);
	void *drop_ctx;
};

/* @size bytes of buffer, entries included. 0 or -ENOMEM/-EINVAL. */
int ct_pktring_init(struct ct_pktring *r, size_t size);
void ct_pktring_free(struct ct_pktring *r);

/*
 * Keep a copy of @len bytes of @packet, a packet of @cpu holding @records
 * records, pushing out the oldest packets as needed. 0, or -E2BIG when the
 * packet alone does not fit the buffer.
 */
int ct_pktring_push(struct ct_pktring *r, unsigned int cpu, uint64_t records,
		    const void *packet, size_t len);

/* The largest packet the ring can hold. */
size_t ct_pktring_max_packet(const struct ct_pktring *r);

/*
 * Each packet held, oldest first: @fn(@ctx, cpu, records, data, len);
 * stops at the first non-zero return and returns it.
 */
int ct_pktring_for_each(const struct ct_pktring *r,
			int (*fn)(void *ctx, unsigned int cpu, uint64_t records,
				  const void *data, size_t len),
			void *ctx);

#endif
