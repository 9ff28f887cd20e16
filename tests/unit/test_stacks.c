// SPDX-License-Identifier: GPL-2.0
/*
 * record -g's stacks in user space: the stack table and the messages that
 * fill it, off-CPU time by stack, a capture's stack events written and
 * read back (and refused when broken), and user frames named from ELF
 * symbols (this test's own binary), live and from a capture's names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "ct_test.h"
#include "capture/ctf.h"
#include "capture/ctf_read.h"
#include "model/offcpu.h"
#include "model/output.h"

#define K_OUTER		0xffffffff81000010ull
#define K_INNER		0xffffffff81000110ull

static const char kallsyms[] =
	"ffffffff81000000 T demo_outer\nffffffff81000100 t demo_inner\n";

/* a stack message of @nr frames at @frames into @buf; its length */
static size_t stack_msg(unsigned char *buf, uint8_t type, uint32_t id,
			uint32_t tgid, uint32_t nr, const void *frames,
			size_t frame_size)
{
	struct ct_stack_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.id = id;
	m.tgid = tgid;
	m.nr = nr;
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), frames, nr * frame_size);
	return sizeof(m) + nr * frame_size;
}

static void test_table(void)
{
	uint64_t ips[CT_KSTACK_DEPTH + 1] = { K_INNER, K_OUTER };
	struct ct_uframe uf[3];
	unsigned char buf[2048];
	struct ct_stacks t;
	const struct ct_stack *s;
	size_t len;
	uint32_t id, failed, found;

	ct_stacks_init(&t);
	CT_CHECK(ct_stacks_get(&t, 1) == NULL);
	len = stack_msg(buf, CT_REC_KSTACK, 7, 0, 2, ips, 8);
	CT_CHECK(ct_is_stack_message(buf, len));
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), 0);
	s = ct_stacks_get(&t, 7);
	CT_CHECK(s && !s->user && s->nr == 2 && ct_stack_ip(s, 0) == K_INNER &&
		 ct_stack_ip(s, 1) == K_OUTER);
	/* the same id again: replaced, not added */
	len = stack_msg(buf, CT_REC_KSTACK, 7, 0, 1, ips + 1, 8);
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), 0);
	s = ct_stacks_get(&t, 7);
	CT_CHECK(s && s->nr == 1 && ct_stack_ip(s, 0) == K_OUTER);
	CT_CHECK_INT(t.count, 1);

	/* hostile messages: short, cut, too many frames, id 0 */
	CT_CHECK_INT(ct_stacks_message(&t, buf, 10), -EINVAL);
	len = stack_msg(buf, CT_REC_KSTACK, 8, 0, 2, ips, 8);
	CT_CHECK_INT(ct_stacks_message(&t, buf, len - 1), -EINVAL);
	len = stack_msg(buf, CT_REC_KSTACK, 9, 0, CT_KSTACK_DEPTH + 1, ips, 8);
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), -EINVAL);
	len = stack_msg(buf, CT_REC_KSTACK, 0, 0, 1, ips, 8);
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), -EINVAL);
	CT_CHECK_INT(t.refused, 4);
	CT_CHECK(ct_stacks_get(&t, 8) == NULL && ct_stacks_get(&t, 9) == NULL);

	/* a user stack ends before the first word that is no user address */
	memset(uf, 0, sizeof(uf));
	uf[0].status = CT_UFRAME_VALID;
	uf[0].offset = 0x1234;
	uf[1].status = CT_UFRAME_IP;
	uf[1].offset = 0x7f0000001000ull;
	uf[2].status = CT_UFRAME_IP;
	uf[2].offset = 0xbe552274c0854800ull;
	len = stack_msg(buf, CT_REC_USTACK, 10, 42, 3, uf, sizeof(uf[0]));
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), 0);
	s = ct_stacks_get(&t, 10);
	CT_CHECK(s && s->user && s->tgid == 42 && s->nr == 2 &&
		 ct_stack_uframe(s, 1)->offset == 0x7f0000001000ull);
	/* and before an offset ahead of its file (a word below a mapping) */
	uf[1].status = CT_UFRAME_VALID;
	uf[1].offset = 0xffffffffffc00035ull;
	len = stack_msg(buf, CT_REC_USTACK, 11, 42, 3, uf, sizeof(uf[0]));
	CT_CHECK_INT(ct_stacks_message(&t, buf, len), 0);
	s = ct_stacks_get(&t, 11);
	CT_CHECK(s && s->nr == 1);

	/* full: a newer stack takes its home slot, counted; all reachable */
	failed = 0;
	for (id = 100; id < 100 + CT_STACKS_SLOTS + 64; id++)
		failed += ct_stacks_put(&t, false, id, 0, 1, ips) != 0;
	CT_CHECK_INT(failed, 0);
	CT_CHECK(t.replaced > 0);
	/* every stack held is found by its id; those replaced are not */
	found = (ct_stacks_get(&t, 7) != NULL) + (ct_stacks_get(&t, 10) != NULL) +
		(ct_stacks_get(&t, 11) != NULL);
	for (id = 100; id < 100 + CT_STACKS_SLOTS + 64; id++)
		found += ct_stacks_get(&t, id) != NULL;
	CT_CHECK_INT(found, t.count);
	s = ct_stacks_get(&t, 100 + CT_STACKS_SLOTS + 63);
	CT_CHECK(s && ct_stack_ip(s, 0) == K_INNER);
	ct_stacks_free(&t);
}

