// SPDX-License-Identifier: GPL-2.0
/*
 * Always-on recording (output.h): a directory of parts, each a capture
 * that reads alone.
 *
 * A flight recorder keeps the newest finished packets in a fixed memory
 * (pktring.h) and writes them out, as they are, as DIR/snapshot-N when
 * asked (SIGUSR1, the end of the recording). A rotated recording writes
 * its packets straight to DIR/chunk-N and begins the next chunk when one
 * reaches its size or age, removing the oldest beyond the count kept.
 *
 * Either way each part begins with a names stream (ctf.h) holding every
 * name known so far, and its events_discarded count from the part's own
 * start, so a part is a capture of its span and nothing else. The writer
 * process does the writing; a snapshot appears under its name only once
 * whole.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "capture/pktring.h"
#include "capture/recorder.h"

#define CT_PARTS_FLUSH_NS	1000000000ull	/* packets wait at most this */
#define CT_PART_DIGITS		6
#define CT_PART_KEPT_MAX	100000		/* chunks on disk we track */

struct ct_parts {
	struct ct_output out;
	struct ct_ctf ctf;
	struct ct_parts_opts opts;
	struct ct_ctf_env env;
	char release[65], hostname[65];
	uint64_t now_ns;
	int ncpus;
	int failed;			/* first error, -errno */
	/* a flight recorder */
	struct ct_pktring ring;
	uint64_t *dropped_discarded;	/* per CPU: of the last packet pushed out */
	uint32_t next_snapshot;
	unsigned int snapshots;		/* written whole */
	/* a rotated recording */
	uint32_t chunk;			/* index of the chunk being written */
	uint64_t chunk_bytes, chunk_begun_ns, chunk_packets;
	uint64_t names_ts;		/* of the last chunk's names */
	uint64_t *discard_base;		/* per CPU: where the chunk's losses start */
	uint64_t *last_discarded;	/* per CPU: of the last packet written */
	uint32_t *kept;			/* chunks on disk, oldest first */
	size_t nkept;
	uint64_t chunks_written, chunks_removed, bytes_written;
};

/* N of "@prefix-N" (all digits), or 0 */
static uint32_t ct_part_index(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	unsigned long n;
	char *end;

	if (strncmp(name, prefix, len) || name[len] != '-' ||
	    name[len + 1] < '0' || name[len + 1] > '9')
		return 0;
	n = strtoul(name + len + 1, &end, 10);
	return *end || n > UINT32_MAX ? 0 : (uint32_t)n;
}

static int ct_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Parts an earlier run left in the directory: snapshots and chunks go
 * on from the highest number, and earlier chunks count against the
 * number kept (oldest first), so restarts do not grow the disk.
 */
static int ct_parts_scan(struct ct_parts *p)
{
	struct dirent *entry;
	uint32_t n;
	int fd = openat(p->ctf.dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		n = errno;
		if (fd >= 0)
			close(fd);
		return -(int)n;
	}
	while ((entry = readdir(d))) {
		n = ct_part_index(entry->d_name, "snapshot");
		if (n >= p->next_snapshot)
			p->next_snapshot = n + 1;
		n = ct_part_index(entry->d_name, "chunk");
		if (!n)
			continue;
		if (n >= p->chunk)
			p->chunk = n;
		if (p->nkept < CT_PART_KEPT_MAX)
			p->kept[p->nkept++] = n;
	}
	closedir(d);
	qsort(p->kept, p->nkept, sizeof(*p->kept), ct_cmp_u32);
	if (!p->next_snapshot)
		p->next_snapshot = 1;
	return 0;
}

static void ct_part_name(char *buf, size_t len, const char *prefix, uint32_t n)
{
	snprintf(buf, len, "%s-%0*u", prefix, CT_PART_DIGITS, n);
}

static void ct_parts_fail(struct ct_parts *p, int err, const char *what)
{
	if (p->failed)
		return;
	p->failed = err;
	fprintf(stderr, "coretrace: %s in %s failed: %s; recording stopped\n",
		what, p->opts.dir, strerror(-err));
}

