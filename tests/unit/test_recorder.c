// SPDX-License-Identifier: GPL-2.0
/*
 * Always-on recording (recorder.c): a flight recorder's snapshots and a
 * rotated recording's chunks, written by the real writer process and read
 * back by the capture reader, each part alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ct_test.h"
#include "capture/ctf_read.h"
#include "model/output.h"
#include "capture/recorder.h"
#include "commands/trigger.h"

static char why[CT_OUTDIR_WHY];	/* a refused directory's sentence */

struct tally {
	unsigned long long records, comms, switches;
	unsigned long long named_43;	/* comm records naming pid 43 */
	uint64_t first_ts, last_ts;
	uint64_t cpu_first[2], cpu_last[2];	/* switches on CPU 0 and 1 */
};

static void tally_record(const union ct_record *rec, void *ctx)
{
	struct tally *t = ctx;

	if (!t->records || ct_ts(rec) < t->first_ts)
		t->first_ts = ct_ts(rec);
	if (ct_ts(rec) > t->last_ts)
		t->last_ts = ct_ts(rec);
	t->records++;
	if (rec->hdr.type == CT_EV_COMM) {
		t->comms++;
		t->named_43 += rec->comm.pid == 43 && !strcmp(rec->comm.comm, "ct-next");
	}
	if (rec->hdr.type != CT_EV_SCHED_SWITCH || rec->hdr.cpu > 1)
		return;
	if (!t->cpu_first[rec->hdr.cpu])
		t->cpu_first[rec->hdr.cpu] = ct_ts(rec);
	t->cpu_last[rec->hdr.cpu] = ct_ts(rec);
	t->switches++;
}

static int read_part(const char *dir, struct tally *t)
{
	struct ct_ctf_reader reader;
	int err;

	memset(t, 0, sizeof(*t));
	err = ct_ctf_reader_open(&reader, dir);
	if (!err)
		err = ct_ctf_reader_run(&reader, tally_record, t);
	if (err)
		fprintf(stderr, "  reading %s: %s\n", dir, reader.error);
	return err;
}

/* env NAME = VALUE; of DIR/metadata, or -1 */
static long long metadata_number(const char *dir, const char *name)
{
	char path[512], line[512], want[128];
	long long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	snprintf(want, sizeof(want), "\t%s = %%lld;", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, want, &value) == 1)
			break;
	fclose(f);
	return value;
}

union ct_record ct_test_rec_switch(uint16_t cpu, uint64_t ts)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	r.sched_switch.cpu = cpu;
	ct_set_ts(&r.sched_switch, ts);
	r.sched_switch.prev_pid = 42;
	r.sched_switch.next_pid = 43;
	return r;
}

static union ct_record rec_comm(uint32_t pid, const char *name, uint64_t ts)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.comm.type = CT_EV_COMM;
	ct_set_ts(&r.comm, ts);
	r.comm.pid = pid;
	snprintf(r.comm.comm, sizeof(r.comm.comm), "%s", name);
	return r;
}

/* @n switches on 2 CPUs from @ts, 1 us apart, ticking every 1000 */
uint64_t ct_test_feed_switches(struct ct_output *out, uint64_t ts, int n)
{
	union ct_record r;
	int i;

	for (i = 0; i < n; i++, ts += 1000) {
		r = ct_test_rec_switch((uint16_t)(i % 2), ts);
		ct_output_feed(out, &r);
		if (i % 1000 == 999)
			ct_output_tick(out, ts);
	}
	return ts;
}

static void rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "  could not remove %s\n", dir);
}