static union ct_record rec_switch(uint32_t prev, uint32_t next, uint64_t ts)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	ct_set_ts(&r, ts);
	r.sched_switch.prev_pid = prev;
	r.sched_switch.next_pid = next;
	r.sched_switch.prev_state = 1;
	return r;
}

static union ct_record rec_chain(uint32_t pid, uint32_t target, uint8_t at,
				 uint32_t kstack, uint32_t ustack, uint64_t ts)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.callchain.type = CT_EV_CALLCHAIN;
	ct_set_ts(&r, ts);
	r.callchain.pid = pid;
	r.callchain.target = target;
	r.callchain.event = at;
	r.callchain.kstack = kstack;
	r.callchain.ustack = ustack;
	return r;
}

/* names with kallsyms' two functions and stacks 1 and 2 (the same frames) */
static void names_with_stacks(struct ct_names *n)
{
	uint64_t ips[2] = { K_INNER, K_OUTER };
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");

	CT_CHECK_INT(ct_names_init(n, 64), 0);
	CT_CHECK_INT(ct_names_load_ksyms(n, f), 0);
	fclose(f);
	CT_CHECK_INT(ct_stacks_put(&n->stacks, false, 1, 0, 2, ips), 0);
	CT_CHECK_INT(ct_stacks_put(&n->stacks, false, 2, 0, 2, ips), 0);
	ct_comm_cache_set(&n->comms, 100, "task");
	ct_comm_cache_set(&n->comms, 101, "task");
	ct_comm_cache_set(&n->comms, 102, "other;one");
}

