// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses against a hand-made sequence whose answers are worked out
 * below: runtimes, scheduling delays, idle and frequency residency,
 * interrupt time, timehist's per-run figures, and the overview printed in
 * every format.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include "model/analysis.h"
#include "model/cgroup.h"
#include "views/live_top.h"
#include "ct_test.h"
#include "views/top.h"

#define MS	1000000ull
#define T0	1000000000ull		/* the first record */

static struct ct_analysis an;
static struct ct_analysis *an_target = &an;
static struct ct_live_top *live_target;

static void feed(const union ct_record *r)
{
	if (live_target)
		ct_live_top_feed(live_target, r);
	else if (an_target)
		ct_analysis_feed(an_target, r);
}

static void feed_switch(uint64_t ts, int cpu, uint32_t prev, uint32_t next,
			uint16_t prev_state)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.sched_switch, ts);
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	r.sched_switch.cpu = (uint16_t)cpu;
	r.sched_switch.prev_pid = prev;
	r.sched_switch.next_pid = next;
	r.sched_switch.prev_state = prev_state;
	feed(&r);
}

static void feed_simple(uint64_t ts, int cpu, int type, uint32_t a, uint32_t b)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.hdr, ts);
	r.hdr.type = (uint8_t)type;
	r.hdr.cpu = (uint16_t)cpu;
	switch (type) {
	case CT_EV_SCHED_WAKEUP:
		r.wakeup.pid = a;
		r.wakeup.target_cpu = (uint16_t)b;
		break;
	case CT_EV_CPU_IDLE:
	case CT_EV_CPU_FREQUENCY:
		r.cpu_idle.state = a;
		r.cpu_idle.cpu_id = b;
		break;
	case CT_EV_IRQ_HANDLER_ENTRY:
		r.irq_entry.irq = a;
		break;
	case CT_EV_IRQ_HANDLER_EXIT:
		r.irq_exit.irq = a;
		break;
	case CT_EV_SOFTIRQ_ENTRY:
	case CT_EV_SOFTIRQ_EXIT:
		r.softirq.vec = a;
		break;
	case CT_EV_TIMER_EXPIRE_EXIT:
	case CT_EV_HRTIMER_EXPIRE_EXIT:
	case CT_EV_WORKQUEUE_EXECUTE_END:
		r.timer_exit.timer = b;
		break;
	default:
		r.timer_entry.function = a;
		r.timer_entry.timer = b;
	}
	feed(&r);
}

struct run {
	uint32_t tid;
	uint64_t run, wait, delay;
};

static struct run runs[8];
static int nruns;

static void on_run_end(void *ctx, const struct ct_an_task *t, unsigned int cpu,
		       uint64_t ts)
{
	(void)ctx;
	(void)cpu;
	if (nruns < 8)
		runs[nruns++] = (struct run){ t->tid, ts - t->in_at,
					      t->run_wait_ns, t->run_delay_ns };
}

/*
 * CPU 0: A (100) runs from T0; B (200) is woken at +5 and switched in at
 * +6 (A sleeps: delay 1 ms); A is woken at +9, preempts B at +10 (A's
 * delay 1 ms, B runnable from +10); A sleeps at +12, B runs (delay 2 ms)
 * to the end at +15. A: 6 + 2 = 8 ms, B: 4 + 3 = 7 ms.
 * CPU 1: C1 from T0 to +4, busy to +5, C2 to +15; 1 GHz to +5, 2 GHz on.
 * Interrupt 5 for 0.5 ms at +1, softirq 1 (TIMER) for 0.25 ms at +2.
 */