/* A flight recorder: two snapshots, what is newest, names and counts */
static void test_flight(void)
{
	char dir[] = "/tmp/ct-unit-flight-XXXXXX", part[600];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 256 << 10, 0, 0, 0, 0, { 0, 0, 0, NULL } };
	struct ct_names names;
	struct ct_output *out;
	struct tally t1, t2;
	union ct_record r;
	uint64_t ts, fed = 0;
	long long over;
	bool quiet;
	int err = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	CT_CHECK_INT(err, 0);
	if (!out)
		return;
	CT_CHECK_INT(ct_output_snapshot(out, "empty", 0), -ENODATA);
	r = rec_comm(43, "ct-next", 1000);
	ct_output_feed(out, &r);
	fed++;
	/* about 5 MB of events into 256 KB: most are overwritten */
	ts = ct_test_feed_switches(out, 2000, 300000);
	fed += 300000;
	CT_CHECK_INT(ct_output_snapshot(out, "test", 0), 0);
	ts = ct_test_feed_switches(out, ts, 1000);
	fed += 1000;
	/*
	 * the last 4 ms only: 4000 switches, and the rest of the packet of
	 * each CPU that holds the first of them (64 KiB: under 2700 switches)
	 */
	CT_CHECK_INT(ct_output_snapshot(out, "window", ts - 4000 * 1000), 0);
	/* nothing after a time past the end */
	CT_CHECK_INT(ct_output_snapshot(out, "future", ts + 1000000), -ENODATA);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);

	snprintf(part, sizeof(part), "%s/snapshot-000001", dir);
	CT_CHECK_INT(read_part(part, &t1), 0);
	/* the newest events, the name learnt long before, not the oldest */
	CT_CHECK(t1.switches > 5000 && t1.switches < 300000);
	CT_CHECK_INT(t1.named_43, 1);
	CT_CHECK(t1.first_ts > 2000 + 200000ull * 1000);
	CT_CHECK_INT(t1.last_ts, 2000 + 299999ull * 1000);
	over = metadata_number(part, "coretrace_overwritten_records");
	/* held + overwritten = fed; the names stream adds its one name */
	CT_CHECK_INT((long long)t1.records - 1 + over, 1 + 300000);
	CT_CHECK_INT(metadata_number(part, "coretrace_span_end_ns"),
		     2000 + 299999ll * 1000);

	snprintf(part, sizeof(part), "%s/snapshot-000002", dir);
	CT_CHECK_INT(read_part(part, &t1), 0);
	CT_CHECK(t1.switches >= 4000 && t1.switches < 4000 + 2 * 2700);
	CT_CHECK(t1.first_ts <= ts - 4000 * 1000);
	CT_CHECK(t1.first_ts > ts - (4000 + 2 * 2700) * 1000);
	CT_CHECK_INT(t1.last_ts, ts - 1000);
	CT_CHECK_INT(t1.named_43, 1);

	snprintf(part, sizeof(part), "%s/snapshot-000003", dir);
	CT_CHECK_INT(read_part(part, &t2), 0);
	CT_CHECK_INT(t2.last_ts, ts - 1000);
	over = metadata_number(part, "coretrace_overwritten_records");
	CT_CHECK_INT((long long)t2.records - 1 + over, (long long)fed);
	snprintf(part, sizeof(part), "%s/snapshot-000004", dir);
	CT_CHECK(access(part, F_OK) != 0);	/* "future" wrote nothing */
	snprintf(part, sizeof(part), "%s/.snapshot-000003.partial", dir);
	CT_CHECK(access(part, F_OK) != 0);	/* renamed once whole */
	rm_tree(dir);
	ct_names_free(&names);
}

static uint64_t dir_bytes(const char *dir)
{
	struct dirent *e;
	char path[1024];
	struct stat st;
	uint64_t sum = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			sum += (uint64_t)st.st_size;
	}
	if (d)
		closedir(d);
	return sum;
}