static void test_offcpu(void)
{
	const uint64_t ms = 1000000;
	union ct_record recs[] = {
		rec_switch(100, 0, 10 * ms),
		rec_chain(100, 0, CT_EV_SCHED_SWITCH, 1, 0, 10 * ms),
		rec_switch(101, 0, 11 * ms),
		rec_chain(101, 0, CT_EV_SCHED_SWITCH, 2, 0, 11 * ms),
		rec_switch(102, 0, 12 * ms),	/* no stack taken */
		/* a waker's stack is no time off the CPU */
		rec_chain(7, 100, CT_EV_SCHED_WAKING, 1, 0, 13 * ms),
		rec_switch(0, 100, 14 * ms),	/* 4 ms */
		rec_switch(0, 101, 17 * ms),	/* 6 ms, the same frames */
		rec_switch(0, 102, 20 * ms),	/* 8 ms */
		rec_switch(103, 0, 21 * ms),	/* still off at the end */
		rec_switch(0, 999, 22 * ms),	/* never seen leaving */
	};
	char out[4096];
	struct ct_offcpu o;
	struct ct_names n;
	union ct_record r;
	size_t i, len;
	FILE *f;

	names_with_stacks(&n);
	CT_CHECK_INT(ct_offcpu_init(&o, &n.comms), 0);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		ct_offcpu_feed(&o, &recs[i]);
	CT_CHECK_INT(o.total_ns, 18 * ms);
	CT_CHECK_INT(o.unknown, 1);
	f = fmemopen(out, sizeof(out), "w");
	CT_CHECK_INT(ct_offcpu_print(&o, f, &n.pctx, CT_OFFCPU_FOLDED), 0);
	len = (size_t)ftell(f);
	fclose(f);
	out[len < sizeof(out) ? len : sizeof(out) - 1] = '\0';
	/* outermost first, the longest first, ';' in a name made harmless */
	CT_CHECK_STR(out, "task;demo_outer;demo_inner 10000\n"
			  "other:one;[no stack] 8000\n");
	f = fmemopen(out, sizeof(out), "w");
	CT_CHECK_INT(ct_offcpu_print(&o, f, &n.pctx, CT_OFFCPU_JSON), 0);
	len = (size_t)ftell(f);
	fclose(f);
	out[len < sizeof(out) ? len : sizeof(out) - 1] = '\0';
	CT_CHECK(strstr(out, "{\"total_us\":18000,\"not_counted\":0,\"without_stack\":1,") == out);
	CT_CHECK(strstr(out, "\"us\":10000,\"count\":2,\"kernel_stack\":[\"demo_inner\",\"demo_outer\"],\"user_stack\":[]") != NULL);
	CT_CHECK(strstr(out, "{\"comm\":\"other;one\",\"tid\":102,\"us\":8000,\"count\":1,\"kernel_stack\":[],\"user_stack\":[]}") != NULL);
	/* top -g: ms a second over a 2 s window, the longest first */
	f = fmemopen(out, sizeof(out), "w");
	ct_offcpu_top(&o, f, &n.pctx, 2, 2000 * ms);
	len = (size_t)ftell(f);
	fclose(f);
	out[len < sizeof(out) ? len : sizeof(out) - 1] = '\0';
	CT_CHECK(strstr(out, "\n     4.0  other;one:102          (no stack)\n     3.0  task:101               demo_inner\n") != NULL);
	/* a new window counts a time under way from its start only */
	ct_offcpu_new_window(&o, 21500000);
	CT_CHECK_INT(o.total_ns, 0);
	r = rec_switch(0, 103, 22 * ms);
	ct_offcpu_feed(&o, &r);
	CT_CHECK_INT(o.total_ns, ms / 2);
	ct_offcpu_free(&o);

	/* text: the frames on lines of their own; a stack not known says so */
	CT_CHECK(ct_format(CT_FORMAT_TEXT, &recs[1], &n.pctx, out, sizeof(out)) > 0);
	CT_CHECK(strstr(out, "callchain: blocked of task:100 (switched to swapper/0:0)\n => demo_inner\n => demo_outer") != NULL);
	recs[1].callchain.kstack = 55;
	CT_CHECK(ct_format(CT_FORMAT_TEXT, &recs[1], &n.pctx, out, sizeof(out)) > 0);
	CT_CHECK(strstr(out, "\n => [stack 55: not in the recording]") != NULL);
	CT_CHECK(ct_format(CT_FORMAT_JSON, &recs[5], &n.pctx, out, sizeof(out)) > 0);
	CT_CHECK(strstr(out, "\"kstack\":1,\"kernel_stack\":[\"demo_inner\",\"demo_outer\"],\"ustack\":0,\"user_stack\":[],\"at\":\"sched_waking\"") != NULL);
	CT_CHECK_STR(ct_stack_where(&n.pctx, 1, 0, out, sizeof(out)), "demo_inner");
	CT_CHECK_STR(ct_stack_line(&n.pctx, 1, 0, 5, out, sizeof(out)),
		     "demo_inner <- demo_outer");
	CT_CHECK_STR(ct_stack_line(&n.pctx, 1, 0, 1, out, sizeof(out)), "demo_inner");
	CT_CHECK_STR(ct_stack_line(&n.pctx, 0, 77, 5, out, sizeof(out)), "");
	ct_names_free(&n);
}

static void count_record(const union ct_record *rec, void *ctx)
{
	(void)rec;
	(*(unsigned long *)ctx)++;
}