/* A chunk the writer removed because nothing was recorded in it */
static void ct_parts_forget(struct ct_parts *p, const char *name)
{
	uint32_t n = ct_part_index(name, "chunk");
	size_t i;

	for (i = 0; n && i < p->nkept; i++) {
		if (p->kept[i] != n)
			continue;
		memmove(p->kept + i, p->kept + i + 1,
			(p->nkept - i - 1) * sizeof(*p->kept));
		p->nkept--;
		p->chunks_written--;
		return;
	}
}

/* The writer finished a part */
static void ct_parts_closed(void *ctx, const char *name, uint64_t bytes, int err)
{
	struct ct_parts *p = ctx;

	if (err) {
		fprintf(stderr, "coretrace: writing %s/%s failed: %s\n",
			p->opts.dir, name, strerror(-err));
		return;
	}
	if (!bytes) {
		ct_parts_forget(p, name);	/* it held nothing: the writer removed it */
		return;
	}
	p->bytes_written += bytes;
	if (ct_part_index(name, "snapshot"))
		p->snapshots++;
	if (p->opts.verbose) {
		fprintf(stderr, "coretrace: written whole: %s/%s (%llu bytes)\n",
			p->opts.dir, name, (unsigned long long)bytes);
	}
}

/* --- the flight recorder */

static void ct_flight_sink(void *ctx, unsigned int cpu, uint64_t events,
			   const unsigned char *packet, size_t len)
{
	struct ct_parts *p = ctx;

	/* the ring holds a packet of CT_CTF_PACKET_MAX: it always fits */
	ct_pktring_push(&p->ring, cpu, events, packet, len);
}

static void ct_flight_dropped(void *ctx, unsigned int cpu, const void *data,
			      size_t len)
{
	struct ct_parts *p = ctx;

	if (cpu < (unsigned int)p->ncpus && len >= CT_CTF_HEAD)
		p->dropped_discarded[cpu] = ct_ctf_packet_u64(data, CT_CTF_DISCARDED);
}

/* What a snapshot holds, found in a first pass over the ring */
struct ct_snap {
	struct ct_parts *p;
	uint64_t since;			/* packets ending before it are left out */
	uint64_t *base;			/* per CPU: losses before the snapshot */
	bool *seen;
	uint64_t begin, end, records, packets;
	int err;
};

static int ct_snap_measure(void *ctx, unsigned int cpu, uint64_t records,
			   const void *data, size_t len)
{
	struct ct_snap *sn = ctx;
	uint64_t begin = ct_ctf_packet_u64(data, CT_CTF_TS_BEGIN);
	uint64_t end = ct_ctf_packet_u64(data, CT_CTF_TS_END);

	(void)cpu;
	(void)len;
	if (end < sn->since)
		return 0;
	if (!sn->packets || begin < sn->begin)
		sn->begin = begin;
	if (end > sn->end)
		sn->end = end;
	sn->records += records;
	sn->packets++;
	return 0;
}

static int ct_snap_emit(void *ctx, unsigned int cpu, uint64_t records,
			const void *data, size_t len)
{
	struct ct_snap *sn = ctx;

	(void)records;
	if (cpu >= (unsigned int)sn->p->ncpus)
		return 0;
	if (ct_ctf_packet_u64(data, CT_CTF_TS_END) < sn->since) {
		/* before the window: its losses are not the snapshot's */
		sn->base[cpu] = ct_ctf_packet_u64(data, CT_CTF_DISCARDED);
		sn->seen[cpu] = true;
		return 0;
	}
	if (!sn->seen[cpu]) {
		/* losses up to the packet before this CPU's first one are not the snapshot's */
		sn->seen[cpu] = true;
		sn->base[cpu] = sn->p->dropped_discarded[cpu];
	}
	return ct_ctf_emit(&sn->p->ctf, cpu, data, len, sn->base[cpu]);
}