/* Rotation: chunks of a bounded size, the oldest removed, each alone */
static void test_chunks(void)
{
	char dir[] = "/tmp/ct-unit-chunks-XXXXXX", part[600];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 0, 256 << 10, 0, 3, 0, { 0, 0, 0, NULL } };
	struct ct_names names;
	struct ct_output *out;
	struct tally t;
	union ct_record r;
	uint64_t ts, last_end[2] = { 0, 0 };
	bool quiet;
	int err = 0, i, kept = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	r = rec_comm(43, "ct-next", 1000);
	ct_output_feed(out, &r);
	ts = ct_test_feed_switches(out, 2000, 300000);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	(void)ts;
	for (i = 1; i < 100; i++) {
		snprintf(part, sizeof(part), "%s/chunk-%06d", dir, i);
		if (access(part, F_OK))
			continue;
		kept++;
		CT_CHECK(dir_bytes(part) <= 256 << 10);
		CT_CHECK_INT(read_part(part, &t), 0);
		CT_CHECK_INT(t.named_43, 1);	/* every chunk names its tasks */
		CT_CHECK(t.switches > 1000);
		/* a CPU's events go on where its last chunk ended */
		for (int cpu = 0; cpu < 2; cpu++) {
			if (!t.cpu_first[cpu])
				continue;	/* no packet of it in this chunk */
			CT_CHECK(t.cpu_first[cpu] > last_end[cpu]);
			last_end[cpu] = t.cpu_last[cpu];
		}
	}
	CT_CHECK_INT(kept, 3);
	/* the last one holds the last event */
	CT_CHECK_INT(last_end[1], 2000 + 299999ull * 1000);
	rm_tree(dir);
	ct_names_free(&names);
}

struct order {
	unsigned long long records, backwards, comms;
	uint64_t last;
};

static void order_record(const union ct_record *rec, void *ctx)
{
	struct order *o = ctx;

	o->backwards += ct_ts(rec) < o->last;
	o->last = ct_ts(rec);
	o->comms += rec->hdr.type == CT_EV_COMM;
	o->records++;
}

/*
 * A rotated directory read as one capture: every chunk's records in time
 * order, losses added up chunk after chunk, a damaged chunk said while
 * the others are read, snapshots refused as a whole.
 */
static void test_rotated_read(void)
{
	char dir[] = "/tmp/ct-unit-rotated-XXXXXX", path[600];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 0, 256 << 10, 0, 0, 0, { 0, 0, 0, NULL } };
	struct ct_ctf_reader reader;
	struct ct_names names;
	struct ct_output *out;
	struct order o = { 0, 0, 0, 0 };
	union ct_record r;
	uint64_t ts;
	bool quiet;
	int err = 0, chunks = 0, i;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	r = rec_comm(43, "ct-next", 1000);
	ct_output_feed(out, &r);
	ts = ct_test_feed_switches(out, 2000, 30000);
	ct_output_losses(out, 0, 5);
	ts = ct_test_feed_switches(out, ts, 30000);
	ct_output_losses(out, 0, 12);
	ct_output_losses(out, 1, 3);
	ct_test_feed_switches(out, ts, 30000);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	for (i = 1; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/chunk-%06d", dir, i);
		chunks += !access(path, F_OK);
	}
	CT_CHECK(chunks >= 4);

	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK_INT(reader.nchunks, chunks);
	CT_CHECK_INT(ct_ctf_reader_run(&reader, order_record, &o), 0);
	CT_CHECK_INT(o.backwards, 0);
	/* the name once per chunk, every switch once */
	CT_CHECK_INT(o.records - o.comms, 90000);
	CT_CHECK_INT(o.comms, chunks);
	CT_CHECK_INT(reader.lost[0], 12);
	CT_CHECK_INT(reader.lost[1], 3);
	CT_CHECK_INT(reader.lost_total, 15);
	ct_ctf_reader_close(&reader);

	/* the second chunk's metadata gone: the others still read, and said */
	snprintf(path, sizeof(path), "%s/chunk-000002/metadata", dir);
	CT_CHECK_INT(unlink(path), 0);
	memset(&o, 0, sizeof(o));
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK_INT(reader.nchunks, chunks - 1);
	CT_CHECK_INT(reader.damaged_chunks, 1);
	CT_CHECK(ct_ctf_reader_run(&reader, order_record, &o) != 0);
	CT_CHECK(strstr(reader.error, "chunk-000002/metadata") != NULL);
	CT_CHECK(o.records - o.comms > 40000 && o.records - o.comms < 90000);
	CT_CHECK_INT(o.backwards, 0);
	ct_ctf_reader_close(&reader);

	/* a snapshot's metadata put in a chunk: not a chunk */
	snprintf(path, sizeof(path), "%s/chunk-000003/metadata", dir);
	if (!access(path, F_OK)) {
		char cmd[1400];

		snprintf(cmd, sizeof(cmd),
			 "sed -i 's/coretrace_part = \"chunk\"/coretrace_part = \"snapshot\"/' '%s'",
			 path);
		CT_CHECK_INT(system(cmd), 0);
		CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
		CT_CHECK_INT(reader.damaged_chunks, 2);
		ct_ctf_reader_close(&reader);
	}
	rm_tree(dir);

	/* a directory of snapshots is not one capture: name one */
	snprintf(dir, sizeof(dir), "/tmp/ct-unit-rotated-XXXXXX");
	CT_CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/snapshot-000001", dir);
	CT_CHECK_INT(mkdir(path, 0755), 0);
	CT_CHECK(ct_ctf_reader_open(&reader, dir) != 0);
	CT_CHECK(strstr(reader.error, "1 flight-recorder snapshot, each a capture of its own") != NULL);
	ct_ctf_reader_close(&reader);
	/* neither metadata nor parts: the missing metadata is said */
	CT_CHECK_INT(rmdir(path), 0);
	CT_CHECK(ct_ctf_reader_open(&reader, dir) != 0);
	CT_CHECK(strstr(reader.error, "metadata: No such file or directory") != NULL);
	rm_tree(dir);
	ct_names_free(&names);
}

