// SPDX-License-Identifier: GPL-2.0
/* The record decoder and printers, with good and hostile input. */
#include <stdint.h>
#include <stdlib.h>
#include "ct_test.h"
#include "model/events.h"

static struct ct_sched_switch make_switch(void)
{
	struct ct_sched_switch sw;

	memset(&sw, 0, sizeof(sw));
	ct_set_ts(&sw, 12345678901ull);		/* 12.345678901 s */
	sw.type = CT_EV_SCHED_SWITCH;
	sw.cpu = 1;
	sw.prev_pid = 100;
	sw.next_pid = 200;
	sw.prev_state = 1;		/* S */
	sw.prev_prio = 120;
	sw.next_prio = 98;
	memcpy(sw.next_comm, "pong", 5);
	return sw;
}

static void test_table(void)
{
	int i, j;

	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *d = &ct_events[i];

		CT_CHECK_INT(d->type, i);
		CT_CHECK(d->name && d->name[0]);
		CT_CHECK(d->size >= CT_HDR_SIZE + 4);
		CT_CHECK_INT(d->size % 4, 0);
		CT_CHECK(ct_event_by_name(d->name) == d);
		for (j = 0; j < i; j++)
			CT_CHECK(strcmp(ct_events[j].name, d->name));
	}
	/* 24 bytes and the name switched in, 48 with the ring's header */
	CT_CHECK_INT(sizeof(struct ct_sched_switch), 40);
	CT_CHECK_INT(offsetof(struct ct_sched_switch, prev_pid), CT_HDR_SIZE);
	CT_CHECK_INT(offsetof(struct ct_comm, pid), CT_HDR_SIZE);
	CT_CHECK_INT(offsetof(struct ct_task_rename, pid), CT_HDR_SIZE);
	CT_CHECK(ct_event_by_name("no_such_event") == NULL);
	CT_CHECK_STR(ct_events[CT_EV_SCHED_SWITCH].tp_category, "sched");
	CT_CHECK_STR(ct_events[CT_EV_SCHED_SWITCH].tp_name, "sched_switch");
	CT_CHECK_STR(ct_events[CT_EV_COMM].tp_name, "");
}

/*
 * Every record's fields, as the table lists them, follow the header with
 * no hole between them (a capture event is the record's bytes); a string
 * is the last; the sizes the capture path uses agree with the fields.
 */
static void test_fields(void)
{
	unsigned int i, j, at, strings, kfuncs, stacks;

	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *d = &ct_events[i];

		CT_CHECK(d->nfields > 0);
		CT_CHECK(d->ctf_name && d->ctf_name[0]);
		at = CT_HDR_SIZE;
		strings = kfuncs = stacks = 0;
		for (j = 0; j < d->nfields; j++) {
			const struct ct_field *f = &d->fields[j];

			CT_CHECK_INT(f->offset, at);
			CT_CHECK(f->ctf_name[0] == '_');
			CT_CHECK(f->size == 1 || f->size == 2 || f->size == 4 ||
				 f->size == 8 || f->kind == CT_FK_STRING);
			if (f->kind == CT_FK_STRING) {
				CT_CHECK_INT(j, d->nfields - 1);
				CT_CHECK_INT(d->fixed_end, at);
				CT_CHECK_INT(d->string_max, f->size);
				strings++;
			}
			if (f->kind == CT_FK_KFUNC) {
				CT_CHECK_INT(d->kfunc_offset, f->offset);
				kfuncs++;
			}
			stacks += f->kind == CT_FK_STACK;
			if (f->kind == CT_FK_TASK || f->kind == CT_FK_IRQ ||
			    f->kind == CT_FK_SOFTIRQ || f->kind == CT_FK_KFUNC)
				CT_CHECK(f->companion != NULL ||
					 i == CT_EV_SCHED_SWITCH);
			at += f->size;
		}
		if (!strings) {
			CT_CHECK_INT(d->fixed_end, at);
			CT_CHECK_INT(d->string_max, 0);
		}
		/* the struct is the fields, rounded up to 4 bytes */
		CT_CHECK_INT(d->size, (at + 3u) & ~3u);
		CT_CHECK_INT(kfuncs ? 1 : 0, ct_type_names_function(i));
		/* copied whole by a capture: no function, stack or long string */
		CT_CHECK_INT(ct_type_slow_capture(i),
			     kfuncs || stacks || (d->string_max &&
					d->string_max != CT_COMM_LEN));
		CT_CHECK_INT(!!(d->flags & CT_EVF_NAMES),
			     (CT_NAME_RECORDS >> i) & 1);
	}
	CT_CHECK_INT(ct_type_names_function(CT_EV_TIMER_EXPIRE_ENTRY), 1);
	CT_CHECK_INT(ct_type_names_function(CT_EV_TIMER_EXPIRE_EXIT), 0);
	CT_CHECK_INT(ct_type_slow_capture(CT_EV_SCHED_SWITCH), 0);
	CT_CHECK_INT(ct_type_slow_capture(CT_EV_SCHED_PROCESS_EXEC), 1);
	CT_CHECK_INT(ct_type_slow_capture(CT_EV_CGROUP_NAME), 1);
	CT_CHECK_INT(ct_type_slow_capture(CT_EV_TIMER_EXPIRE_ENTRY), 1);
	CT_CHECK_INT(ct_events[CT_EV_SCHED_WAKEUP].fixed_end, CT_HDR_SIZE + 7);
	CT_CHECK_INT(ct_events[CT_EV_SCHED_SWITCH].fixed_end, CT_HDR_SIZE + 12);
	CT_CHECK_INT(offsetof(struct ct_hdr, type), CT_EVENT_START);
}