static int ct_flight_snapshot(struct ct_output *out, const char *reason,
			      uint64_t since_ns)
{
	struct ct_parts *p = (struct ct_parts *)out;
	struct ct_ctf_part part = { "snapshot", reason, 0, 0, 0, 0, 0 };
	struct ct_snap sn = { p, since_ns, NULL, NULL, 0, 0, 0, 0, 0 };
	char name[64];
	long n;
	int err;

	if (p->failed)
		return p->failed;
	err = ct_ctf_flush_all(&p->ctf);
	if (!p->ring.count)
		return err ? err : -ENODATA;
	ct_pktring_for_each(&p->ring, ct_snap_measure, &sn);
	if (!sn.packets)
		return err ? err : -ENODATA;
	sn.base = calloc((size_t)p->ncpus, sizeof(*sn.base));
	sn.seen = calloc((size_t)p->ncpus, sizeof(*sn.seen));
	if (!sn.base || !sn.seen)
		err = -ENOMEM;
	part.index = p->next_snapshot++;
	part.span_begin_ns = sn.begin;
	part.span_end_ns = sn.end;
	part.overwritten_packets = p->ring.dropped_packets;
	part.overwritten_records = p->ring.dropped_records;
	ct_part_name(name, sizeof(name), "snapshot", part.index);
	n = err ? err : ct_ctf_begin_dir(&p->ctf, name, true, &p->env, &part);
	if (n >= 0)
		n = ct_ctf_write_names(&p->ctf, &out->names->comms,
				       &out->names->irqs, &out->names->cgroups,
				       sn.begin);
	if (n >= 0)
		n = ct_pktring_for_each(&p->ring, ct_snap_emit, &sn);
	if (n >= 0)
		n = ct_ctf_end_dir(&p->ctf);
	free(sn.base);
	free(sn.seen);
	if (n < 0) {
		ct_parts_fail(p, (int)n, "writing a snapshot");
		return (int)n;
	}
	fprintf(stderr, "coretrace: snapshot (%s): %.3f s, %llu records in %llu packets, to %s/%s\n",
		reason, (double)(sn.end - sn.begin) / 1e9,
		(unsigned long long)sn.records, (unsigned long long)sn.packets,
		p->opts.dir, name);
	return 0;
}

/* --- rotated chunks */

/*
 * The earliest time an event of the chunk beginning now can have: the
 * packet about to be written (@next_begin, 0 if none) or one still
 * filling. The names stream is stamped then, so they come before every
 * event of the chunk, and never earlier than the names before them.
 */
static uint64_t ct_chunk_names_ts(struct ct_parts *p, uint64_t next_begin)
{
	uint64_t first = next_begin ? next_begin : UINT64_MAX, at;
	int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++) {
		const struct ct_ctf_stream *s = &p->ctf.streams[cpu];

		if (!s->events)
			continue;
		at = s->used ? s->ts_begin : s->clock;
		if (at < first)
			first = at;
	}
	if (first == UINT64_MAX)
		first = p->names_ts;
	if (first < p->names_ts)
		first = p->names_ts;
	p->names_ts = first;
	return first;
}

static int ct_chunk_begin(struct ct_parts *p, uint64_t next_begin)
{
	struct ct_ctf_part part = { "chunk", NULL, 0, 0, 0, 0, 0 };
	char name[64];
	long n, names;

	part.index = ++p->chunk;
	ct_part_name(name, sizeof(name), "chunk", part.index);
	n = ct_ctf_begin_dir(&p->ctf, name, false, &p->env, &part);
	names = n < 0 ? n : ct_ctf_write_names(&p->ctf, &p->out.names->comms,
						&p->out.names->irqs,
						&p->out.names->cgroups,
						ct_chunk_names_ts(p, next_begin));
	if (n < 0 || names < 0)
		return (int)(n < 0 ? n : names);
	memcpy(p->discard_base, p->last_discarded, (size_t)p->ncpus * sizeof(uint64_t));
	p->chunk_bytes = (uint64_t)n + (uint64_t)names;
	p->chunk_begun_ns = p->now_ns;
	p->chunk_packets = 0;
	p->chunks_written++;
	if (p->nkept < CT_PART_KEPT_MAX)
		p->kept[p->nkept++] = part.index;
	return 0;
}

/*
 * The oldest chunks go until @room more fit in the count kept: removed
 * before the next one begins, so the disk never holds more than the count.
 */
