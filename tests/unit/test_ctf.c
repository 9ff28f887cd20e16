// SPDX-License-Identifier: GPL-2.0
/* The CTF writer: metadata, event encoding, packets, errors. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include "ct_test.h"
#include "capture/ctf.h"

static union ct_record make_switch(uint64_t ts, int cpu)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.sched_switch, ts);
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	r.sched_switch.cpu = (uint16_t)cpu;
	r.sched_switch.prev_pid = 100;
	r.sched_switch.next_pid = 200;
	r.sched_switch.prev_state = 1;
	r.sched_switch.prev_prio = 120;
	r.sched_switch.next_prio = 98;
	memcpy(r.sched_switch.next_comm, "<...>", 6);
	return r;
}

static void test_metadata(void)
{
	struct ct_ctf_env env = { "6.1.0-test", "host\"quote", 1500000000123456789ll };
	unsigned char uuid[16] = { 0x12, 0x34 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int i;

	CT_CHECK_INT(ct_ctf_write_metadata(f, uuid, &env), 0);
	fclose(f);
	CT_CHECK(!strncmp(text, "/* CTF 1.8 */\n", 14));
	CT_CHECK(strstr(text, "uuid = \"12340000-0000-0000-0000-000000000000\";") != NULL);
	CT_CHECK(strstr(text, "kernel_release = \"6.1.0-test\";") != NULL);
	CT_CHECK(strstr(text, "hostname = \"hostquote\";") != NULL);	/* no stray quote */
	CT_CHECK(strstr(text, "coretrace_abi = 5;") != NULL);
	CT_CHECK(strstr(text, "coretrace_ctf = 5;") != NULL);
	CT_CHECK(strstr(text, "name = \"coretrace_task_cgroup\";") != NULL);
	CT_CHECK(strstr(text, "string _path;") != NULL);
	CT_CHECK(strstr(text, "enum : uint8_t { compact = 0 ... 254, extended = 255 } id;") != NULL);
	CT_CHECK(strstr(text, "string _next_comm;") != NULL);
	CT_CHECK(strstr(text, "offset_s = 1500000000;\n\toffset = 123456789;") != NULL);
	CT_CHECK(strstr(text, "uint64_t events_discarded;") != NULL);
	for (i = 0; i < CT_EV_MAX; i++) {
		char want[96];

		snprintf(want, sizeof(want), "name = \"%s\";\n\tid = %d;",
			 ct_events[i].ctf_name, i);
		CT_CHECK(strstr(text, want) != NULL);
		CT_CHECK(ct_events[i].nfields > 0);
	}
	CT_CHECK(strstr(text, "integer { size = 32; align = 8; signed = 0; } _prev_tid;") != NULL);
	CT_CHECK(strstr(text, "string _filename;") != NULL);
	/* addresses in hex, the idle state signed (-1 when leaving idle) */
	CT_CHECK(strstr(text, "integer { size = 64; align = 8; signed = 0; base = 16; } _function;") != NULL);
	CT_CHECK(strstr(text, "integer { size = 32; align = 8; signed = 1; } _state;") != NULL);
	CT_CHECK(strstr(text, "name = \"timer_hrtimer_expire_exit\";") != NULL);
	CT_CHECK(strstr(text, "name = \"workqueue_execute_end\";") != NULL);
	free(text);
}

/* bytes of one @rec added to a fresh capture at @ts after one at @prev */
static uint64_t event_bytes(union ct_record rec, uint64_t prev, uint64_t ts)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", cmd[64];
	union ct_record first = make_switch(prev, 0);
	struct ct_ctf ctf;
	uint64_t bytes;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	ct_ctf_add(&ctf, &first, 0);
	ct_set_ts(&rec.hdr, ts);
	rec.hdr.cpu = 0;
	bytes = ctf.type_bytes[rec.hdr.type];
	ct_ctf_add(&ctf, &rec, 0);
	bytes = ctf.type_bytes[rec.hdr.type] - bytes;
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
	return bytes;
}