static void test_decode_good(void)
{
	struct ct_sched_switch sw = make_switch();
	unsigned char big[64];
	union ct_record rec;

	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), CT_DECODE_OK);
	CT_CHECK_INT(rec.hdr.type, CT_EV_SCHED_SWITCH);
	CT_CHECK_INT(ct_ts(&rec.sched_switch), 12345678901ull);
	CT_CHECK_INT(rec.sched_switch.cpu, 1);
	CT_CHECK_INT(rec.sched_switch.prev_pid, 100);
	CT_CHECK_INT(rec.sched_switch.next_pid, 200);
	CT_CHECK_INT(rec.sched_switch.prev_state, 1);
	CT_CHECK_INT(rec.sched_switch.prev_prio, 120);
	CT_CHECK_INT(rec.sched_switch.next_prio, 98);

	/* the ring pads records to 8 bytes: trailing bytes are ignored */
	memset(big, 0xee, sizeof(big));
	memcpy(big, &sw, sizeof(sw));
	CT_CHECK_INT(ct_decode(big, sizeof(big), &rec), CT_DECODE_OK);
	CT_CHECK_INT(rec.sched_switch.next_pid, 200);
}

static void test_decode_hostile(void)
{
	struct ct_sched_switch sw = make_switch();
	struct ct_comm comm;
	union ct_record rec;
	unsigned char raw[sizeof(union ct_record)];
	int i;

	CT_CHECK_INT(ct_decode(NULL, 24, &rec), CT_DECODE_SHORT);
	CT_CHECK_INT(ct_decode(&sw, 0, &rec), CT_DECODE_SHORT);
	CT_CHECK_INT(ct_decode(&sw, CT_HDR_SIZE - 1, &rec), CT_DECODE_SHORT);
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw) - 1, &rec), CT_DECODE_TRUNCATED);
	CT_CHECK_INT(ct_decode(&sw, CT_HDR_SIZE, &rec), CT_DECODE_TRUNCATED);

	/* every type is refused one byte short of its size */
	for (i = 0; i < CT_EV_MAX; i++) {
		memset(raw, 0, sizeof(raw));
		raw[offsetof(struct ct_hdr, type)] = (unsigned char)i;
		CT_CHECK_INT(ct_decode(raw, ct_events[i].size - 1, &rec),
			     CT_DECODE_TRUNCATED);
		CT_CHECK_INT(ct_decode(raw, ct_events[i].size, &rec),
			     CT_DECODE_OK);
	}

	sw.type = CT_EV_MAX;
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), CT_DECODE_UNKNOWN_TYPE);
	sw.type = 255;
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), CT_DECODE_UNKNOWN_TYPE);

	/* a comm without its NUL comes out terminated */
	memset(&comm, 'A', sizeof(comm));
	comm.type = CT_EV_COMM;
	CT_CHECK_INT(ct_decode(&comm, sizeof(comm), &rec), CT_DECODE_OK);
	CT_CHECK_INT(strlen(rec.comm.comm), CT_COMM_LEN - 1);

	CT_CHECK_STR(ct_decode_strerror(CT_DECODE_TRUNCATED),
		     "record shorter than its type's size");
	CT_CHECK_STR(ct_decode_strerror(-99), "unknown decode error");
}