static int ct_chunk_trim(struct ct_parts *p, size_t room)
{
	char name[64];
	size_t drop;
	int err = 0;

	if (!p->opts.max_chunks || p->nkept + room <= p->opts.max_chunks)
		return 0;
	drop = p->nkept + room - p->opts.max_chunks;
	for (size_t i = 0; i < drop && !err; i++) {
		ct_part_name(name, sizeof(name), "chunk", p->kept[i]);
		err = ct_ctf_remove_dir(&p->ctf, name);
		p->chunks_removed++;
	}
	memmove(p->kept, p->kept + drop, (p->nkept - drop) * sizeof(*p->kept));
	p->nkept -= drop;
	return err;
}

static int ct_chunk_rotate(struct ct_parts *p, uint64_t next_begin)
{
	int err = ct_ctf_end_dir(&p->ctf);

	if (!err)
		err = ct_chunk_trim(p, 1);
	if (!err)
		err = ct_chunk_begin(p, next_begin);
	if (err)
		ct_parts_fail(p, err, "beginning a chunk");
	return err;
}

static void ct_chunk_sink(void *ctx, unsigned int cpu, uint64_t events,
			  const unsigned char *packet, size_t len)
{
	struct ct_parts *p = ctx;
	int err;

	(void)events;
	if (p->failed)
		return;
	if (p->opts.chunk_bytes && p->chunk_packets &&
	    p->chunk_bytes + len > p->opts.chunk_bytes &&
	    ct_chunk_rotate(p, ct_ctf_packet_u64(packet, CT_CTF_TS_BEGIN)))
		return;
	err = ct_ctf_emit(&p->ctf, cpu, packet, len, p->discard_base[cpu]);
	if (err) {
		ct_parts_fail(p, err, "writing a chunk");
		return;
	}
	p->last_discarded[cpu] = ct_ctf_packet_u64(packet, CT_CTF_DISCARDED);
	p->chunk_bytes += len;
	p->chunk_packets++;
}

/* --- the output */

static int ct_parts_feed(struct ct_output *out, const union ct_record *rec)
{
	struct ct_parts *p = (struct ct_parts *)out;

	ct_ctf_add(&p->ctf, rec, p->now_ns);
	return 0;
}

static int ct_parts_tick(struct ct_output *out, uint64_t now_ns)
{
	struct ct_parts *p = (struct ct_parts *)out;

	p->now_ns = now_ns;
	ct_ctf_poll(&p->ctf);
	ct_ctf_flush_old(&p->ctf, now_ns, CT_PARTS_FLUSH_NS);
	if (!p->ring.buf && p->opts.chunk_ns && p->chunk_packets &&
	    now_ns - p->chunk_begun_ns >= p->opts.chunk_ns &&
	    !ct_ctf_flush_all(&p->ctf))
		ct_chunk_rotate(p, 0);
	if (p->ctf.error)
		ct_parts_fail(p, p->ctf.error, "writing");
	return p->failed;
}

static void ct_parts_losses(struct ct_output *out, unsigned int cpu,
			    uint64_t lost)
{
	ct_ctf_set_discarded(&((struct ct_parts *)out)->ctf, (int)cpu, lost);
}

static void ct_parts_free(struct ct_parts *p)
{
	ct_pktring_free(&p->ring);
	free(p->dropped_discarded);
	free(p->discard_base);
	free(p->last_discarded);
	free(p->kept);
}

static int ct_parts_close(struct ct_output *out)
{
	struct ct_parts *p = (struct ct_parts *)out;
	uint64_t held = p->ring.count, held_bytes = p->ring.bytes;
	int err = 0;

	if (p->ring.buf && !p->failed)
		err = ct_flight_snapshot(out, "end of recording", 0);
	if (err == -ENODATA)
		err = 0;
	if (!p->ring.buf)
		ct_ctf_flush_all(&p->ctf);
	p->ctf.sink = NULL;
	if (ct_ctf_close(&p->ctf) && !err)
		err = p->ctf.error;
	if (p->failed && !err)
		err = p->failed;
	if (p->ring.buf)
		fprintf(stderr, "coretrace: flight recorder: %u snapshot%s in %s; %llu records given, %llu packets (%llu bytes of %llu) held at the end, %llu records in %llu packets overwritten in memory\n",
			p->snapshots, p->snapshots == 1 ? "" : "s", p->opts.dir,
			(unsigned long long)p->ctf.events,
			(unsigned long long)held, (unsigned long long)held_bytes,
			(unsigned long long)p->opts.flight_bytes,
			(unsigned long long)p->ring.dropped_records,
			(unsigned long long)p->ring.dropped_packets);
	else
		fprintf(stderr, "coretrace: wrote %llu events in %llu chunk%s to %s: %llu bytes; %llu chunk%s removed, %zu kept\n",
			(unsigned long long)p->ctf.events,
			(unsigned long long)p->chunks_written,
			p->chunks_written == 1 ? "" : "s", p->opts.dir,
			(unsigned long long)p->bytes_written,
			(unsigned long long)p->chunks_removed,
			p->chunks_removed == 1 ? "" : "s", p->nkept);
	ct_parts_free(p);
	return err;
}

