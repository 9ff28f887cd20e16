// SPDX-License-Identifier: GPL-2.0
/* The capture reader: a round trip, then every kind of broken capture. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "ct_test.h"
#include "model/args.h"
#include "capture/ctf_read.h"

struct collected {
	unsigned long count;
	union ct_record last;
};

static void collect(const union ct_record *rec, void *data)
{
	struct collected *c = data;

	c->count++;
	c->last = *rec;
}

/* a capture of 3 records on CPU 1 in @dir */
static void write_capture(const char *dir)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf ctf;
	union ct_record r;

	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.comm, 10);
	r.comm.type = CT_EV_COMM;
	r.comm.cpu = 1;
	r.comm.pid = 7;
	strcpy(r.comm.comm, "seven");
	ct_ctf_add(&ctf, &r, 0);
	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.sched_switch, 20);
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	r.sched_switch.cpu = 1;
	r.sched_switch.prev_pid = 7;
	r.sched_switch.next_pid = 8;
	r.sched_switch.prev_state = 0x101;
	ct_ctf_add(&ctf, &r, 0);
	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.exec, 30);
	r.exec.type = CT_EV_SCHED_PROCESS_EXEC;
	r.exec.cpu = 1;
	r.exec.pid = 8;
	strcpy(r.exec.filename, "/bin/sh");
	ct_ctf_add(&ctf, &r, 0);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
}

static int read_capture(const char *dir, struct collected *c, char *err, size_t len)
{
	struct ct_ctf_reader r;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = ct_ctf_reader_open(&r, dir);
	if (!rc)
		rc = ct_ctf_reader_run(&r, collect, c);
	snprintf(err, len, "%s", rc ? r.error : "");
	return rc;
}

static void shell(const char *fmt, const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), fmt, dir, dir, dir);
	CT_CHECK_INT(system(cmd), 0);
}

/* break one copy of the capture with @fmt, expect @want in the error */
static void broken(const char *dir, const char *fmt, const char *want)
{
	char copy[300], err[4608];
	struct collected c;

	snprintf(copy, sizeof(copy), "%s-b", dir);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r %s %s", copy, dir, copy);
		CT_CHECK_INT(system(cmd), 0);
	}
	shell(fmt, copy);
	CT_CHECK(read_capture(copy, &c, err, sizeof(err)) != 0);
	if (!strstr(err, want))
		printf("  broken capture (%s): %s\n", fmt, err);
	CT_CHECK(strstr(err, want) != NULL);
}

/*
 * A recording cut in the middle of a packet: every whole packet of every
 * stream is still read, the problem names the file and the packet.
 */