static void feed_sequence(void)
{
	feed_switch(T0, 0, 0, 100, 0);
	feed_simple(T0, 1, CT_EV_CPU_IDLE, 1, 1);
	feed_simple(T0, 1, CT_EV_CPU_FREQUENCY, 1000000, 1);
	feed_simple(T0 + 1 * MS, 0, CT_EV_IRQ_HANDLER_ENTRY, 5, 0);
	feed_simple(T0 + 1 * MS + MS / 2, 0, CT_EV_IRQ_HANDLER_EXIT, 5, 0);
	feed_simple(T0 + 2 * MS, 0, CT_EV_SOFTIRQ_ENTRY, 1, 0);
	feed_simple(T0 + 2 * MS + MS / 4, 0, CT_EV_SOFTIRQ_EXIT, 1, 0);
	feed_simple(T0 + 3 * MS, 0, CT_EV_HRTIMER_EXPIRE_ENTRY, 0x1234, 0xa0);
	feed_simple(T0 + 3 * MS + MS / 10, 0, CT_EV_HRTIMER_EXPIRE_EXIT, 0, 0xa0);
	feed_simple(T0 + 3 * MS + MS / 10, 0, CT_EV_HRTIMER_EXPIRE_ENTRY, 0x1234, 0xb0);
	feed_simple(T0 + 3 * MS + 3 * MS / 10, 0, CT_EV_HRTIMER_EXPIRE_EXIT, 0, 0xb0);
	/* an exit whose entry came before the trace: nothing to time */
	feed_simple(T0 + 3 * MS + 4 * MS / 10, 0, CT_EV_TIMER_EXPIRE_EXIT, 0, 0xc0);
	/* a work item that starts on CPU 0 and ends on CPU 1 */
	feed_simple(T0 + 7 * MS, 0, CT_EV_WORKQUEUE_EXECUTE_START, 0x5678, 0xd0);
	feed_simple(T0 + 8 * MS, 1, CT_EV_WORKQUEUE_EXECUTE_END, 0, 0xd0);
	/* a timer still running when the window is settled */
	feed_simple(T0 + 13 * MS, 1, CT_EV_TIMER_EXPIRE_ENTRY, 0x9abc, 0xe0);
	feed_simple(T0 + 4 * MS, 1, CT_EV_CPU_IDLE, CT_IDLE_EXIT, 1);
	feed_simple(T0 + 5 * MS, 0, CT_EV_SCHED_WAKEUP, 200, 0);
	feed_simple(T0 + 5 * MS, 1, CT_EV_CPU_IDLE, 2, 1);
	feed_simple(T0 + 5 * MS, 1, CT_EV_CPU_FREQUENCY, 2000000, 1);
	feed_switch(T0 + 6 * MS, 0, 100, 200, 1);
	feed_simple(T0 + 9 * MS, 0, CT_EV_SCHED_WAKEUP, 100, 0);
	feed_switch(T0 + 10 * MS, 0, 200, 100, 0x100);	/* preempted: R+ */
	feed_switch(T0 + 12 * MS, 0, 100, 200, 1);
	ct_analysis_settle(&an, T0 + 15 * MS);
}

static void test_scheduling(void)
{
	const struct ct_an_task *a = ct_analysis_task(&an, 100);
	const struct ct_an_task *b = ct_analysis_task(&an, 200);

	CT_CHECK(a && b);
	if (!a || !b)
		return;
	CT_CHECK_INT(a->runtime_ns, 8 * MS);
	CT_CHECK_INT(b->runtime_ns, 7 * MS);
	CT_CHECK_INT(a->switches, 2);
	CT_CHECK_INT(b->switches, 2);
	CT_CHECK_INT(a->wakeups, 1);
	CT_CHECK_INT(b->wakeups, 1);
	CT_CHECK_INT(a->delays, 1);		/* the first run had no wakeup */
	CT_CHECK_INT(a->delay_max_ns, 1 * MS);
	CT_CHECK_INT(b->delays, 2);
	CT_CHECK_INT(b->delay_sum_ns, 3 * MS);
	CT_CHECK_INT(b->delay_max_ns, 2 * MS);
	CT_CHECK_INT(b->delay_max_at, T0 + 12 * MS);
	CT_CHECK(ct_analysis_task(&an, 0) == NULL);	/* idle is no task */
	/* timehist: A ran 6 ms; B ran 4 ms after 1 ms delay; A ran 2 ms
	 * after waiting 4 ms, 1 ms of it runnable */
	CT_CHECK_INT(nruns, 3);
	CT_CHECK_INT(runs[0].tid, 100);
	CT_CHECK_INT(runs[0].run, 6 * MS);
	CT_CHECK_INT(runs[1].tid, 200);
	CT_CHECK_INT(runs[1].run, 4 * MS);
	CT_CHECK_INT(runs[1].delay, 1 * MS);
	CT_CHECK_INT(runs[2].tid, 100);
	CT_CHECK_INT(runs[2].run, 2 * MS);
	CT_CHECK_INT(runs[2].wait, 4 * MS);
	CT_CHECK_INT(runs[2].delay, 1 * MS);
}