static void test_state_strings(void)
{
	char buf[32];

	CT_CHECK_STR(ct_task_state_str(0, buf, sizeof(buf)), "R");
	CT_CHECK_STR(ct_task_state_str(0x100, buf, sizeof(buf)), "R+");
	CT_CHECK_STR(ct_task_state_str(0x1, buf, sizeof(buf)), "S");
	CT_CHECK_STR(ct_task_state_str(0x2, buf, sizeof(buf)), "D");
	CT_CHECK_STR(ct_task_state_str(0x4, buf, sizeof(buf)), "T");
	CT_CHECK_STR(ct_task_state_str(0x8, buf, sizeof(buf)), "t");
	CT_CHECK_STR(ct_task_state_str(0x10, buf, sizeof(buf)), "X");
	CT_CHECK_STR(ct_task_state_str(0x20, buf, sizeof(buf)), "Z");
	CT_CHECK_STR(ct_task_state_str(0x40, buf, sizeof(buf)), "P");
	CT_CHECK_STR(ct_task_state_str(0x80, buf, sizeof(buf)), "I");
	CT_CHECK_STR(ct_task_state_str(0x3, buf, sizeof(buf)), "S|D");
	CT_CHECK_STR(ct_task_state_str(0x1ff, buf, sizeof(buf)),
		     "S|D|T|t|X|Z|P|I+");
	/* bits the ABI does not define are not printed */
	CT_CHECK_STR(ct_task_state_str(0xfe00, buf, sizeof(buf)), "R");
	/* a buffer too small is still terminated */
	CT_CHECK_STR(ct_task_state_str(0x3, buf, 2), "S");
}

static void test_format_text(void)
{
	struct ct_sched_switch sw = make_switch();
	struct ct_comm_cache cache;
	struct ct_print_ctx pctx = { .comms = &cache };
	union ct_record rec;
	char line[256];
	int n;

	CT_CHECK_INT(ct_comm_cache_init(&cache, 64), 0);
	ct_comm_cache_set(&cache, 100, "ping");
	ct_comm_cache_set(&cache, 200, "pong");
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), 0);
	n = ct_format(CT_FORMAT_TEXT, &rec, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, "            ping-100     [001]    12.345678: "
		     "sched_switch: ping:100 [120] S ==> pong:200 [98]");
	CT_CHECK_INT(n, strlen(line));

	/* unknown pid, the idle task, a preempted prev, a misread pid */
	sw.prev_pid = 0;
	sw.next_pid = 4242;
	sw.prev_state = 0x100;
	sw.flags = CT_F_PID_MISMATCH;
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), 0);
	ct_format(CT_FORMAT_TEXT, &rec, &pctx, line, sizeof(line));
	memcpy(sw.next_comm, "fifteen-chars-x", 16);
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), 0);
	ct_format(CT_FORMAT_TEXT, &rec, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, "       swapper/1-0       [001]    12.345678: "
		     "sched_switch: swapper/1:0 [120] R+ ==> fifteen-chars-x:4242 [98]"
		     " (prev_pid is not the current task)");

	/* comm records feed the cache and print nothing */
	memset(&rec, 0, sizeof(rec));
	rec.hdr.type = CT_EV_COMM;
	line[0] = 'x';
	CT_CHECK_INT(ct_format(CT_FORMAT_TEXT, &rec, &pctx, line, sizeof(line)), 0);
	CT_CHECK_STR(line, "");
	CT_CHECK_INT(ct_format(CT_FORMAT_JSON, &rec, &pctx, line, sizeof(line)), 0);
	ct_comm_cache_free(&cache);
}