static void test_event_bytes(void)
{
	union ct_record r = make_switch(1, 0);

	/* header 5, tids 8, state 2, prios 2, next_comm to its NUL */
	memcpy(r.sched_switch.next_comm, "pingpong", 9);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 9);
	memcpy(r.sched_switch.next_comm, "fifteen-chars-x", 16);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 16);
	/* the name's NUL in either word of the 16 bytes, or at the start */
	memset(r.sched_switch.next_comm, 0x80, CT_COMM_LEN);
	memcpy(r.sched_switch.next_comm, "seven77", 8);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 8);
	memcpy(r.sched_switch.next_comm, "eight888", 9);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 9);
	memset(r.sched_switch.next_comm, 0, CT_COMM_LEN);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 1);
	memcpy(r.sched_switch.next_comm, "fifteen-chars-x", 16);
	/* no NUL in the array: cut to 15 bytes and the NUL */
	memset(r.sched_switch.next_comm, 'x', CT_COMM_LEN);
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 12 + 16);
	/*
	 * a capture's switch takes no more than its ring record (the record
	 * and the ring's header)
	 */
	CT_CHECK(event_bytes(r, 1, 2) <=
		 sizeof(struct ct_sched_switch) + BPF_RINGBUF_HDR_SZ);
	memcpy(r.sched_switch.next_comm, "fifteen-chars-x", 16);
	/* 2^32 ns after the previous event: the extended header */
	CT_CHECK_INT(event_bytes(r, 1, 1 + (1ull << 32)), 10 + 12 + 16);
	CT_CHECK_INT(event_bytes(r, 1, (1ull << 32)), 5 + 12 + 16);

	memset(&r, 0, sizeof(r));
	r.exec.type = CT_EV_SCHED_PROCESS_EXEC;
	strcpy(r.exec.filename, "/bin/true");
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 4 + 4 + 10);
	/* a full array without NUL is cut to its length - 1 plus the NUL */
	memset(r.exec.filename, 'x', sizeof(r.exec.filename));
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 4 + 4 + CT_FILENAME_LEN);

	/* fixed-size records: the record from its type byte, no padding */
	memset(&r, 0, sizeof(r));
	r.wakeup.type = CT_EV_SCHED_WAKEUP;
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 4 + 2 + 1);
	r.hdr.type = CT_EV_WORKQUEUE_EXECUTE_END;
	CT_CHECK_INT(event_bytes(r, 1, 2), 5 + 8);
}

/*
 * The event in the packet is the record's bytes from the type on, but
 * for the timestamp: a record older than the one before it on its CPU
 * gets the stream's time (the clock never goes back).
 */
static void test_event_is_record(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", cmd[64];
	union ct_record first = make_switch(1000, 0), late = make_switch(900, 0);
	const unsigned char *ev;
	struct ct_ctf ctf;
	uint32_t low;

	memcpy(first.sched_switch.next_comm, "a", 2);
	memcpy(late.sched_switch.next_comm, "bb", 3);
	late.sched_switch.prev_pid = 0x01020304;
	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	ct_ctf_add(&ctf, &first, 0);
	ct_ctf_add(&ctf, &late, 0);
	ev = ctf.streams[0].packet + CT_CTF_HEAD + (5 + 12 + 2);
	CT_CHECK_INT(ev[0], CT_EV_SCHED_SWITCH);
	memcpy(&low, ev + 1, 4);
	CT_CHECK_INT(low, 1000);
	CT_CHECK(!memcmp(ev + 5, (const unsigned char *)&late + CT_HDR_SIZE,
			 12 + 3));
	CT_CHECK_INT(ctf.streams[0].used, 2 * (5 + 12) + 2 + 3);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

static void test_capture_files(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	unsigned char buf[256];
	union ct_record r;
	struct ct_ctf ctf;
	uint64_t u64;
	uint32_t u32;
	struct stat st;
	FILE *f;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	r = make_switch(1000, 1);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 5), 0);
	r = make_switch(900, 1);		/* late: stamped 1000, never back */
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 6), 0);
	ct_ctf_set_discarded(&ctf, 1, 42);
	/* nothing waited a second yet: nothing is written */
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 5 + 999999999ull, 1000000000ull), 0);
	snprintf(path, sizeof(path), "%s/stream_1", dir);
	CT_CHECK(!stat(path, &st) && st.st_size == 0);
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 5 + 1000000000ull, 1000000000ull), 0);
	CT_CHECK(!stat(path, &st) && st.st_size == 68 + 46);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);

	f = fopen(path, "r");
	CT_CHECK(f && fread(buf, 1, sizeof(buf), f) == 114);
	if (f)
		fclose(f);
	memcpy(&u32, buf, 4);
	CT_CHECK_INT(u32, CT_CTF_MAGIC);
	memcpy(&u64, buf + 24, 8);
	CT_CHECK_INT(u64, 1000);		/* timestamp_begin */
	memcpy(&u64, buf + 32, 8);
	CT_CHECK_INT(u64, 1000);		/* timestamp_end */
	memcpy(&u64, buf + 40, 8);
	CT_CHECK_INT(u64, 114 * 8);		/* content_size, bits */
	memcpy(&u64, buf + 48, 8);
	CT_CHECK_INT(u64, 114 * 8);		/* packet_size */
	memcpy(&u64, buf + 56, 8);
	CT_CHECK_INT(u64, 42);			/* events_discarded */
	memcpy(&u32, buf + 64, 4);
	CT_CHECK_INT(u32, 1);			/* cpu_id */
	CT_CHECK_INT(buf[68], CT_EV_SCHED_SWITCH);
	memcpy(&u32, buf + 69, 4);
	CT_CHECK_INT(u32, 1000);		/* compact timestamp */
	CT_CHECK_INT(buf[68 + 23], CT_EV_SCHED_SWITCH);
	memcpy(&u32, buf + 68 + 23 + 1, 4);
	CT_CHECK_INT(u32, 1000);		/* the late one, clamped */
	CT_CHECK(!memcmp(buf + 68 + 17, "<...>", 6));	/* next_comm, last */
	snprintf(path, sizeof(path), "%s/stream_0", dir);
	CT_CHECK(stat(path, &st) && errno == ENOENT);	/* no event, no file */
	/* a record for a CPU the capture has no stream for */
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	r = make_switch(1, 7);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 0), -ERANGE);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