/* the source of function @addr of @kind, or NULL */
static const struct ct_an_source *func(enum ct_an_func_kind kind, uint64_t addr)
{
	int i;

	for (i = 0; i < CT_AN_FUNCS; i++)
		if (an.funcs[kind][i].used && an.funcs[kind][i].key == addr)
			return &an.funcs[kind][i];
	return NULL;
}

static long long func_events(enum ct_an_func_kind kind, uint64_t addr)
{
	const struct ct_an_source *s = func(kind, addr);

	return s ? (long long)s->events : -1;
}

/* the time credited to function @addr of @kind, -1 when not found */
static long long func_busy(enum ct_an_func_kind kind, uint64_t addr)
{
	const struct ct_an_source *s = func(kind, addr);

	return s ? (long long)s->busy_ns : -1;
}

static void test_cpu_and_irqs(void)
{
	const struct ct_an_cpu *c1 = &an.cpus[1];

	CT_CHECK_INT(c1->cstate_ns[1], 4 * MS);
	CT_CHECK_INT(c1->busy_ns, 1 * MS);
	CT_CHECK_INT(c1->cstate_ns[2], 10 * MS);
	CT_CHECK_INT(c1->freqs[0].khz, 1000000);
	CT_CHECK_INT(c1->freqs[0].ns, 5 * MS);
	CT_CHECK_INT(c1->freqs[1].khz, 2000000);
	CT_CHECK_INT(c1->freqs[1].ns, 10 * MS);
	CT_CHECK_INT(an.softirqs[1].events, 1);
	CT_CHECK_INT(an.softirqs[1].busy_ns, MS / 4);
	CT_CHECK_INT(func_events(CT_AN_HRTIMER, 0x1234), 2);
	CT_CHECK_INT(func_busy(CT_AN_HRTIMER, 0x1234), 3 * MS / 10);
	CT_CHECK_INT(func_busy(CT_AN_WORK, 0x5678), 1 * MS);
	CT_CHECK_INT(func_busy(CT_AN_TIMER, 0x9abc), 2 * MS);
	CT_CHECK_INT(an.functions_untimed, 0);
	CT_CHECK_INT(an.window_start, T0);
	CT_CHECK_INT(an.last_ts, T0 + 15 * MS);
}