/* A part's env values checked: one out of form refuses the metadata */
static void test_part_metadata(void)
{
	char dir[] = "/tmp/ct-unit-partmeta-XXXXXX", path[100], cmd[1400];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 256 << 10, 0, 0, 0, 0, { 0, 0, 0, NULL } };
	static const char *const damage[] = {
		"s/coretrace_part_index = 1;/coretrace_part_index = x;/",
		"s/coretrace_overwritten_records = [0-9]*;/coretrace_overwritten_records = -1;/",
		"s/coretrace_span_end_ns = [0-9]*;/coretrace_span_end_ns = 0;/",
		"s/coretrace_span_begin = \"[^\"]*\"/coretrace_span_begin = \"yesterday\"/",
		"s/coretrace_overwritten_packets = 0;/coretrace_overwritten_packets = 0;\\n\\tcoretrace_extra = 1;/",
	};
	struct ct_ctf_reader reader;
	struct ct_names names;
	struct ct_output *out;
	bool quiet;
	int err = 0;
	size_t i;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	ct_test_feed_switches(out, 2000, 3000);
	CT_CHECK_INT(ct_output_snapshot(out, "SIGUSR1", 0), 0);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	snprintf(path, sizeof(path), "%s/snapshot-000001", dir);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, path), 0);
	CT_CHECK(reader.is_part);
	CT_CHECK(reader.part.reason && !strcmp(reader.part.reason, "SIGUSR1"));
	CT_CHECK_INT(reader.part.span_begin_ns, 2000);
	CT_CHECK_INT(reader.part.span_end_ns, 2000 + 2999 * 1000);
	for (i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s.bad' && sed -i '%s' '%s.bad/metadata'",
			 path, path, damage[i], path);
		CT_CHECK_INT(system(cmd), 0);
		snprintf(cmd, sizeof(cmd), "%s.bad", path);
		ct_check_report(ct_ctf_reader_open(&reader, cmd) != 0, __FILE__,
				__LINE__, "damaged part metadata refused", damage[i]);
		rm_tree(cmd);
	}
	/* the same metadata untouched still reads */
	CT_CHECK_INT(ct_ctf_reader_open(&reader, path), 0);
	rm_tree(dir);
	ct_names_free(&names);
}

/* An output that only counts the snapshots asked of it */
struct snap_spy {
	struct ct_output out;
	int calls;
	char reason[256];
	uint64_t since;
};