/* A full disk: the error is kept and reported, nothing crashes. */
static void test_write_error(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	union ct_record r = make_switch(1, 0);
	struct ct_ctf ctf;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	close(ctf.streams[0].fd);
	ctf.streams[0].fd = open("/dev/full", O_WRONLY);
	CT_CHECK(ctf.streams[0].fd >= 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 0), 0);
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 2000000000ull, 1000000000ull), -ENOSPC);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 0), -ENOSPC);	/* sticky */
	CT_CHECK_INT(ct_ctf_close(&ctf), -ENOSPC);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
	/* a directory that cannot be made */
	CT_CHECK(ct_ctf_open(&ctf, "/proc/coretrace-no/such", 1, &env, NULL) < 0);
	ct_ctf_close(&ctf);
}

/* Packets through the writer process reach the file whole. */
static void test_writer_round_trip(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	union ct_record r = make_switch(1000, 1);
	struct ct_ctf ctf;
	struct stat st;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	CT_CHECK_INT(ct_ctf_start_writer(&ctf), 0);
	CT_CHECK(ctf.writer_pid > 0);
	CT_CHECK_INT(ctf.streams[1].fd, -1);	/* the files are the child's */
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 5), 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 6), 0);
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 5 + 1000000000ull, 1000000000ull), 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 7), 0);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK_INT(ctf.bytes, 2 * 68 + 3 * 23);	/* the writer's count */
	snprintf(path, sizeof(path), "%s/stream_1", dir);
	CT_CHECK(!stat(path, &st) && st.st_size == 2 * 68 + 3 * 23);
	snprintf(path, sizeof(path), "%s/" CT_CTF_CUT_FILE, dir);
	CT_CHECK(stat(path, &st) && errno == ENOENT);	/* ended well */
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

/* Whole packets of @cpu in @path, walked by their sizes; events counted */
static long count_packets(const char *path, uint32_t cpu, uint64_t *events)
{
	static unsigned char buf[4u << 20];
	uint64_t size, content;
	uint32_t magic, id;
	size_t len, at = 0;
	long packets = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (at + CT_CTF_HEAD <= len) {
		memcpy(&magic, buf + at, 4);
		memcpy(&id, buf + at + 64, 4);
		content = ct_ctf_packet_u64(buf + at, 40) / 8;
		size = ct_ctf_packet_u64(buf + at, 48) / 8;
		if (magic != CT_CTF_MAGIC || id != cpu || size != content ||
		    size < CT_CTF_HEAD || at + size > len)
			return -1;
		/* every event is a 23-byte switch here */
		if ((size - CT_CTF_HEAD) % 23)
			return -1;
		*events += (size - CT_CTF_HEAD) / 23;
		at += size;
		packets++;
	}
	return at == len ? packets : -1;
}