static char *print_top_rows(enum ct_out fmt, size_t limit)
{
	struct ct_comm_cache comms;
	struct ct_irq_names irqs;
	static struct ct_symtab syms;
	struct ct_print_ctx names = { &comms, NULL, &irqs, &syms, NULL, NULL, NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(&irqs, 0, sizeof(irqs));
	CT_CHECK_INT(ct_comm_cache_init(&comms, 16), 0);
	ct_comm_cache_set(&comms, 100, "alpha");
	ct_comm_cache_set(&comms, 200, "b<&>\"");
	ct_irq_names_set(&irqs, 5, "virtio0");
	ct_symtab_set(&syms, 0x1234, "demo_fn");	/* from the capture */
	ct_top_print(f, fmt, &an, &names, limit, "cap", false);
	fclose(f);
	ct_comm_cache_free(&comms);
	return text;
}

/* lines of @csv whose number of fields differs from the header's */
static int csv_columns_differ(const char *csv)
{
	int fields = 1, header = -1, differ = 0;
	bool quoted = false;

	for (; *csv; csv++) {
		if (*csv == '"')
			quoted = !quoted;
		else if (*csv == ',' && !quoted)
			fields++;
		else if (*csv == '\n' && !quoted) {
			if (header < 0)
				header = fields;
			else if (fields != header)
				differ++;
			fields = 1;
		}
	}
	return differ;
}

/* rows that print the same usage go by events, then by name */
static char *print_top(enum ct_out fmt)
{
	return print_top_rows(fmt, 0);
}

/* -n: the busiest rows only, and the output says so */
static void test_top_limit(void)
{
	char *text = print_top_rows(CT_OUT_TEXT, 1);

	CT_CHECK(strstr(text, "\nthe 1 busiest of ") != NULL);
	CT_CHECK(strstr(text, "alpha [100]") != NULL);
	CT_CHECK(strstr(text, "[5] virtio0") == NULL);
	free(text);
	text = print_top_rows(CT_OUT_JSON, 1);
	CT_CHECK(strstr(text, "\"rows_total\":") != NULL);
	CT_CHECK(strstr(text, "\"rows_total\":1,") == NULL);
	CT_CHECK(strstr(text, "virtio0") == NULL);
	free(text);
	text = print_top_rows(CT_OUT_TEXT, 0);
	CT_CHECK(strstr(text, "busiest of") == NULL);
	free(text);
}

static void test_row_order(void)
{
	struct ct_top_row rows[4] = {
		{ "Process", "b", 1, 744.14, 10.0, NULL },
		{ "Process", "a", 2, 744.16, 10.0, NULL },	/* 744.2 */
		{ "Process", "c", 3, 744.11, 30.0, NULL },	/* 744.1, more events */
		{ "Process", "d", 4, 744.09, 10.04, NULL },	/* 744.1 and 10.0 too */
	};

	qsort(rows, 4, sizeof(rows[0]), ct_top_row_cmp);
	CT_CHECK_STR(rows[0].description, "a");
	CT_CHECK_STR(rows[1].description, "c");
	CT_CHECK_STR(rows[2].description, "b");
	CT_CHECK_STR(rows[3].description, "d");
}

static void test_top(void)
{
	char *text;

	/* A: 8 ms in 15 ms = 533.333 ms/s, 1 wakeup = 66.667/s */
	text = print_top(CT_OUT_JSON);
	CT_CHECK(strstr(text, "{\"category\":\"Process\",\"description\":\"alpha [100]\",\"id\":100,\"usage_ms_per_s\":533.333,\"events_per_s\":66.667,\"cgroup\":null}") != NULL);
	CT_CHECK(strstr(text, "\"description\":\"[5] virtio0\",\"id\":5,\"usage_ms_per_s\":33.333,\"events_per_s\":66.667,\"cgroup\":null}") != NULL);
	CT_CHECK(strstr(text, "\"description\":\"TIMER\",\"id\":1,\"usage_ms_per_s\":16.667") != NULL);
	/* two hrtimer runs, 0.3 ms in 15 ms: timed, as powertop does */
	CT_CHECK(strstr(text, "\"description\":\"demo_fn (hrtimer)\",\"id\":0,\"usage_ms_per_s\":20.000,\"events_per_s\":133.333,\"cgroup\":null}") != NULL);
	CT_CHECK(strstr(text, "{\"cpu\":1,\"records_lost\":0,\"busy_pct\":6.667,\"cstates_pct\":{\"C0\":0.000,\"C1\":26.667,\"C2\":66.667},\"freqs_pct\":{\"1000000\":33.333,\"2000000\":66.667}}") != NULL);
	/* the first row is the busiest */
	CT_CHECK(strstr(text, "\"rows\":[{\"category\":\"Process\",\"description\":\"alpha [100]\"") != NULL);
	free(text);
	text = print_top(CT_OUT_TEXT);
	CT_CHECK(strstr(text, "  533.3 ms/s       66.7  Process    alpha [100]\n") != NULL);
	free(text);
	text = print_top(CT_OUT_CSV);
	CT_CHECK(strstr(text, "usage_ms_per_s,events_per_s,category,description,id,cgroup\n533.333,66.667,Process,\"alpha [100]\",100,\n") != NULL);
	CT_CHECK(strstr(text, ",\"b<&>\"\" [200]\",200,\n") != NULL);	/* quotes doubled */
	/* one table: the CPU pane in the rows' columns (66.667 % = 666.667 ms/s) */
	CT_CHECK(strstr(text, "\n666.667,,CPU state,\"CPU 1 C2\",1,\n") != NULL);
	CT_CHECK(strstr(text, "\n333.333,,CPU state,\"CPU 1 at 1000 MHz\",1,\n") != NULL);
	CT_CHECK_INT(csv_columns_differ(text), 0);
	free(text);
	text = print_top(CT_OUT_HTML);
	CT_CHECK(!strncmp(text, "<!DOCTYPE html>", 15));
	CT_CHECK(strstr(text, "b&lt;&amp;&gt;&quot; [200]") != NULL);
	CT_CHECK(strstr(text, "b<&>") == NULL);
	CT_CHECK(strstr(text, "</html>\n") != NULL);
	free(text);
}

static void test_new_window(void)
{
	const struct ct_an_task *b = ct_analysis_task(&an, 200);

	/* B keeps running: 5 more ms land in the new window only */
	ct_analysis_new_window(&an, T0 + 15 * MS);
	ct_analysis_settle(&an, T0 + 20 * MS);
	CT_CHECK(b != NULL);
	if (!b)
		return;
	CT_CHECK_INT(b->runtime_ns, 5 * MS);
	CT_CHECK_INT(b->total_runtime_ns, 12 * MS);
	CT_CHECK_INT(b->switches, 0);
	CT_CHECK_INT(b->total_switches, 2);
	CT_CHECK_INT(an.cpus[1].cstate_ns[2], 5 * MS);
	CT_CHECK_INT(an.window_start, T0 + 15 * MS);
}

static void test_bounded(void)
{
	struct ct_analysis small;
	union ct_record r;
	uint32_t tid, kept;

	/* a table for 8 tasks keeps at least those, at most its slots, counts the rest */
	CT_CHECK_INT(ct_analysis_init(&small, 2, 8), 0);
	memset(&r, 0, sizeof(r));
	r.wakeup.type = CT_EV_SCHED_WAKEUP;
	for (tid = 1; tid <= 1000; tid++) {
		ct_set_ts(&r.wakeup, tid);
		r.wakeup.pid = tid;
		ct_analysis_feed(&small, &r);
	}
	kept = 0;
	for (tid = 1; tid <= 1000; tid++)
		kept += ct_analysis_task(&small, tid) != NULL;
	/* at least the 8 asked for; at most the 64 slots of the smallest table */
	CT_CHECK(kept >= 8 && kept <= 64);
	CT_CHECK_INT(small.tasks_dropped + kept, 1000);
	/* a record for a CPU past the table is counted, not followed */
	r.hdr.cpu = 7;
	ct_analysis_feed(&small, &r);
	CT_CHECK_INT(small.records, 1001);
	ct_analysis_free(&small);
}

/*
 * A task already running when the capture starts and switched out only
 * at +3 ms is credited from the first record on: 3 ms, not nothing; one
 * switching out of idle is not a task.
 */
static void test_running_at_start(void)
{
	struct ct_analysis a;
	const struct ct_an_task *t;

	CT_CHECK_INT(ct_analysis_init(&a, 2, 64), 0);
	an_target = &a;
	feed_simple(T0, 1, CT_EV_SCHED_WAKEUP, 400, 1);
	feed_switch(T0 + 3 * MS, 0, 300, 400, 1);
	feed_switch(T0 + 4 * MS, 1, 0, 500, 0);
	an_target = &an;
	ct_analysis_settle(&a, T0 + 5 * MS);
	t = ct_analysis_task(&a, 300);
	CT_CHECK(t != NULL);
	if (t)
		CT_CHECK_INT(t->runtime_ns, 3 * MS);
	t = ct_analysis_task(&a, 400);
	CT_CHECK(t != NULL);
	if (t)
		CT_CHECK_INT(t->runtime_ns, 2 * MS);
	t = ct_analysis_task(&a, 500);
	CT_CHECK(t != NULL);
	if (t)
		CT_CHECK_INT(t->runtime_ns, 1 * MS);
	ct_analysis_free(&a);
}

/* Not a terminal: one plain report per interval, nothing in between. */
static void test_live_plain(void)
{
	struct ct_comm_cache comms;
	struct ct_print_ctx names = { &comms, NULL, NULL, NULL, NULL, NULL, NULL };
	struct ct_live_top *t;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CT_CHECK_INT(ct_comm_cache_init(&comms, 16), 0);
	ct_comm_cache_set(&comms, 100, "alpha");
	t = ct_live_top_open(f, -1, &(struct ct_live_view){ 2.0, 5, false, false },
			     2, &names, T0);
	CT_CHECK(t != NULL);
	if (!t)
		return;
	an_target = NULL;
	live_target = t;
	/* in the ring before the window opened: counts from its start */
	feed_switch(T0 - 500 * MS, 0, 0, 100, 0);
	CT_CHECK(!ct_live_top_tick(t, T0 + 1999 * MS));
	fflush(f);
	CT_CHECK_INT(len, 0);			/* not yet */
	CT_CHECK(!ct_live_top_tick(t, T0 + 2000 * MS));
	fflush(f);
	/* alpha ran the whole 2 s window, not 2.5 s of it */
	CT_CHECK(strstr(text, "coretrace top: live, 2.00 s, 1 records\n") != NULL);
	CT_CHECK(strstr(text, " 1000.0 ms/s        0.0  Process    alpha [100]\n") != NULL);
	/* the next window starts empty, alpha still running: 1000 ms/s */
	CT_CHECK(!ct_live_top_tick(t, T0 + 4000 * MS));
	fflush(f);
	CT_CHECK(strstr(text, "coretrace top: live, 2.00 s, 0 records\n") != NULL);
	CT_CHECK(strstr(strstr(text, "0 records"), " 1000.0 ms/s        0.0  Process    alpha [100]\n") != NULL);
	ct_live_top_close(t);
	live_target = NULL;
	fclose(f);
	free(text);
	ct_comm_cache_free(&comms);
}

/* A terminal (a pty here): the alternate screen, redraws, q quits. */
static void test_live_tty(void)
{
	struct ct_print_ctx names = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave;
	char buf[8192];
	struct ct_live_top *t;
	size_t len;
	ssize_t n;
	FILE *out;

	CT_CHECK(master >= 0 && !grantpt(master) && !unlockpt(master));
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	CT_CHECK(slave >= 0);
	out = fdopen(dup(slave), "w");
	t = ct_live_top_open(out, slave, &(struct ct_live_view){ 1.0, 0, false, false },
			     2, &names, T0);
	CT_CHECK(t != NULL);
	if (!t)
		return;
	CT_CHECK(!ct_live_top_tick(t, T0 + 1000 * MS));
	CT_CHECK_INT(write(master, "x", 1), 1);
	CT_CHECK(!ct_live_top_tick(t, T0 + 1100 * MS));	/* other keys: no */
	CT_CHECK_INT(write(master, "q", 1), 1);
	CT_CHECK(ct_live_top_tick(t, T0 + 1200 * MS));	/* q quits */
	ct_live_top_close(t);
	fclose(out);
	/* a pty hands its output over in pieces: take all there is */
	len = 0;
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };

		if (poll(&pfd, 1, 200) <= 0)
			break;
		n = read(master, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	CT_CHECK(strstr(buf, "\033[?1049h") != NULL);	/* alternate screen */
	CT_CHECK(strstr(buf, "coretrace top: live, 1.00 s") != NULL);
	CT_CHECK(strstr(buf, "q: quit") != NULL);
	CT_CHECK(strstr(buf, "\033[?1049l") != NULL);	/* and back */
	close(slave);
	close(master);
}

static void feed_task_cgroup(uint64_t ts, uint32_t pid, uint64_t id)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	ct_set_ts(&r.task_cgroup, ts);
	r.task_cgroup.type = CT_EV_TASK_CGROUP;
	r.task_cgroup.pid = pid;
	r.task_cgroup.cgroup_id = id;
	feed(&r);
}

