// SPDX-License-Identifier: GPL-2.0
/* The flight recorder's packet memory (user/pktring.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ct_test.h"
#include "capture/pktring.h"

#define PUSHES	20000

struct pushed {
	unsigned int cpu;
	uint64_t records;
	size_t len;
};

struct walk {
	const struct pushed *pushed;
	uint64_t next;		/* the sequence number the next packet must carry */
	uint64_t seen, bytes;
	int bad;
};

static void fill(unsigned char *p, size_t len, uint64_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(seq * 31 + i);
	if (len >= sizeof(seq))
		memcpy(p, &seq, sizeof(seq));
}

/* each packet held: the next one pushed after the one before, intact */
static int check_packet(void *ctx, unsigned int cpu, uint64_t records,
			const void *data, size_t len)
{
	struct walk *w = ctx;
	unsigned char want[4096];
	uint64_t seq;

	if (len < sizeof(seq) || len > sizeof(want)) {
		w->bad++;
		return 1;
	}
	memcpy(&seq, data, sizeof(seq));
	if (seq >= PUSHES) {
		w->bad++;
		return 1;
	}
	if (w->seen && seq != w->next)
		w->bad++;
	w->next = seq + 1;
	fill(want, len, seq);
	if (cpu != w->pushed[seq].cpu || records != w->pushed[seq].records ||
	    len != w->pushed[seq].len || memcmp(want, data, len))
		w->bad++;
	w->seen++;
	w->bytes += len;
	return 0;
}

static int stop_at_second(void *ctx, unsigned int cpu, uint64_t records,
			  const void *data, size_t len)
{
	(void)cpu, (void)records, (void)data, (void)len;
	return ++*(int *)ctx == 2 ? 7 : 0;
}

static void test_random(size_t size)
{
	static struct pushed pushed[PUSHES];
	unsigned char packet[4096];
	uint64_t dropped_records = 0, total = 0, i;
	struct ct_pktring r;
	struct walk w;
	int bad = 0, lower_bound_misses = 0;

	CT_CHECK_INT(ct_pktring_init(&r, size), 0);
	srand((unsigned int)size);
	for (i = 0; i < PUSHES; i++) {
		pushed[i].cpu = (unsigned int)rand() % 64;
		pushed[i].records = (uint64_t)(rand() % 500);
		pushed[i].len = 8 + (size_t)rand() % (sizeof(packet) - 8);
		fill(packet, pushed[i].len, i);
		if (ct_pktring_push(&r, pushed[i].cpu, pushed[i].records, packet,
				    pushed[i].len))
			bad++;
		total += pushed[i].len + 23;

		memset(&w, 0, sizeof(w));
		w.pushed = pushed;
		ct_pktring_for_each(&r, check_packet, &w);
		/* the newest ones, in order, the last pushed among them */
		if (w.bad || w.seen != r.count || w.next != i + 1 ||
		    w.bytes != r.bytes)
			bad++;
		if (r.dropped_packets + r.count != i + 1 ||
		    r.pushed_packets != i + 1)
			bad++;
		/*
		 * never more than the buffer; once full, no more than two
		 * packets' room unused, besides each entry's header and
		 * alignment (16 + at most 7 bytes)
		 */
		if (r.bytes + 16 * r.count > size)
			bad++;
		if (total > size &&
		    r.bytes + 23 * r.count + 2 * (sizeof(packet) + 23) < size)
			if (lower_bound_misses++ < 3)
				printf("  size %zu: %zu bytes in %zu packets, head %zu tail %zu limit %zu wrapped %d\n",
				       size, r.bytes, r.count, r.head, r.tail, r.limit, r.wrapped);
	}
	/* the records of every packet pushed out are counted */
	dropped_records = 0;
	for (i = 0; i < r.dropped_packets; i++)
		dropped_records += pushed[i].records;
	CT_CHECK_INT(r.dropped_records, dropped_records);
	CT_CHECK_INT(bad, 0);
	CT_CHECK_INT(lower_bound_misses, 0);
	CT_CHECK(r.dropped_packets > 0);
	ct_pktring_free(&r);
}

static void test_edges(void)
{
	unsigned char packet[256] = { 0 };
	struct ct_pktring r;
	int n = 0;

	CT_CHECK_INT(ct_pktring_init(&r, 4), -EINVAL);
	CT_CHECK_INT(ct_pktring_init(&r, 256), 0);
	CT_CHECK_INT(ct_pktring_max_packet(&r), 240);
	CT_CHECK_INT(ct_pktring_push(&r, 0, 1, packet, 241), -E2BIG);
	CT_CHECK_INT(r.count, 0);
	/* a packet as large as the buffer pushes out all the others */
	CT_CHECK_INT(ct_pktring_push(&r, 0, 3, packet, 10), 0);
	CT_CHECK_INT(ct_pktring_push(&r, 1, 4, packet, 10), 0);
	CT_CHECK_INT(ct_pktring_push(&r, 2, 5, packet, 240), 0);
	CT_CHECK_INT(r.count, 1);
	CT_CHECK_INT(r.dropped_packets, 2);
	CT_CHECK_INT(r.dropped_records, 7);
	CT_CHECK_INT(ct_pktring_push(&r, 3, 1, packet, 10), 0);
	CT_CHECK_INT(ct_pktring_push(&r, 3, 1, packet, 10), 0);
	CT_CHECK_INT(ct_pktring_for_each(&r, stop_at_second, &n), 7);
	CT_CHECK_INT(n, 2);
	ct_pktring_free(&r);
}

void test_pktring(void)
{
	test_edges();
	test_random(64 << 10);
	test_random(1 << 20);
	test_random(5000);
}