static void test_format_json(void)
{
	struct ct_sched_switch sw = make_switch();
	struct ct_task_rename rn;
	struct ct_comm_cache cache;
	struct ct_print_ctx pctx = { .comms = &cache };
	union ct_record rec;
	char line[512];

	CT_CHECK_INT(ct_comm_cache_init(&cache, 64), 0);
	ct_comm_cache_set(&cache, 100, "a\"b\\c\n\xff");
	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), 0);
	ct_format(CT_FORMAT_JSON, &rec, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, "{\"ts\":12345678901,\"cpu\":1,\"event\":\"sched_switch\","
		     "\"prev_comm\":\"a\\\"b\\\\c\\u000a\\u00ff\",\"prev_pid\":100,"
		     "\"next_pid\":200,\"prev_state\":\"S\",\"prev_prio\":120,"
		     "\"next_prio\":98,\"next_comm\":\"pong\"}");

	memset(&rn, 0, sizeof(rn));
	rn.type = CT_EV_TASK_RENAME;
	ct_set_ts(&rn, 1000);
	rn.pid = 7;
	memcpy(rn.newcomm, "new\tname", 9);
	CT_CHECK_INT(ct_decode(&rn, sizeof(rn), &rec), 0);
	ct_format(CT_FORMAT_JSON, &rec, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, "{\"ts\":1000,\"cpu\":0,\"event\":\"task_rename\","
		     "\"oldcomm\":\"<...>\",\"pid\":7,\"newcomm\":\"new\\u0009name\"}");
	ct_format(CT_FORMAT_TEXT, &rec, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, "           <...>-7       [000]     0.000001: "
		     "task_rename: pid=7 oldcomm=<...> newcomm=new\tname");
	ct_comm_cache_free(&cache);
}

/* A line that does not fit: no overflow, terminated, needed size told. */
static void test_format_small_buffer(void)
{
	struct ct_sched_switch sw = make_switch();
	struct ct_print_ctx pctx = { .comms = NULL };
	union ct_record rec;
	char full[256], small[40 + 8];
	size_t len;
	int n;

	CT_CHECK_INT(ct_decode(&sw, sizeof(sw), &rec), 0);
	n = ct_format(CT_FORMAT_JSON, &rec, &pctx, full, sizeof(full));
	for (len = 0; len <= 40; len++) {
		memset(small, '#', sizeof(small));
		CT_CHECK_INT(ct_format(CT_FORMAT_JSON, &rec, &pctx, small, len), n);
		CT_CHECK(small[len] == '#');	/* nothing past the buffer */
		if (len)
			CT_CHECK(memchr(small, '\0', len) != NULL);
	}
}

/*
 * A formatted line is terminated where ct_format says it ends, and what a
 * terminal gets of it (JSON as it is, text through ct_text_escape) holds
 * no control byte and nothing outside ASCII.
 */
static bool ct_line_printable(enum ct_format fmt, const union ct_record *rec,
			      const struct ct_print_ctx *pctx, char *line,
			      size_t len)
{
	char escaped[4 * 512 + 1];
	const char *out = line;
	size_t i;
	int n;

	memset(line, '#', len);
	n = ct_format(fmt, rec, pctx, line, len);
	if (n < 0)
		return false;
	/* a line that does not fit is cut and terminated in the buffer */
	if ((size_t)n >= len)
		n = (int)len - 1;
	if (line[n] != '\0' || strlen(line) != (size_t)n)
		return false;
	if (fmt == CT_FORMAT_TEXT) {
		ct_text_escape(escaped, sizeof(escaped), line, (size_t)n);
		out = escaped;
	}
	for (i = 0; out[i]; i++)
		if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] >= 0x7f)
			return false;
	return true;
}