/*
 * Groups 10 (/a) and 11 (/a/b). A (100) is in /a from before the window
 * and runs on CPU 0 from T0; moved to /a/b at +6, it sleeps at +8: /a
 * has its 6 ms, /a/b 2 ms. C (300), woken at +1, runs on CPU 1 from +2
 * (delay 1 ms); its group, /a/b, is first announced at +4 (what it did
 * before goes there too), it sleeps at +10: 8 ms. D (400), never
 * announced, is woken at +10.5 and runs on CPU 1 from +12 (1.5 ms) to
 * the end at +15. /a/b: 10 ms, 1 switch, 1 wakeup, 2 tasks.
 */
static void feed_groups(void)
{
	feed_task_cgroup(T0 - 1 * MS, 100, 10);
	feed_switch(T0, 0, 0, 100, 0);
	feed_simple(T0 + 1 * MS, 1, CT_EV_SCHED_WAKEUP, 300, 1);
	feed_switch(T0 + 2 * MS, 1, 0, 300, 0);
	feed_task_cgroup(T0 + 4 * MS, 300, 11);
	feed_task_cgroup(T0 + 6 * MS, 100, 11);
	feed_task_cgroup(T0 + 7 * MS, 100, 11);		/* again: no move */
	feed_task_cgroup(T0 + 7 * MS, 100, 0);		/* no group: ignored */
	feed_switch(T0 + 8 * MS, 0, 100, 0, 1);
	feed_switch(T0 + 10 * MS, 1, 300, 0, 1);
	feed_simple(T0 + 10 * MS + MS / 2, 1, CT_EV_SCHED_WAKEUP, 400, 1);
	feed_switch(T0 + 12 * MS, 1, 0, 400, 0);
	ct_analysis_settle(&an, T0 + 15 * MS);
}