/*
 * Packets filled in the slots shared with the writer: many more packets
 * than slots, from two CPUs in turn, each written whole and in order.
 */
static void test_writer_slots(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	uint64_t ts, events[2] = { 0, 0 };
	struct ct_ctf ctf;
	union ct_record r;
	int cpu, added = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 2, &env, NULL), 0);
	CT_CHECK_INT(ct_ctf_start_writer(&ctf), 0);
	CT_CHECK(ctf.slots != NULL);
	/* ~2850 switches fill a packet: 20 packets a CPU, 40 through 6 slots */
	for (ts = 1000; added < 2 * 20 * 2850; ts += 1000) {
		for (cpu = 0; cpu < 2; cpu++, added++) {
			r = make_switch(ts, cpu);
			if (ct_ctf_add(&ctf, &r, ts))
				break;
		}
	}
	CT_CHECK_INT(ctf.error, 0);
	CT_CHECK(ctf.slots_sent >= 38);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	CT_CHECK(ctf.slots == NULL);
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/stream_%d", dir, cpu);
		CT_CHECK(count_packets(path, (uint32_t)cpu, &events[cpu]) >= 20);
		CT_CHECK_INT(events[cpu], added / 2);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

/*
 * coretrace killed while handing a packet over: the writer drops the
 * part it got and the file still ends on a whole packet.
 */
static void test_writer_drops_partial(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	union ct_record r = make_switch(1000, 0);
	uint32_t msg[2] = { 0, 1000 };
	unsigned char junk[100] = { 0 };
	struct ct_ctf ctf;
	struct stat st;
	int status = -1;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	CT_CHECK_INT(ct_ctf_start_writer(&ctf), 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 5), 0);
	CT_CHECK_INT(ct_ctf_flush_old(&ctf, 5 + 1000000000ull, 1000000000ull), 0);
	/* 8 + 100 of the 8 + 1000 bytes a packet message would need */
	CT_CHECK_INT(write(ctf.pipe_fd, msg, sizeof(msg)), sizeof(msg));
	CT_CHECK_INT(write(ctf.pipe_fd, junk, sizeof(junk)), sizeof(junk));
	close(ctf.pipe_fd);			/* as the kernel does at death */
	CT_CHECK_INT(waitpid(ctf.writer_pid, &status, 0), ctf.writer_pid);
	CT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(path, sizeof(path), "%s/stream_0", dir);
	CT_CHECK(!stat(path, &st) && st.st_size == 68 + 23);
	snprintf(path, sizeof(path), "%s/" CT_CTF_CUT_FILE, dir);
	CT_CHECK(!stat(path, &st) && st.st_size > 0);	/* marked as cut */
	close(ctf.status_fd);
	ctf.writer_pid = 0;
	ct_ctf_close(&ctf);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

/* A full disk seen by the writer reaches coretrace, which stops. */
static void test_writer_error(void)
{
	struct ct_ctf_env env = { "r", "h", 0 };
	char dir[] = "/tmp/ct-unit-ctf-XXXXXX", path[256];
	union ct_record r = make_switch(1, 0);
	struct ct_ctf ctf;
	int tries, err = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	close(ctf.streams[0].fd);
	ctf.streams[0].fd = open("/dev/full", O_WRONLY);
	CT_CHECK_INT(ct_ctf_start_writer(&ctf), 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 0), 0);
	/* the error comes back while recording, not only at the end */
	for (tries = 0; tries < 2000 && !err; tries++) {
		err = ct_ctf_flush_old(&ctf, 2000000000ull, 1000000000ull);
		if (!err)
			usleep(1000);
	}
	CT_CHECK_INT(err, -ENOSPC);
	CT_CHECK_INT(ct_ctf_close(&ctf), -ENOSPC);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

void test_ctf(void)
{
	test_metadata();
	test_event_bytes();
	test_event_is_record();
	test_capture_files();
	test_write_error();
	test_writer_round_trip();
	test_writer_slots();
	test_writer_drops_partial();
	test_writer_error();
}