/* Stacks given once in a capture, before their first use, and read back. */
static void test_capture(void)
{
	char dir[] = "/tmp/ct-unit-stacks-XXXXXX", cmd[300], path[400];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_ctf_reader reader;
	const struct ct_stack *s;
	struct ct_stacks back;
	struct ct_uframe uf;
	struct ct_names n;
	struct ct_ctf ctf;
	union ct_record r;
	unsigned char *data;
	uint32_t bad = 0x0badbad0;
	unsigned long records = 0;
	long size;
	size_t i;
	FILE *f;

	names_with_stacks(&n);
	CT_CHECK_INT(ct_names_name_user_frames(&n, false), 0);
	memset(&uf, 0, sizeof(uf));
	uf.status = CT_UFRAME_VALID;
	memset(uf.build_id, 0xab, sizeof(uf.build_id));
	uf.offset = 0x1170;
	CT_CHECK_INT(ct_stacks_put(&n.stacks, true, 3, 42, 1, &uf), 0);
	ct_usyms_set_module(n.usyms, uf.build_id, "/usr/bin/demo");
	ct_usyms_set_name(n.usyms, uf.build_id, 0x1170, "demo_main");

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	ctf.ksyms = n.pctx.ksyms;
	ctf.stacks = &n.stacks;
	ctf.usyms = n.usyms;
	for (i = 0; i < 3; i++) {
		r = rec_chain(100, 0, CT_EV_SCHED_SWITCH, 1, 3, 100 + i);
		CT_CHECK_INT(ct_ctf_add(&ctf, &r, 0), 0);
	}
	CT_CHECK_INT(ctf.stack_events, 2);	/* given once each */
	CT_CHECK_INT(ctf.type_events[CT_EV_CALLCHAIN], 3);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	ct_names_free(&n);

	ct_stacks_init(&back);
	CT_CHECK_INT(ct_names_init(&n, 64), 0);
	CT_CHECK_INT(ct_names_name_user_frames(&n, false), 0);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	reader.stacks = &back;
	reader.usyms = n.usyms;
	CT_CHECK_INT(ct_ctf_reader_run(&reader, count_record, &records), 0);
	CT_CHECK_INT(records, 3);	/* stack events are no records */
	s = ct_stacks_get(&back, 1);
	CT_CHECK(s && !s->user && s->nr == 2 && ct_stack_ip(s, 1) == K_OUTER);
	s = ct_stacks_get(&back, 3);
	CT_CHECK(s && s->user && s->tgid == 42 && s->nr == 1 &&
		 ct_stack_uframe(s, 0)->offset == 0x1170);
	CT_CHECK_STR(ct_usyms_name(n.usyms, &uf, true), "demo_main");
	CT_CHECK_STR(ct_usyms_module(n.usyms, uf.build_id), "/usr/bin/demo");
	ct_ctf_reader_close(&reader);
	ct_stacks_free(&back);
	ct_names_free(&n);

	/* a kernel stack event claiming more frames than BPF takes: refused */
	snprintf(path, sizeof(path), "%s/stream_0", dir);
	f = fopen(path, "r+");
	CT_CHECK(f != NULL);
	if (f) {
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		data = malloc((size_t)size);
		fseek(f, 0, SEEK_SET);
		CT_CHECK(data && fread(data, 1, (size_t)size, f) == (size_t)size);
		/* the kstack event: id 1, tgid 0, nr 2 */
		for (i = 0; data && i + 12 <= (size_t)size; i++) {
			if (!memcmp(data + i, "\x01\0\0\0\0\0\0\0\x02\0\0\0", 12)) {
				memcpy(data + i + 8, &bad, 4);
				break;
			}
		}
		CT_CHECK(data && i + 12 <= (size_t)size);
		fseek(f, 0, SEEK_SET);
		CT_CHECK(data && fwrite(data, 1, (size_t)size, f) == (size_t)size);
		fclose(f);
		free(data);
	}
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK(ct_ctf_reader_run(&reader, count_record, &records) != 0);
	CT_CHECK(strstr(reader.error, "call stack with id 0 or more frames than coretrace takes") != NULL);
	ct_ctf_reader_close(&reader);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CT_CHECK_INT(system(cmd), 0);
}

/* A function of this binary, to be found by its address */
__attribute__((noinline)) void ct_test_usyms_target(void);
__attribute__((noinline)) void ct_test_usyms_target(void)
{
	__asm__ volatile("" ::: "memory");
}

/* User frames named from this test's own ELF file, live and later. */
static void test_usyms(void)
{
	struct ct_uframe f, wrong;
	struct ct_usyms *live, *later;
	const char *name;
	char exe[4096];
	ssize_t n;

	live = ct_usyms_new(true);
	CT_CHECK(live != NULL);
	if (!live)
		return;
	/* the kernel could not give the build ID: the maps turn the address into one */
	memset(&f, 0, sizeof(f));
	f.status = CT_UFRAME_IP;
	f.offset = (uint64_t)(uintptr_t)ct_test_usyms_target;
	ct_usyms_resolve_ips(live, (uint32_t)getpid(), &f, 1);
	CT_CHECK_INT(f.status, CT_UFRAME_VALID);
	CT_CHECK_STR(ct_usyms_name(live, &f, true),
		     "ct_test_usyms_target");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CT_CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	CT_CHECK_STR(ct_usyms_module(live, f.build_id), exe);

	/* later, elsewhere: the path the capture gives, its build ID checked */
	later = ct_usyms_new(false);
	CT_CHECK(later != NULL);
	if (!later) {
		ct_usyms_free(live);
		return;
	}
	ct_usyms_set_module(later, f.build_id, exe);
	CT_CHECK_STR(ct_usyms_name(later, &f, true), "ct_test_usyms_target");
	/* a return address just past the function is still its call */
	f.offset += 1;
	CT_CHECK_STR(ct_usyms_name(later, &f, false), "ct_test_usyms_target");
	/* a file whose build ID is not the frame's is never used */
	wrong = f;
	wrong.build_id[0] ^= 0xff;
	ct_usyms_set_module(later, wrong.build_id, exe);
	CT_CHECK(ct_usyms_name(later, &wrong, true) == NULL);
	/* nor one that is not there */
	wrong.build_id[1] ^= 0xff;
	ct_usyms_set_module(later, wrong.build_id, "/nonexistent/demo");
	name = ct_usyms_name(later, &wrong, true);
	CT_CHECK(name == NULL);
	/* an address the kernel gave: never named */
	wrong.status = CT_UFRAME_IP;
	CT_CHECK(ct_usyms_name(later, &wrong, true) == NULL);
	ct_usyms_free(later);
	ct_usyms_free(live);
}

void test_stacks(void)
{
	test_table();
	test_offcpu();
	test_capture();
	test_usyms();
}