static char *print_groups(enum ct_out fmt)
{
	struct ct_cgroup_names groups;
	struct ct_comm_cache comms;
	struct ct_print_ctx names = { &comms, NULL, NULL, NULL, &groups, NULL, NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CT_CHECK_INT(ct_comm_cache_init(&comms, 16), 0);
	CT_CHECK_INT(ct_cgroup_names_init(&groups, 16, 16), 0);
	ct_cgroup_set_group(&groups, 10, 1, "/a");
	ct_cgroup_set_group(&groups, 11, 2, "/a/b\033[2J");
	ct_top_print(f, fmt, &an, &names, 0, "cap", true);
	fclose(f);
	ct_cgroup_names_free(&groups);
	ct_comm_cache_free(&comms);
	return text;
}

static void test_groups(void)
{
	const struct ct_an_group *a = ct_analysis_group(&an, 10);
	const struct ct_an_group *b = ct_analysis_group(&an, 11);
	struct ct_an_group rows[CT_GROUP_ROWS];
	char *text;

	CT_CHECK(a && b && !ct_analysis_group(&an, 12));
	if (!a || !b)
		return;
	CT_CHECK_INT(an.window_start, T0);	/* not the announcement */
	CT_CHECK_INT(a->total_runtime_ns, 6 * MS);
	CT_CHECK_INT(a->total_switches, 1);
	CT_CHECK_INT(a->tasks, 1);
	CT_CHECK_INT(a->delays, 0);
	CT_CHECK_INT(b->total_runtime_ns, 10 * MS);
	CT_CHECK_INT(b->runtime_ns, 10 * MS);
	CT_CHECK_INT(b->total_switches, 1);
	CT_CHECK_INT(b->total_wakeups, 1);
	CT_CHECK_INT(b->tasks, 2);
	CT_CHECK_INT(b->delays, 1);
	CT_CHECK_INT(b->delay_max_ns, 1 * MS);
	CT_CHECK_INT(b->delay_max_at, T0 + 2 * MS);
	CT_CHECK_INT(b->delay_max_tid, 300);
	/* busiest first, the tasks of no group as group 0 */
	CT_CHECK_INT(ct_group_rows(&an, true, rows, CT_GROUP_ROWS), 3);
	CT_CHECK_INT(rows[0].id, 11);
	CT_CHECK_INT(rows[1].id, 10);
	CT_CHECK_INT(rows[2].id, 0);
	CT_CHECK_INT(rows[2].runtime_ns, 3 * MS);
	CT_CHECK_INT(rows[2].delay_max_ns, 3 * MS / 2);
	CT_CHECK_INT(rows[2].delay_max_tid, 400);
	/* the whole run's, largest delay first */
	CT_CHECK_INT(ct_group_rows(&an, false, rows, CT_GROUP_ROWS), 3);
	CT_CHECK_INT(rows[0].id, 0);
	CT_CHECK_INT(rows[1].id, 11);
	CT_CHECK_INT(rows[2].id, 10);
	CT_CHECK_INT(ct_group_rows(&an, true, rows, 1), 1);
	CT_CHECK(ct_analysis_task(&an, 100)->group == 11);
	text = print_groups(CT_OUT_TEXT);
	/* 10 ms in 15 ms; the path's control bytes escaped */
	CT_CHECK(strstr(text, "  666.7 ms/s        66.7       66.7         1.000         1.000      2  /a/b\\x1b[2J\n") != NULL);
	CT_CHECK(strstr(text, "  400.0 ms/s        66.7        0.0         0.000         0.000      1  /a\n") != NULL);
	CT_CHECK(strstr(text, "(no group announced)\n") != NULL);
	free(text);
	text = print_groups(CT_OUT_JSON);
	CT_CHECK(strstr(text, "\"groups\":[{\"cgroup\":\"/a/b\\u001b[2J\",\"cgroup_id\":11,\"tasks\":2,\"usage_ms_per_s\":666.667,\"switches_per_s\":66.667,\"wakeups_per_s\":66.667,\"delays\":1,\"avg_delay_ms\":1.000000,\"max_delay_ms\":1.000000,\"max_delay_at\":1002000000,\"max_delay_tid\":300}") != NULL);
	CT_CHECK(strstr(text, "{\"cgroup\":null,\"cgroup_id\":0,\"tasks\":1,") != NULL);
	free(text);
	text = print_groups(CT_OUT_CSV);
	CT_CHECK(strstr(text, "usage_ms_per_s,switches_per_s,wakeups_per_s,delays,avg_delay_ms,max_delay_ms,max_delay_at,max_delay_tid,tasks,cgroup_id,cgroup\n666.667,66.667,66.667,1,1.000000,1.000000,1002000000,300,2,11,\"/a/b\\x1b[2J\"\n") != NULL);
	CT_CHECK_INT(csv_columns_differ(text), 0);
	free(text);
	text = print_groups(CT_OUT_HTML);
	CT_CHECK(strstr(text, "<td>/a/b[2J</td>") != NULL);	/* controls dropped */
	free(text);
}

/* more groups than the table holds: counted, not tracked, nothing lost */
static void test_groups_bounded(void)
{
	struct ct_analysis a;
	uint32_t i;

	CT_CHECK_INT(ct_analysis_init(&a, 1, 4096), 0);
	an_target = &a;
	for (i = 0; i < CT_AN_GROUPS + 3; i++)
		feed_task_cgroup(T0, 100 + i, 1000 + i);
	an_target = &an;
	CT_CHECK_INT(a.groups_dropped, 3);
	CT_CHECK(ct_analysis_group(&a, 1000 + CT_AN_GROUPS - 1) != NULL);
	CT_CHECK(ct_analysis_group(&a, 1000 + CT_AN_GROUPS) == NULL);
	CT_CHECK(ct_analysis_task(&a, 100 + CT_AN_GROUPS) &&
		 !ct_analysis_task(&a, 100 + CT_AN_GROUPS)->grp);
	ct_analysis_free(&a);
}

/*
 * Real cpufreq drivers report many frequencies: every one kept, its time
 * whole (was: 16, the rest dropped); past CT_AN_FREQS, one "other" row.
 */
static void test_many_freqs(void)
{
	struct ct_analysis a;
	uint64_t ts = T0, sum = 0;
	uint32_t f, n = 40;
	int i;

	CT_CHECK_INT(ct_analysis_init(&a, 2, 64), 0);
	an_target = &a;
	for (f = 0; f < n; f++, ts += MS)
		feed_simple(ts, 1, CT_EV_CPU_FREQUENCY, 800000 + 100000 * f, 1);
	feed_simple(ts, 1, CT_EV_CPU_FREQUENCY, 800000, 1);
	CT_CHECK_INT(a.cpus[1].nfreqs, n);
	for (i = 0; i < (int)a.cpus[1].nfreqs; i++)
		sum += a.cpus[1].freqs[i].ns;
	CT_CHECK_INT(sum, n * MS);
	CT_CHECK_INT(a.cpus[1].freqs[n - 1].khz, 800000 + 100000 * (n - 1));
	ct_analysis_free(&a);

	CT_CHECK_INT(ct_analysis_init(&a, 2, 64), 0);
	for (f = 0, ts = T0; f < CT_AN_FREQS + 100; f++, ts += MS)
		feed_simple(ts, 1, CT_EV_CPU_FREQUENCY, 1000 + f, 1);
	feed_simple(ts, 1, CT_EV_CPU_FREQUENCY, 1000, 1);
	CT_CHECK_INT(a.cpus[1].nfreqs, CT_AN_FREQS);
	CT_CHECK_INT(a.cpus[1].freqs[CT_AN_FREQS - 1].khz, CT_AN_FREQ_OTHER);
	CT_CHECK_INT(a.cpus[1].freqs[CT_AN_FREQS - 1].ns, 101 * MS);
	ct_analysis_free(&a);
	an_target = &an;
}

void test_analysis(void)
{
	CT_CHECK_INT(ct_analysis_init(&an, 2, 64), 0);
	an.run_end = on_run_end;
	feed_sequence();
	test_scheduling();
	test_cpu_and_irqs();
	test_top();
	test_top_limit();
	test_row_order();
	test_new_window();
	ct_analysis_free(&an);
	CT_CHECK_INT(ct_analysis_init(&an, 2, 64), 0);
	feed_groups();
	test_groups();
	ct_analysis_free(&an);
	test_groups_bounded();
	test_bounded();
	test_many_freqs();
	test_running_at_start();
	test_live_plain();
	test_live_tty();
}