static void test_recovery(void)
{
	char dir[] = "/tmp/ct-unit-read-XXXXXX", want[300], cmd[300];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf_reader reader;
	struct collected c = { 0 };
	struct ct_ctf ctf;
	union ct_record r;
	int cpu;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	for (cpu = 0; cpu < 2; cpu++) {
		memset(&r, 0, sizeof(r));
		r.sched_switch.type = CT_EV_SCHED_SWITCH;
		r.sched_switch.cpu = (uint16_t)cpu;
		ct_set_ts(&r.sched_switch, 100);
		strcpy(r.sched_switch.next_comm, "swapper/0");
		ct_ctf_add(&ctf, &r, 0);
	}
	/* packet 1 of stream_0 (95 bytes: next_comm "swapper/0") is whole, packet 2 is cut */
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 1, 1), 0);
	r.sched_switch.cpu = 0;
	ct_ctf_add(&ctf, &r, 0);
	ct_ctf_add(&ctf, &r, 0);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	snprintf(cmd, sizeof(cmd), "truncate -s 170 %s/stream_0", dir);
	CT_CHECK_INT(system(cmd), 0);

	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK(ct_ctf_reader_run(&reader, collect, &c) != 0);
	CT_CHECK_INT(c.count, 2);		/* one from each stream */
	CT_CHECK_INT(reader.records, 2);
	CT_CHECK_INT(reader.damaged_streams, 1);
	snprintf(want, sizeof(want), "%s/stream_0: offset 95: packet size points past", dir);
	if (!strstr(reader.error, want))
		printf("  recovery: %s\n", reader.error);
	CT_CHECK(strstr(reader.error, want) != NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

struct stamps {
	unsigned long count;
	uint64_t ts[8];
};

static void collect_ts(const union ct_record *rec, void *data)
{
	struct stamps *st = data;

	if (st->count < 8)
		st->ts[st->count] = ct_ts(rec);
	st->count++;
}

/*
 * Timestamps read back exactly: compact headers across a wrap of their
 * low 32 bits, an extended header after a gap of 2^32 ns or more.
 */
static void test_clock_round_trip(void)
{
	const uint64_t want[] = { 4294967000ull, 4294967400ull,	/* low bits wrap */
				  4294967400ull + (5ull << 32),	/* extended */
				  4294967400ull + (5ull << 32) + 4000000000ull };
	char dir[] = "/tmp/ct-unit-read-XXXXXX", cmd[300];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf_reader reader;
	struct stamps st = { 0 };
	struct ct_ctf ctf;
	union ct_record r;
	unsigned int i;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	memset(&r, 0, sizeof(r));
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	for (i = 0; i < 4; i++) {
		ct_set_ts(&r.sched_switch, want[i]);
		ct_ctf_add(&ctf, &r, 0);
	}
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK_INT(ct_ctf_reader_run(&reader, collect_ts, &st), 0);
	CT_CHECK_INT(st.count, 4);
	for (i = 0; i < 4; i++)
		CT_CHECK_INT(st.ts[i], want[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

/*
 * Env values the writer cannot write as they are (quotes, backslashes,
 * control and non-ASCII bytes are dropped) and a negative clock offset:
 * the capture still reads back, through the byte-for-byte metadata check.
 */
static void test_env_round_trip(void)
{
	const int64_t offsets[] = { 0, -1500000001ll, 1764000000123456789ll };
	char dir[] = "/tmp/ct-unit-read-XXXXXX", cmd[300];
	struct ct_ctf_env env = { "6.1.0-\xc3\xa9\"x\\", "h\x01\x7f\xbbost", 0 };
	struct ct_ctf_reader reader;
	struct stamps st = { 0 };
	struct ct_ctf ctf;
	union ct_record r;
	unsigned int i;

	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		env.clock_offset_ns = offsets[i];
		memset(&st, 0, sizeof(st));
		CT_CHECK(mkdtemp(dir) != NULL);
		CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
		memset(&r, 0, sizeof(r));
		r.sched_switch.type = CT_EV_SCHED_SWITCH;
		ct_set_ts(&r.sched_switch, 1000);
		ct_ctf_add(&ctf, &r, 0);
		CT_CHECK_INT(ct_ctf_close(&ctf), 0);
		CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
		CT_CHECK_INT(ct_ctf_reader_run(&reader, collect_ts, &st), 0);
		CT_CHECK_INT(st.count, 1);
		snprintf(cmd, sizeof(cmd), "grep -q 'kernel_release = \"6.1.0-x\";' %s/metadata && grep -q 'hostname = \"host\";' %s/metadata",
			 dir, dir);
		CT_CHECK_INT(system(cmd), 0);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		CT_CHECK_INT(system(cmd), 0);
		memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
	}
}

/* Streams are merged by time: the capture reads back in order. */
static void test_merge_order(void)
{
	const uint64_t ts[] = { 10, 30, 20, 40, 25 };	/* cpu 0, 0, 1, 1, 2 */
	const int cpus[] = { 0, 0, 1, 1, 2 };
	char dir[] = "/tmp/ct-unit-read-XXXXXX", cmd[300];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf_reader reader;
	struct stamps st = { 0 };
	struct ct_ctf ctf;
	union ct_record r;
	unsigned int i;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 3, &env, NULL), 0);
	for (i = 0; i < 5; i++) {
		memset(&r, 0, sizeof(r));
		r.sched_switch.type = CT_EV_SCHED_SWITCH;
		ct_set_ts(&r.sched_switch, ts[i]);
		r.sched_switch.cpu = (uint16_t)cpus[i];
		ct_ctf_add(&ctf, &r, 0);
	}
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK_INT(ct_ctf_reader_run(&reader, collect_ts, &st), 0);
	CT_CHECK_INT(st.count, 5);
	CT_CHECK_INT(st.ts[0], 10);
	CT_CHECK_INT(st.ts[1], 20);
	CT_CHECK_INT(st.ts[2], 25);
	CT_CHECK_INT(st.ts[3], 30);
	CT_CHECK_INT(st.ts[4], 40);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

struct named {
	int calls;
	uint64_t addr;
	char name[CT_CTF_KSYM_NAME];
};

static void on_ksym(void *ctx, uint64_t addr, const char *name)
{
	struct named *n = ctx;

	n->calls++;
	n->addr = addr;
	snprintf(n->name, sizeof(n->name), "%s", name);
}

/* A function's name is written once, before its first record, and read back. */
static void test_ksym(void)
{
	static const char kallsyms[] =
		"ffffffff81000000 T demo_start\nffffffff81000100 t demo_fn\n";
	char dir[] = "/tmp/ct-unit-read-XXXXXX", cmd[300];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf_reader reader;
	struct named named = { 0 };
	struct stamps st = { 0 };
	struct ct_ksyms ks;
	struct ct_ctf ctf;
	union ct_record r;
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	int i;

	memset(&ks, 0, sizeof(ks));
	CT_CHECK_INT(ct_ksyms_load(&ks, f), 0);
	fclose(f);
	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	ctf.ksyms = &ks;
	for (i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		r.hrtimer_entry.type = CT_EV_HRTIMER_EXPIRE_ENTRY;
		ct_set_ts(&r.hrtimer_entry, 100 + (uint64_t)i);
		r.hrtimer_entry.function = 0xffffffff81000100ull;
		r.hrtimer_entry.hrtimer = 0xffff888000001000ull;
		ct_ctf_add(&ctf, &r, 0);
	}
	/* 3 records of 5 + 8 + 8 bytes, one name event of 5 + 8 + "demo_fn" */
	CT_CHECK_INT(ctf.type_bytes[CT_EV_HRTIMER_EXPIRE_ENTRY], 3 * 21);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK_INT(ctf.bytes, 68 + 3 * 21 + 5 + 8 + 8);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	reader.on_ksym = on_ksym;
	reader.ksym_ctx = &named;
	CT_CHECK_INT(ct_ctf_reader_run(&reader, collect_ts, &st), 0);
	CT_CHECK_INT(st.count, 3);		/* names are not records */
	CT_CHECK_INT(named.calls, 1);
	CT_CHECK_INT(named.addr, 0xffffffff81000100ull);
	CT_CHECK_STR(named.name, "demo_fn");
	ct_ksyms_free(&ks);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

/* What is not a capture's directory, and outputs a reader may not write. */
static void test_capture_paths(const char *dir)
{
	char why[4608], path[5000], copy[300];
	struct ct_ctf_reader reader;

	CT_CHECK(ct_ctf_reader_open(&reader, "") != 0);
	CT_CHECK_STR(reader.error, "the capture directory's name is empty");
	snprintf(path, sizeof(path), "%s/metadata", dir);
	CT_CHECK(ct_ctf_reader_open(&reader, path) != 0);
	CT_CHECK(strstr(reader.error, "metadata: not a directory") != NULL);
	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	CT_CHECK(ct_ctf_reader_open(&reader, path) != 0);
	CT_CHECK(strstr(reader.error, "File name too long") != NULL);
	snprintf(path, sizeof(path), "%s/missing", dir);
	CT_CHECK(ct_ctf_reader_open(&reader, path) != 0);
	CT_CHECK(strstr(reader.error, "missing: No such file or directory") != NULL);

	/* the capture's own files, by any name, and anything inside it */
	snprintf(path, sizeof(path), "%s/stream_1", dir);
	CT_CHECK_INT(ct_output_check(path, dir, why, sizeof(why)), -EEXIST);
	CT_CHECK(strstr(why, "is a file of the capture being read") != NULL);
	snprintf(path, sizeof(path), "%s/../%s/metadata", dir, strrchr(dir, '/') + 1);
	CT_CHECK_INT(ct_output_check(path, dir, why, sizeof(why)), -EEXIST);
	snprintf(path, sizeof(path), "%s/chart.svg", dir);
	CT_CHECK_INT(ct_output_check(path, dir, why, sizeof(why)), -EEXIST);
	CT_CHECK(strstr(why, "is inside the capture being read") != NULL);
	snprintf(copy, sizeof(copy), "%s-link", dir);
	shell("ln -sf %s/stream_1 %s-link", dir);
	CT_CHECK_INT(ct_output_check(copy, dir, why, sizeof(why)), -EEXIST);
	CT_CHECK_INT(ct_output_check(dir, dir, why, sizeof(why)), -EISDIR);
	CT_CHECK_INT(ct_output_check("", dir, why, sizeof(why)), -EINVAL);
	snprintf(copy, sizeof(copy), "%s-out.svg", dir);
	CT_CHECK_INT(ct_output_check(copy, dir, why, sizeof(why)), 0);
	CT_CHECK_INT(ct_output_check("chart.svg", dir, why, sizeof(why)), 0);
	shell("rm -f %s-link", dir);

	/* a write error is reported, with the file's name */
	{
		FILE *full = fopen("/dev/full", "w");

		CT_CHECK(full != NULL);
		if (full) {
			fputs("x", full);
			CT_CHECK_INT(ct_close_output(full, "unit", "/dev/full"), -1);
		}
		full = fopen("/dev/null", "w");
		if (full) {
			fputs("x", full);
			CT_CHECK_INT(ct_close_output(full, "unit", "/dev/null"), 0);
		}
	}
}

/* offset of packet @k of @path's stream, or -1 */
static long packet_at(const char *path, int k)
{
	unsigned char ctx[CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES];
	long off = 0;
	FILE *f = fopen(path, "rb");
	uint64_t bits;

	if (!f)
		return -1;
	while (k-- > 0) {
		if (fseek(f, off, SEEK_SET) || fread(ctx, sizeof(ctx), 1, f) != 1) {
			off = -1;
			break;
		}
		memcpy(&bits, ctx + 48, 8);
		off += (long)(bits / 8);
	}
	fclose(f);
	return off;
}

/* write @n bytes of @value at @off of @path */
static void patch(const char *path, long off, uint64_t value, size_t n)
{
	FILE *f = fopen(path, "r+b");

	CT_CHECK(f != NULL && off >= 0);
	if (!f)
		return;
	CT_CHECK(fseek(f, off, SEEK_SET) == 0);
	CT_CHECK(fwrite(&value, n, 1, f) == 1);
	CT_CHECK(fclose(f) == 0);
}

/* offset of the last 8 bytes that hold @value in @path, or -1 */
static long find_u64(const char *path, uint64_t value)
{
	unsigned char buf[4096];
	size_t n, i;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (i = n; i >= 8; i--)
		if (!memcmp(buf + i - 8, &value, 8))
			return (long)(i - 8);
	return -1;
}

/*
 * A packet context or event clock that babeltrace2 would refuse is refused:
 * stream_0 of @dir holds packet 0 (ts 100, 1 lost) and packet 1 (200, 300,
 * then 300 + 2^33 in an extended header, 3 lost).
 */
static void packet_broken(const char *dir, int packet, long field, uint64_t value,
			  size_t n, const char *want)
{
	char copy[300], path[400], cmd[700], err[4608];
	struct collected c;
	long at;

	snprintf(copy, sizeof(copy), "%s-b", dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r %s %s", copy, dir, copy);
	CT_CHECK_INT(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/stream_0", copy);
	at = packet < 0 ? find_u64(path, 300 + (1ull << 33)) : packet_at(path, packet) + field;
	patch(path, at, value, n);
	CT_CHECK(read_capture(copy, &c, err, sizeof(err)) != 0);
	if (!strstr(err, want))
		printf("  broken packet (%d/%ld = %llu): %s\n", packet, field,
		       (unsigned long long)value, err);
	CT_CHECK(strstr(err, want) != NULL);
}

/* @dir's CPU 0 says 1 record lost, then 3 in all: the reader keeps 3 */
static void test_losses(const char *dir)
{
	struct ct_ctf_reader *r = calloc(1, sizeof(*r));
	struct collected c = { 0 };

	CT_CHECK(r != NULL);
	if (!r)
		return;
	CT_CHECK_INT(ct_ctf_reader_open(r, dir), 0);
	CT_CHECK_INT(ct_ctf_reader_run(r, collect, &c), 0);
	CT_CHECK_INT(r->lost[0], 3);
	CT_CHECK_INT(r->lost[1], 0);
	CT_CHECK_INT(r->lost_total, 3);
	free(r);
}

static void test_packet_checks(void)
{
	const uint64_t ts[] = { 100, 200, 300, 300 + (1ull << 33) };
	char dir[] = "/tmp/ct-unit-read-XXXXXX", cmd[300], err[4608];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct collected c;
	struct ct_ctf ctf;
	union ct_record r;
	unsigned int i;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	memset(&r, 0, sizeof(r));
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	for (i = 0; i < 4; i++) {
		ct_set_ts(&r.sched_switch, ts[i]);
		ct_ctf_set_discarded(&ctf, 0, i ? 3 : 1);
		ct_ctf_add(&ctf, &r, 0);
		if (!i)
			CT_CHECK_INT(ct_ctf_flush_old(&ctf, 1, 1), 0);
	}
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK_INT(read_capture(dir, &c, err, sizeof(err)), 0);
	CT_CHECK_INT(c.count, 4);
	test_losses(dir);

	/* context: 24 timestamp_begin, 32 timestamp_end, 56 discarded, 64 cpu_id */
	packet_broken(dir, 0, 24, 101, 8, "timestamp_begin after its timestamp_end");
	packet_broken(dir, 1, 24, 50, 8, "begins before the previous packet of its stream ends");
	packet_broken(dir, 0, 64, CT_MAX_CPUS, 4, "cpu_id out of range");
	packet_broken(dir, 0, 64, 1, 4, "not the CPU its stream file is named after");
	packet_broken(dir, 1, 56, 0, 8, "events_discarded smaller than the packet before's");
	packet_broken(dir, 1, 32, 250, 8, "event timestamp outside its packet's");
	packet_broken(dir, -1, 0, 250, 8, "the clock goes back");
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s-b", dir, dir);
	CT_CHECK_INT(system(cmd), 0);
}

void test_ctf_read(void)
{
	char dir[] = "/tmp/ct-unit-read-XXXXXX", err[4608], cmd[300];
	struct collected c;

	CT_CHECK(mkdtemp(dir) != NULL);
	write_capture(dir);
	CT_CHECK_INT(read_capture(dir, &c, err, sizeof(err)), 0);
	CT_CHECK_INT(c.count, 3);
	CT_CHECK_INT(c.last.hdr.type, CT_EV_SCHED_PROCESS_EXEC);
	CT_CHECK_INT(c.last.hdr.cpu, 1);
	CT_CHECK_INT(ct_ts(&c.last.exec), 30);
	CT_CHECK_STR(c.last.exec.filename, "/bin/sh");

	/* stream_1: header 0..67, comm event at 68 */
	broken(dir, "printf 'xx' | dd of=%s/stream_1 bs=1 seek=0 conv=notrunc 2>/dev/null", "wrong packet magic");
	/*
	 * a packet declaring 60 MiB over a sparse file (no disk at all): more
	 * than the writer ever makes, refused before anything is allocated
	 */
	broken(dir, "truncate -s 62914560 %s/stream_1 && printf '\\000\\000\\000\\036\\000\\000\\000\\000' | dd of=%s/stream_1 bs=1 seek=48 conv=notrunc 2>/dev/null",
	       "packet larger than coretrace writes (64 KiB)");
	/* one uuid byte, flipped (a fixed byte could be the one it holds) */
	broken(dir, "b=$(od -An -tu1 -j5 -N1 %s/stream_1) && printf \"\\\\$(printf %%03o $((b ^ 1)))\" | dd of=%s/stream_1 bs=1 seek=5 conv=notrunc 2>/dev/null", "another trace");
	broken(dir, "truncate -s 40 %s/stream_1", "truncated packet header");
	broken(dir, "truncate -s 100 %s/stream_1", "past the end of the file");
	broken(dir, "printf '\\377\\377' | dd of=%s/stream_1 bs=1 seek=46 conv=notrunc 2>/dev/null", "content size larger");
	broken(dir, "printf '\\376' | dd of=%s/stream_1 bs=1 seek=68 conv=notrunc 2>/dev/null", "unknown type");
	broken(dir, "truncate -s 5 %s/metadata", "not CTF 1.8");
	broken(dir, "sed -i 's/coretrace_abi = [0-9]*/coretrace_abi = 99/' %s/metadata", "from the future");
	/* a capture of ABI 2 and layout 2 (before the cgroup records) */
	broken(dir, "sed -i 's/coretrace_abi = [0-9]*/coretrace_abi = 2/' %s/metadata",
	       "record ABI version this coretrace does not read");
	broken(dir, "sed -i 's/coretrace_ctf = [0-9]*/coretrace_ctf = 2/' %s/metadata",
	       "capture layout this coretrace does not read (older coretrace)");
	broken(dir, "sed -i 's/coretrace_abi/other_abi/' %s/metadata", "not a coretrace capture");
	broken(dir, "rm %s/stream_1", "no stream files");
	broken(dir, "head -c 4096 /dev/zero | tr '\\000' U > %s/stream_1", "stream_1: offset 0: wrong packet magic");
	/* files of the wrong kind: one sentence, never a hang in open() */
	alarm(20);
	broken(dir, "rm %s/stream_1 && mkfifo %s/stream_1", "stream_1: offset 0: a FIFO, not a regular file");
	broken(dir, "rm %s/metadata && mkfifo %s/metadata", "metadata: a FIFO, not a regular file");
	alarm(0);
	broken(dir, "rm %s/stream_1 && mkdir %s/stream_1", "stream_1: offset 0: a directory, not a file");
	broken(dir, "rm %s/metadata && mkdir %s/metadata", "metadata: a directory, not a file");
	broken(dir, "rm %s/metadata && ln -s /dev/zero %s/metadata", "metadata: a device, not a regular file");
	broken(dir, "rm %s/metadata", "metadata: No such file or directory");
	broken(dir, "truncate -s 0 %s/stream_1", "stream_1: offset 0: empty stream file");
	/* a stream is the CPU it is named after, and only one stream is */
	broken(dir, "mv %s/stream_1 %s/stream_7", "not the CPU its stream file is named after");
	broken(dir, "cp %s/stream_1 %s/stream_01", "a second stream file of the same CPU");
	broken(dir, "sed -i 's/size = 32; align = 8; signed = 0; } _prev_tid/size = 64; align = 8; signed = 0; } _prev_tid/' %s/metadata",
	       "stream and event declarations differ");
	broken(dir, "sed -i 's/id = 1;/id = 2;/' %s/metadata", "stream and event declarations differ");
	broken(dir, "sed -i 's/freq = 1000000000;/freq = 1000;/' %s/metadata", "clock differ");
	broken(dir, "sed -i 's/byte_order = le/byte_order = be/' %s/metadata", "types and trace packet header differ");
	broken(dir, "printf 'x\\000' >> %s/metadata", "NUL byte in the metadata");
	/* what babeltrace2 refuses outside the layout: env text and values */
	broken(dir, "sed -i 's/domain = \"kernel\"/domain = \"kernal\"/' %s/metadata", "env differ");
	broken(dir, "sed -i 's/hostname = \"h\"/hostname = \"h\\xbb\"/' %s/metadata", "env or clock values not written");
	broken(dir, "sed -i 's/hostname = \"h\"/hostname = \"h/' %s/metadata", "env or clock values not written");
	broken(dir, "sed -i 's/\\toffset = 0;/\\toffset = 00;/' %s/metadata", "clock differ");
	broken(dir, "sed -i 's/\\toffset = 0;/\\toffset = x;/' %s/metadata", "env or clock values not written");
	broken(dir, "sed -i 's/^};$/}/' %s/metadata", "types and trace packet header differ");
	broken(dir, "printf '\\n' >> %s/metadata", "stream and event declarations differ");
	test_capture_paths(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s-b", dir, dir);
	CT_CHECK_INT(system(cmd), 0);
	test_recovery();
	test_clock_round_trip();
	test_env_round_trip();
	test_merge_order();
	test_packet_checks();
	test_ksym();
}