/* Random bytes: decode either refuses or yields something printable. */
static void test_decode_random(void)
{
	struct ct_comm_cache cache;
	struct ct_print_ctx pctx = { .comms = &cache };
	unsigned char raw[160];
	char line[512];
	unsigned long ok = 0, refused = 0, bad = 0;
	union ct_record rec;
	int iter;
	size_t i, len;

	CT_CHECK_INT(ct_comm_cache_init(&cache, 64), 0);
	srand(2011);
	for (iter = 0; iter < 200000; iter++) {
		len = (size_t)rand() % sizeof(raw);
		for (i = 0; i < len; i++)
			raw[i] = (unsigned char)rand();
		/* make a third of them carry a valid type */
		if (len > CT_HDR_SIZE && iter % 3 == 0)
			raw[offsetof(struct ct_hdr, type)] %= CT_EV_MAX;
		if (ct_decode(raw, len, &rec)) {
			refused++;
			continue;
		}
		ok++;
		if (rec.hdr.type >= CT_EV_MAX ||
		    len < ct_events[rec.hdr.type].size)
			bad++;
		if (!ct_line_printable(CT_FORMAT_TEXT, &rec, &pctx, line,
				       sizeof(line)) ||
		    !ct_line_printable(CT_FORMAT_JSON, &rec, &pctx, line,
				       sizeof(line)))
			bad++;
		if (rec.hdr.type == CT_EV_COMM)
			ct_comm_cache_set(&cache, rec.comm.pid, rec.comm.comm);
	}
	CT_CHECK(ok > 1000);
	CT_CHECK(refused > 1000);
	CT_CHECK_INT(bad, 0);
	ct_comm_cache_free(&cache);
}

/* Text for a terminal: control bytes, non-ASCII and backslash escaped. */
static void test_text_escape(void)
{
	char out[64], small[9], line[256];
	FILE *f;
	size_t n;

	CT_CHECK_INT(ct_text_escape(out, sizeof(out), "plain name", 64), 10);
	CT_CHECK_STR(out, "plain name");
	CT_CHECK(!ct_text_needs_escape("plain name", 64));
	ct_text_escape(out, sizeof(out), "\033]0;pwned\007\n", 64);
	CT_CHECK_STR(out, "\\x1b]0;pwned\\x07\\x0a");
	CT_CHECK(ct_text_needs_escape("a\033b", 64));
	ct_text_escape(out, sizeof(out), "a\\b\x7f\xc3\xa9", 64);
	CT_CHECK_STR(out, "a\\x5cb\\x7f\\xc3\\xa9");
	/* @n bounds the source: a comm array without a NUL */
	ct_text_escape(out, sizeof(out), "abcdef", 3);
	CT_CHECK_STR(out, "abc");
	/* never a partial escape, always terminated */
	n = ct_text_escape(small, sizeof(small), "ab\033cd\033", 64);
	CT_CHECK_STR(small, "ab\\x1bcd");
	CT_CHECK_INT(n, 8);
	n = ct_text_escape(small, 6, "ab\033", 64);
	CT_CHECK_STR(small, "ab");
	CT_CHECK_INT(ct_text_escape(small, 0, "ab", 2), 0);

	f = tmpfile();
	CT_CHECK(f != NULL);
	if (!f)
		return;
	ct_put_text_line(f, "comm=\033[2Jx pid=1", 19);
	ct_put_text_line(f, "clean", 5);
	rewind(f);
	n = fread(line, 1, sizeof(line) - 1, f);
	line[n] = '\0';
	CT_CHECK_STR(line, "comm=\\x1b[2Jx pid=1\nclean\n");
	fclose(f);
}

void test_events(void)
{
	test_text_escape();
	test_table();
	test_fields();
	test_decode_good();
	test_decode_hostile();
	test_state_strings();
	test_format_text();
	test_format_json();
	test_format_small_buffer();
	test_decode_random();
}