static const struct ct_output_ops ct_flight_ops = {
	.feed = ct_parts_feed,
	.tick = ct_parts_tick,
	.losses = ct_parts_losses,
	.close = ct_parts_close,
	.snapshot = ct_flight_snapshot,
	.names_first = true,
};

static const struct ct_output_ops ct_chunks_ops = {
	.feed = ct_parts_feed,
	.tick = ct_parts_tick,
	.losses = ct_parts_losses,
	.close = ct_parts_close,
	.names_first = true,
};

static int ct_parts_start(struct ct_parts *p, const struct ct_ctf_env *env)
{
	size_t n = (size_t)p->ncpus;
	int err;

	snprintf(p->release, sizeof(p->release), "%s", env->kernel_release);
	snprintf(p->hostname, sizeof(p->hostname), "%s", env->hostname);
	p->env.kernel_release = p->release;
	p->env.hostname = p->hostname;
	p->env.clock_offset_ns = env->clock_offset_ns;
	p->dropped_discarded = calloc(n, sizeof(uint64_t));
	p->discard_base = calloc(n, sizeof(uint64_t));
	p->last_discarded = calloc(n, sizeof(uint64_t));
	p->kept = calloc(CT_PART_KEPT_MAX, sizeof(*p->kept));
	if (!p->dropped_discarded || !p->discard_base || !p->last_discarded ||
	    !p->kept)
		return -ENOMEM;
	if (p->opts.flight_bytes) {
		err = ct_pktring_init(&p->ring, (size_t)p->opts.flight_bytes);
		if (err)
			return err;
		p->ring.on_drop = ct_flight_dropped;
		p->ring.drop_ctx = p;
	}
	err = ct_ctf_open_parts(&p->ctf, p->opts.dir, p->ncpus, &p->opts.out);
	if (!err)
		err = ct_parts_scan(p);
	if (err)
		return err;
	p->ctf.ksyms = p->out.names->pctx.ksyms;	/* names travel with the parts */
	p->ctf.stacks = &p->out.names->stacks;
	p->ctf.usyms = p->out.names->usyms;
	p->ctf.sink = p->ring.buf ? ct_flight_sink : ct_chunk_sink;
	p->ctf.sink_ctx = p;
	p->ctf.on_closed = ct_parts_closed;
	p->ctf.closed_ctx = p;
	if (p->ring.buf)
		return 0;
	err = ct_chunk_trim(p, 1);
	return err ? err : ct_chunk_begin(p, 0);
}

struct ct_output *ct_parts_output(const struct ct_parts_opts *opts, int ncpus,
				  const struct ct_ctf_env *env,
				  struct ct_names *names, uint64_t now_ns,
				  int *err, char *why)
{
	struct ct_parts *p = calloc(1, sizeof(*p));

	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->opts = *opts;
	p->ctf.dir_fd = -1;	/* none yet: an early failure closes nothing */
	p->ncpus = ncpus;
	p->now_ns = now_ns;
	p->out.names = names;
	p->out.ops = opts->flight_bytes ? &ct_flight_ops : &ct_chunks_ops;
	*err = ct_parts_start(p, env);
	if (*err) {
		snprintf(why, CT_OUTDIR_WHY, "%s", p->ctf.why);
		if (p->ctf.streams)
			ct_ctf_close(&p->ctf);
		else if (p->ctf.dir_fd >= 0)
			close(p->ctf.dir_fd);
		ct_parts_free(p);
		free(p);
		return NULL;
	}
	return &p->out;
}