static int spy_snapshot(struct ct_output *out, const char *reason,
			uint64_t since_ns)
{
	struct snap_spy *spy = (struct snap_spy *)out;

	spy->calls++;
	snprintf(spy->reason, sizeof(spy->reason), "%s", reason);
	spy->since = since_ns;
	return 0;
}

static int spy_feed(struct ct_output *out, const union ct_record *rec)
{
	(void)out;
	(void)rec;
	return 0;
}

static struct ct_trigger trig(uint8_t kind, uint64_t ts, uint32_t pid,
			      uint32_t source, uint64_t value_ns)
{
	struct ct_trigger t;

	memset(&t, 0, sizeof(t));
	t.type = CT_REC_TRIGGER;
	ct_set_ts(&t, ts);
	t.cpu = 1;
	t.kind = kind;
	t.pid = pid;
	t.source = source;
	t.value_ns = value_ns;
	return t;
}

/* What a trigger says, when its snapshot is taken, what is held back */
static void test_trigger_ctl(void)
{
	static const struct ct_output_ops spy_ops = {
		.feed = spy_feed, .snapshot = spy_snapshot,
	};
	struct ct_trigger_opts o = { .before = 2, .after = 0.5, .cooldown = 10, .max = 2 };
	struct snap_spy spy;
	struct ct_trigger_ctl ctl;
	struct ct_names names;
	struct ct_trigger t;
	char buf[192];
	const uint64_t s = 1000000000ull;

	memset(&spy, 0, sizeof(spy));
	spy.out.ops = &spy_ops;
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_comm_cache_set(&names.comms, 42, "bad\"na\\me\x1b");
	ct_irq_names_set(&names.irqs, 11, "virtio0");
	t = trig(CT_TRIG_DELAY, 100 * s, 42, 0, 105301000);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "sched delay: tid 42 (bad?na?me?) waited 105.301 ms to run on CPU 1");
	t = trig(CT_TRIG_IRQ, 1, 0, 11, 2100000);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "irq: irq 11 (virtio0) ran 2.100 ms on CPU 1");
	t = trig(CT_TRIG_IRQ, 1, 0, 12, 2100000);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "irq: irq 12 (?) ran 2.100 ms on CPU 1");
	t = trig(CT_TRIG_SOFTIRQ, 1, 0, 3, 1500000);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "softirq: NET_RX ran 1.500 ms on CPU 1");
	t = trig(CT_TRIG_SOFTIRQ, 1, 0, 99, 1500000);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "softirq: ? ran 1.500 ms on CPU 1");
	t = trig(CT_TRIG_EXEC, 1, 7, 0, 0);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "exec: ? by tid 7 on CPU 1");
	t = trig(200, 1, 7, 0, 0);
	CT_CHECK_STR(ct_trigger_describe(&ctl, &t, &names, buf, sizeof(buf)),
		     "trigger of unknown kind 200");

	ct_trigger_init(&ctl, &o);
	t = trig(CT_TRIG_DELAY, 100 * s, 42, 0, 105301000);
	ct_trigger_seen(&ctl, &t, &names);
	/* not before its window after has passed */
	CT_CHECK_INT(ct_trigger_poll(&ctl, &spy.out, 100 * s + s / 4, false), 0);
	CT_CHECK_INT(spy.calls, 0);
	/* a second one inside the window is part of it */
	t = trig(CT_TRIG_DELAY, 100 * s + s / 10, 42, 0, 200000000);
	ct_trigger_seen(&ctl, &t, &names);
	CT_CHECK_INT(ct_trigger_poll(&ctl, &spy.out, 100 * s + s / 2, false), 0);
	CT_CHECK_INT(spy.calls, 1);
	CT_CHECK_INT(spy.since, 98 * s);
	CT_CHECK(strncmp(spy.reason, "trigger sched delay: tid 42", 27) == 0);
	CT_CHECK_INT(ctl.merged, 1);
	/* inside the cooldown: refused; after it: taken; past the maximum: refused */
	t = trig(CT_TRIG_EXEC, 105 * s, 7, 0, 0);
	ct_trigger_seen(&ctl, &t, &names);
	CT_CHECK_INT(ctl.refused, 1);
	t = trig(CT_TRIG_EXEC, 111 * s, 7, 0, 0);
	ct_trigger_seen(&ctl, &t, &names);
	CT_CHECK_INT(ct_trigger_poll(&ctl, &spy.out, 0, true), 0);
	CT_CHECK_INT(spy.calls, 2);
	t = trig(CT_TRIG_EXEC, 130 * s, 7, 0, 0);
	ct_trigger_seen(&ctl, &t, &names);
	CT_CHECK_INT(ctl.refused, 2);
	CT_CHECK_INT(ctl.taken, 2);
	CT_CHECK_INT(ct_trigger_poll(&ctl, &spy.out, 200 * s, false), 0);
	CT_CHECK_INT(spy.calls, 2);
	ct_names_free(&names);
}

/* A chunk in which nothing was recorded is not left behind */
static void test_empty_chunk(void)
{
	char dir[] = "/tmp/ct-unit-empty-XXXXXX", path[600];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 0, 256 << 10, 0, 2, 0, { 0, 0, 0, NULL } };
	struct ct_names names;
	struct ct_output *out;
	bool quiet;
	int err = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	snprintf(path, sizeof(path), "%s/chunk-000001", dir);
	CT_CHECK(access(path, F_OK) != 0);

	/*
	 * coretrace dies with the chunk begun and empty: the writer sees the
	 * pipe end and removes it. This process adopts the orphaned writer
	 * (a subreaper) to wait for it to finish before looking.
	 */
	CT_CHECK_INT(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	pid_t child = fork(), writer = 0;

	if (child == 0) {
		ct_outdir_defaults(&opts.out);
		out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
		_exit(out ? 0 : 1);	/* no close: as if killed */
	}
	CT_CHECK(child > 0);
	CT_CHECK(waitpid(child, &err, 0) == child && WIFEXITED(err) &&
		 WEXITSTATUS(err) == 0);
	for (int i = 0; i < 500 && writer <= 0; i++) {
		writer = waitpid(-1, &err, WNOHANG);
		if (!writer)
			usleep(10000);
	}
	CT_CHECK(writer > 0);	/* the writer ended */
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	snprintf(path, sizeof(path), "%s/chunk-000001", dir);
	CT_CHECK(access(path, F_OK) != 0);
	CT_CHECK_INT(rmdir(dir), 0);	/* and nothing else is left */
	ct_names_free(&names);
}

/*
 * A recorder started again in the same directory begins another recording
 * (a new trace UUID) whose chunks follow the first's: the directory is not
 * one capture, and the reader says so instead of reading them as one.
 */
static void test_two_recordings(void)
{
	char dir[] = "/tmp/ct-unit-tworec-XXXXXX", part[600];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 0, 256 << 10, 0, 0, 0, { 0, 0, 0, NULL } };
	struct ct_ctf_reader reader;
	struct ct_names names;
	struct ct_output *out;
	uint64_t ts = 2000;
	bool quiet;
	int err = 0, run;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	for (run = 0; run < 2; run++) {
		ct_outdir_defaults(&opts.out);
		out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
		CT_CHECK(out != NULL);
		if (!out)
			return;
		ts = ct_test_feed_switches(out, ts, 5000);
		CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	}
	snprintf(part, sizeof(part), "%s/chunk-000002", dir);
	CT_CHECK_INT(access(part, F_OK), 0);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), -EINVAL);
	CT_CHECK(strstr(reader.error, "chunk-000002 begins another recording than chunk-000001 (their trace UUIDs differ)") != NULL);
	ct_ctf_reader_close(&reader);
	/* each chunk still reads alone */
	CT_CHECK_INT(ct_ctf_reader_open(&reader, part), 0);
	ct_ctf_reader_close(&reader);
	rm_tree(dir);
	ct_names_free(&names);
}

void test_recorder(void)
{
	test_empty_chunk();
	test_trigger_ctl();
	test_flight();
	test_chunks();
	test_rotated_read();
	test_part_metadata();
	test_two_recordings();
}
