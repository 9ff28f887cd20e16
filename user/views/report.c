// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace report DIR`: a capture read in time order through the same
 * decoder as the live path, into one of the views: the records
 * themselves, the overview (--top), perf sched latency's table
 * (--latency), perf sched timehist's lines (--timehist) or off-CPU time
 * by call stack (--offcpu).
 */
#include <stdlib.h>
#include <string.h>
#include "capture/replay.h"
#include "model/offcpu.h"
#include "model/output.h"
#include "views/lines.h"
#include "views/report.h"
#include "base/options.h"
#include "views/top.h"

/*
 * --timehist: a row waits for the record after it on its CPU, which is
 * the stack of the task it ends (record -g) or not
 */
struct ct_timehist_row {
	bool used;
	uint32_t tid;
	size_t len;
	char line[1024];
};

/* frames of a stack on --timehist's and --latency's lines */
#define CT_TIMEHIST_FRAMES	5
#define CT_LATENCY_FRAMES	8
#define CT_LATENCY_WORST	5	/* --latency: the worst delays' stacks */

struct ct_report_ctx {
	const struct ct_report_opts *opts;
	struct ct_names names;		/* tasks, irqs, the capture's functions */
	struct ct_output *out;		/* the records, or the analysis */
	struct ct_analysis an;
	struct ct_offcpu offcpu;
	struct ct_replay replay;
	bool write_failed;		/* stdout could not be written */
	char line[1024];
	struct ct_timehist_row *rows;	/* --timehist: per CPU */
};

static double ct_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* --timehist: one line when a task leaves a CPU, as perf sched timehist */
static void ct_timehist_line(void *data, const struct ct_an_task *t,
			     unsigned int cpu, uint64_t ts)
{
	struct ct_report_ctx *c = data;
	char name[CT_COMM_LEN + 16];
	const char *comm = ct_comm_name(&c->names.comms, t->tid, cpu, name, sizeof(name));
	struct ct_buf b = { c->line, sizeof(c->line), 0 };

	if (c->opts->out == CT_REPORT_JSON) {
		ct_buf_printf(&b, "{\"time\":%llu,\"cpu\":%u,\"task\":",
			      (unsigned long long)ts, cpu);
		ct_buf_json_str(&b, comm, CT_COMM_LEN);
		ct_buf_printf(&b, ",\"tid\":%u,\"wait_ms\":%.6f,\"sch_delay_ms\":%.6f,\"run_ms\":%.6f}",
			      t->tid, ct_ms(t->run_wait_ns), ct_ms(t->run_delay_ns),
			      ct_ms(ts - t->in_at));
	} else {
		snprintf(name, sizeof(name), "%s[%u]", comm, t->tid);
		ct_buf_printf(&b, "%15.6f [%04u]  %-24s %10.3f %10.3f %10.3f",
			      (double)ts / 1e9, cpu, name, ct_ms(t->run_wait_ns),
			      ct_ms(t->run_delay_ns), ct_ms(ts - t->in_at));
	}
	if (b.pos >= sizeof(c->line) || cpu >= CT_MAX_CPUS)
		return;
	/* held until the next record of its CPU says its stack */
	c->rows[cpu].used = true;
	c->rows[cpu].tid = t->tid;
	c->rows[cpu].len = b.pos;
	memcpy(c->rows[cpu].line, c->line, b.pos + 1);
}

/* @cpu's row, with the stack of callchain @cc when it is its task's */
static void ct_timehist_flush(struct ct_report_ctx *c, unsigned int cpu,
			      const struct ct_callchain *cc)
{
	struct ct_timehist_row *r = &c->rows[cpu];
	char frames[2048], escaped[4 * sizeof(r->line) + 1];
	static char stacks[2 * (CT_KSTACK_DEPTH + CT_USTACK_DEPTH) * 260 + 64];
	struct ct_buf b;

	if (!r->used)
		return;
	r->used = false;
	if (c->opts->out == CT_REPORT_JSON) {
		/* JSON escapes its strings itself: written as it is */
		if (!cc) {
			printf("%.*s\n", (int)r->len, r->line);
			return;
		}
		b = (struct ct_buf){ stacks, sizeof(stacks), 0 };
		ct_buf_printf(&b, ",\"stack\":");
		ct_json_stack_frames(&b, &c->names.pctx, cc->kstack);
		ct_buf_printf(&b, ",\"user_stack\":");
		ct_json_stack_frames(&b, &c->names.pctx, cc->ustack);
		if (b.pos < sizeof(stacks))
			printf("%.*s%s}\n", (int)r->len - 1, r->line, stacks);
		else
			printf("%.*s\n", (int)r->len, r->line);
		return;
	}
	if (cc) {
		/* the frames are escaped already; the row is, here */
		ct_stack_line(&c->names.pctx, cc->kstack, cc->ustack,
			      CT_TIMEHIST_FRAMES, frames, sizeof(frames));
		ct_text_escape(escaped, sizeof(escaped), r->line, r->len);
		printf("%s%s%s\n", escaped, frames[0] ? "   " : "", frames);
		return;
	}
	ct_put_text_line(stdout, r->line, r->len);
}

/* --timehist: each record first settles the row its CPU holds */
static void ct_timehist_feed(const union ct_record *rec, void *ctx)
{
	struct ct_report_ctx *c = ctx;
	unsigned int cpu = rec->hdr.cpu;
	const struct ct_callchain *cc = &rec->callchain;

	if (cpu < CT_MAX_CPUS && c->rows[cpu].used)
		ct_timehist_flush(c, cpu, rec->hdr.type == CT_EV_CALLCHAIN &&
				  cc->event == CT_EV_SCHED_SWITCH &&
				  cc->pid == c->rows[cpu].tid ? cc : NULL);
	ct_analysis_feed(&c->an, rec);
}

static int ct_latency_cmp(const void *pa, const void *pb)
{
	const struct ct_an_task *a = *(const struct ct_an_task *const *)pa;
	const struct ct_an_task *b = *(const struct ct_an_task *const *)pb;

	if (a->delay_max_ns != b->delay_max_ns)
		return a->delay_max_ns < b->delay_max_ns ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* a group's path as JSON, null when no group was announced */
static void ct_json_group(struct ct_report_ctx *c, struct ct_buf *b,
			  uint64_t id)
{
	char buf[64];
	const char *name;

	if (!id) {
		ct_buf_printf(b, "null");
		return;
	}
	name = ct_group_name(&c->names.pctx, id, buf, sizeof(buf));
	ct_buf_json_str(b, name, strlen(name));
}

static bool ct_has_stacks(const struct ct_an_stacks *st)
{
	return st->kstack || st->ustack || st->woken;
}

/* record -g: the stacks of a task's longest delay, in its JSON object */
static void ct_json_max_stacks(struct ct_report_ctx *c, struct ct_buf *b,
			       const struct ct_an_stacks *st)
{
	if (!ct_has_stacks(st))
		return;
	ct_buf_printf(b, ",\"max_delay_stack\":");
	ct_json_stack_frames(b, &c->names.pctx, st->kstack);
	ct_buf_printf(b, ",\"max_delay_user_stack\":");
	ct_json_stack_frames(b, &c->names.pctx, st->ustack);
	if (!st->woken) {
		ct_buf_printf(b, ",\"max_delay_waker\":null");
		return;
	}
	ct_buf_printf(b, ",\"max_delay_waker\":%u,\"max_delay_waker_stack\":",
		      st->waker);
	ct_json_stack_frames(b, &c->names.pctx, st->waker_kstack);
	ct_buf_printf(b, ",\"max_delay_waker_user_stack\":");
	ct_json_stack_frames(b, &c->names.pctx, st->waker_ustack);
}

/* record -g: the worst delays, where each task had left the CPU and who woke it */
static void ct_latency_stacks(struct ct_report_ctx *c,
			      const struct ct_an_task **list, size_t n)
{
	char name[CT_COMM_LEN + 16], task[CT_COMM_LEN + 32], escaped[4 * sizeof(task)];
	char frames[2048];
	const struct ct_an_stacks *st;
	unsigned int shown = 0;
	size_t i;

	for (i = 0; i < n && shown < CT_LATENCY_WORST; i++) {
		st = &list[i]->max_stacks;
		if (!list[i]->delays || !ct_has_stacks(st))
			continue;
		if (!shown++)
			printf("\n  The worst delays: where the task had left the CPU, and who woke it from where (record -g)\n");
		snprintf(task, sizeof(task), "%s:%u",
			 ct_comm_name(&c->names.comms, list[i]->tid, 0, name,
				      sizeof(name)), list[i]->tid);
		ct_text_escape(escaped, sizeof(escaped), task, sizeof(task));
		printf("  %-24s %13.3f ms at %.6f s\n", escaped,
		       ct_ms(list[i]->delay_max_ns),
		       (double)list[i]->delay_max_at / 1e9);
		ct_stack_line(&c->names.pctx, st->kstack, st->ustack,
			      CT_LATENCY_FRAMES, frames, sizeof(frames));
		printf("      left the CPU in: %s\n", frames[0] ? frames : "(no stack)");
		if (!st->woken) {
			printf("      not woken: preempted, or its wakeup was not traced\n");
			continue;
		}
		snprintf(task, sizeof(task), "%s:%u",
			 ct_comm_name(&c->names.comms, st->waker, 0, name,
				      sizeof(name)), st->waker);
		ct_text_escape(escaped, sizeof(escaped), task, sizeof(task));
		ct_stack_line(&c->names.pctx, st->waker_kstack, st->waker_ustack,
			      CT_LATENCY_FRAMES, frames, sizeof(frames));
		printf("      woken by %s in: %s\n", escaped,
		       frames[0] ? frames : "(no stack)");
	}
}

static void ct_latency_row(struct ct_report_ctx *c, const struct ct_an_task *t,
			   bool first)
{
	char name[CT_COMM_LEN + 16], escaped[4 * sizeof(name)];
	const char *comm = ct_comm_name(&c->names.comms, t->tid, 0, name, sizeof(name));
	double avg = t->delays ? ct_ms(t->delay_sum_ns) / (double)t->delays : 0;

	if (c->opts->out == CT_REPORT_JSON) {
		struct ct_buf b = { c->line, sizeof(c->line), 0 };

		ct_buf_printf(&b, "%s{\"task\":", first ? "" : ",");
		ct_buf_json_str(&b, comm, CT_COMM_LEN);
		ct_buf_printf(&b, ",\"tid\":%u,\"runtime_ms\":%.6f,\"switches\":%llu,"
			      "\"delays\":%llu,\"avg_delay_ms\":%.6f,\"max_delay_ms\":%.6f,"
			      "\"max_delay_at\":%llu,\"cgroup\":", t->tid,
			      ct_ms(t->total_runtime_ns),
			      (unsigned long long)t->total_switches,
			      (unsigned long long)t->delays, avg,
			      ct_ms(t->delay_max_ns),
			      (unsigned long long)t->delay_max_at);
		ct_json_group(c, &b, t->grp ? t->group : 0);
		ct_json_max_stacks(c, &b, &t->max_stacks);
		ct_buf_printf(&b, "}");
		if (b.pos < sizeof(c->line))
			fputs(c->line, stdout);
		return;
	}
	snprintf(name, sizeof(name), "%s:%u", comm, t->tid);
	ct_text_escape(escaped, sizeof(escaped), name, sizeof(name));
	printf("  %-24s %12.3f %9llu %13.3f %13.3f %15.6f\n", escaped,
	       ct_ms(t->total_runtime_ns), (unsigned long long)t->total_switches,
	       avg, ct_ms(t->delay_max_ns), (double)t->delay_max_at / 1e9);
}

/* --latency: per task, sorted by maximum scheduling delay */
static void ct_latency_print(struct ct_report_ctx *c)
{
	const struct ct_analysis *a = &c->an;
	const struct ct_an_task **list;
	uint64_t runtime = 0, switches = 0;
	size_t n = 0, i;

	list = calloc((size_t)a->task_mask + 1, sizeof(*list));
	if (!list)
		return;
	for (i = 0; i <= a->task_mask; i++)
		if (a->tasks[i].used && a->tasks[i].total_switches)
			list[n++] = &a->tasks[i];
	qsort(list, n, sizeof(*list), ct_latency_cmp);
	if (c->opts->out == CT_REPORT_JSON)
		fputs("{\"tasks\":[", stdout);
	else
		printf("  %-24s %12s %9s %13s %13s %15s\n", "Task", "Runtime ms",
		       "Switches", "Avg delay ms", "Max delay ms", "Max delay at");
	for (i = 0; i < n; i++) {
		ct_latency_row(c, list[i], i == 0);
		runtime += list[i]->total_runtime_ns;
		switches += list[i]->total_switches;
	}
	if (c->opts->out == CT_REPORT_JSON)
		printf("],\"runtime_ms\":%.6f,\"switches\":%llu}\n", ct_ms(runtime),
		       (unsigned long long)switches);
	else
		printf("  %-24s %12.3f %9llu\n", "TOTAL:", ct_ms(runtime),
		       (unsigned long long)switches);
	if (c->opts->out != CT_REPORT_JSON)
		ct_latency_stacks(c, list, n);
	free(list);
}

static void ct_group_latency_row(struct ct_report_ctx *c,
				 const struct ct_an_group *g, bool first)
{
	char who[CT_COMM_LEN + 16], name[CT_COMM_LEN], buf[64];
	char escaped[4 * CT_CGROUP_PATH_LEN], escaped_who[4 * sizeof(who)];
	const char *path = ct_group_name(&c->names.pctx, g->id, buf, sizeof(buf));
	const char *comm = ct_comm_name(&c->names.comms, g->delay_max_tid, 0,
					name, sizeof(name));
	double avg = g->delays ? ct_ms(g->delay_sum_ns) / (double)g->delays : 0;
	struct ct_buf b = { c->line, sizeof(c->line), 0 };

	if (c->opts->out == CT_REPORT_JSON) {
		ct_buf_printf(&b, "%s{\"cgroup\":", first ? "" : ",");
		ct_json_group(c, &b, g->id);
		ct_buf_printf(&b, ",\"cgroup_id\":%llu,\"tasks\":%u,\"runtime_ms\":%.6f,"
			      "\"switches\":%llu,\"wakeups\":%llu,\"delays\":%llu,"
			      "\"avg_delay_ms\":%.6f,\"max_delay_ms\":%.6f,"
			      "\"max_delay_at\":%llu,\"max_delay_tid\":%u,\"max_delay_task\":",
			      (unsigned long long)g->id, g->tasks,
			      ct_ms(g->total_runtime_ns),
			      (unsigned long long)g->total_switches,
			      (unsigned long long)g->total_wakeups,
			      (unsigned long long)g->delays, avg,
			      ct_ms(g->delay_max_ns),
			      (unsigned long long)g->delay_max_at,
			      g->delay_max_tid);
		if (g->delays)
			ct_buf_json_str(&b, comm, CT_COMM_LEN);
		else
			ct_buf_printf(&b, "null");
		ct_buf_printf(&b, "}");
		if (b.pos < sizeof(c->line))
			fputs(c->line, stdout);
		return;
	}
	ct_text_escape(escaped, sizeof(escaped), path, strlen(path));
	if (g->delays)
		snprintf(who, sizeof(who), "%s:%u", comm, g->delay_max_tid);
	else
		snprintf(who, sizeof(who), "-");
	ct_text_escape(escaped_who, sizeof(escaped_who), who, strlen(who));
	printf("  %12.3f %9llu %9llu %13.3f %13.3f %15.6f  %-24s %5u  %s\n",
	       ct_ms(g->total_runtime_ns), (unsigned long long)g->total_switches,
	       (unsigned long long)g->total_wakeups, avg, ct_ms(g->delay_max_ns),
	       (double)g->delay_max_at / 1e9, escaped_who, g->tasks, escaped);
}

/* --latency --by cgroup: per group, sorted by maximum scheduling delay */
static void ct_group_latency_print(struct ct_report_ctx *c)
{
	struct ct_an_group *rows = calloc(CT_GROUP_ROWS, sizeof(*rows));
	uint64_t runtime = 0, switches = 0;
	size_t n, i;

	if (!rows)
		return;
	n = ct_group_rows(&c->an, false, rows, CT_GROUP_ROWS);
	if (c->opts->out == CT_REPORT_JSON)
		fputs("{\"by\":\"cgroup\",\"groups\":[", stdout);
	else
		printf("  %12s %9s %9s %13s %13s %15s  %-24s %5s  %s\n",
		       "Runtime ms", "Switches", "Wakeups", "Avg delay ms",
		       "Max delay ms", "Max delay at", "Max delay task", "Tasks",
		       "Cgroup");
	for (i = 0; i < n; i++) {
		ct_group_latency_row(c, &rows[i], i == 0);
		runtime += rows[i].total_runtime_ns;
		switches += rows[i].total_switches;
	}
	if (c->opts->out == CT_REPORT_JSON)
		printf("],\"runtime_ms\":%.6f,\"switches\":%llu,\"groups_dropped\":%llu}\n",
		       ct_ms(runtime), (unsigned long long)switches,
		       (unsigned long long)c->an.groups_dropped);
	else
		printf("  %12.3f %9llu  TOTAL\n", ct_ms(runtime),
		       (unsigned long long)switches);
	free(rows);
}

static void ct_report_begin(struct ct_report_ctx *c)
{
	if (c->opts->view != CT_VIEW_TIMEHIST || c->opts->out == CT_REPORT_JSON)
		return;
	printf("%15s %6s  %-24s %10s %10s %10s\n", "time", "cpu", "task name[tid]",
	       "wait time", "sch delay", "run time");
	printf("%15s %6s  %-24s %10s %10s %10s\n", "", "", "", "(msec)", "(msec)",
	       "(msec)");
}

/* What the capture lost, CPU by CPU, for --top's outputs. */
static void ct_report_losses(struct ct_analysis *an,
			     const struct ct_ctf_reader *reader)
{
	int cpu;

	an->lost = reader->lost_total;
	for (cpu = 0; cpu < an->ncpus && cpu < CT_MAX_CPUS; cpu++) {
		an->cpus[cpu].lost = reader->lost[cpu];
		if (reader->lost[cpu])
			an->cpus[cpu].seen = true;
	}
}

/* --offcpu: the stacks, and what could not be counted */
static void ct_offcpu_end(struct ct_report_ctx *c)
{
	const struct ct_offcpu *o = &c->offcpu;

	if (!o->total_ns && !o->unknown)
		fprintf(stderr, "coretrace report: no time off the CPU with a call stack in %s (recorded without -g?)\n",
			c->opts->dir);
	if (ct_offcpu_print(o, stdout, &c->names.pctx,
			    c->opts->out == CT_REPORT_JSON ? CT_OFFCPU_JSON :
			    CT_OFFCPU_FOLDED))
		fprintf(stderr, "coretrace: out of memory\n");
	if (o->dropped)
		fprintf(stderr, "coretrace report: %llu times off the CPU not counted: more tasks or stacks than the report holds\n",
			(unsigned long long)o->dropped);
}

static void ct_offcpu_feed_cb(const union ct_record *rec, void *ctx)
{
	ct_offcpu_feed(ctx, rec);
}

static void ct_report_end(struct ct_report_ctx *c,
			  const struct ct_ctf_reader *reader)
{
	static const enum ct_out outs[] = {
		[CT_REPORT_TEXT] = CT_OUT_TEXT, [CT_REPORT_JSON] = CT_OUT_JSON,
		[CT_REPORT_CSV] = CT_OUT_CSV, [CT_REPORT_HTML] = CT_OUT_HTML,
	};
	int cpu;

	if (c->opts->view == CT_VIEW_TOP) {
		/*
		 * The window ends at the last switch: once the programs
		 * detach (one by one), who runs is no longer known.
		 */
		if (c->an.last_switch)
			c->an.last_ts = c->an.last_switch;
		ct_analysis_settle(&c->an, c->an.last_ts);
		ct_report_losses(&c->an, reader);
		ct_top_print(stdout, outs[c->opts->out], &c->an, &c->names.pctx,
			     c->opts->rows, c->opts->dir, c->opts->by_cgroup);
	} else if (c->opts->view == CT_VIEW_LATENCY && c->opts->by_cgroup) {
		ct_group_latency_print(c);
	} else if (c->opts->view == CT_VIEW_LATENCY) {
		ct_latency_print(c);
	} else if (c->opts->view == CT_VIEW_OFFCPU) {
		ct_offcpu_end(c);
	} else if (c->opts->view == CT_VIEW_TIMEHIST) {
		for (cpu = 0; cpu < CT_MAX_CPUS; cpu++)
			ct_timehist_flush(c, (unsigned int)cpu, NULL);
	}
}

static void ct_report_ksym(void *data, uint64_t addr, const char *name)
{
	struct ct_report_ctx *c = data;

	ct_symtab_set(&c->names.syms, addr, name);
}

static int ct_report_init(struct ct_report_ctx *c, const struct ct_report_opts *opts)
{
	c->opts = opts;
	if (ct_names_init(&c->names, 65536) ||
	    ct_names_name_user_frames(&c->names, false))
		return -1;
	if (opts->view == CT_VIEW_RECORDS) {
		c->out = ct_lines_output(stdout, opts->out == CT_REPORT_JSON ?
					 CT_FORMAT_JSON : CT_FORMAT_TEXT,
					 &c->names, "coretrace report");
		return c->out ? 0 : -1;
	}
	if (opts->view == CT_VIEW_OFFCPU) {
		if (ct_offcpu_init(&c->offcpu, &c->names.comms))
			return -1;
		c->out = ct_callback_output(ct_offcpu_feed_cb, &c->offcpu,
					    &c->names);
		return c->out ? 0 : -1;
	}
	if (ct_analysis_init(&c->an, CT_MAX_CPUS, 32768))
		return -1;
	/* the other views: an analysis, printed at the end */
	c->out = ct_analysis_output(&c->an, &c->names);
	if (!c->out)
		return -1;
	if (opts->view == CT_VIEW_TIMEHIST) {
		c->an.run_end = ct_timehist_line;
		c->an.run_end_ctx = c;
		c->rows = calloc(CT_MAX_CPUS, sizeof(*c->rows));
		free(c->out);
		c->out = c->rows ? ct_callback_output(ct_timehist_feed, c,
						      &c->names) : NULL;
		if (!c->out)
			return -1;
	}
	return 0;
}

/* the reader's hooks, and timehist's heading */
static int ct_report_open(struct ct_ctf_reader *reader, void *ctx)
{
	struct ct_report_ctx *c = ctx;

	reader->on_ksym = ct_report_ksym;
	reader->ksym_ctx = c;
	reader->stacks = &c->names.stacks;
	reader->usyms = c->names.usyms;
	ct_report_begin(c);
	return 0;
}

/* the views printed at the end; the summary unless writing failed */
static bool ct_report_close(const struct ct_ctf_reader *reader, int err,
			    void *ctx)
{
	struct ct_report_ctx *c = ctx;

	/* a damaged capture still reports what was read */
	if (!err || reader->records)
		ct_report_end(c, reader);
	/* the records' output said a failed write itself */
	c->write_failed = c->replay.out_failed ||
		ct_close_output(NULL, "coretrace report",
				"the report to standard output");
	return !c->write_failed;
}

int ct_report(const struct ct_report_opts *opts)
{
	struct ct_ctf_reader reader;
	struct ct_report_ctx *c = calloc(1, sizeof(*c));
	bool write_failed = false;
	int err = -1;

	if (c && !ct_report_init(c, opts)) {
		c->replay = (struct ct_replay){
			.dir = opts->dir, .who = "coretrace report",
			.out = c->out, .begin = ct_report_open,
			.end = ct_report_close, .ctx = c, .count = true,
		};
		c->out = NULL;
		err = ct_replay(&c->replay, &reader);
		write_failed = c->write_failed;
	} else {
		fprintf(stderr, "coretrace: out of memory\n");
	}
	if (c) {
		ct_analysis_free(&c->an);
		ct_offcpu_free(&c->offcpu);
		free(c->rows);
		ct_names_free(&c->names);
	}
	free(c);
	if (write_failed)
		return CT_EXIT_FAILURE;
	return err ? CT_EXIT_USAGE : CT_EXIT_OK;
}

/* --- its options */

enum {
	CT_OPT_BY = 256,
	CT_OPT_JSON,
	CT_OPT_CSV,
	CT_OPT_HTML,
	CT_OPT_TOP,
	CT_OPT_LATENCY,
	CT_OPT_TIMEHIST,
	CT_OPT_OFFCPU,
};

static int ct_parse_report_format(const char *arg, enum ct_report_out *out)
{
	static const char *const names[] = { "text", "json", "csv", "html" };
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			*out = (enum ct_report_out)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* one report option; 0, or -1 after a message */
static int ct_report_option(int c, const char *arg, struct ct_report_opts *opts,
			    FILE *err)
{
	static const char *const view_names[] = {
		[CT_VIEW_TOP] = "--top", [CT_VIEW_LATENCY] = "--latency",
		[CT_VIEW_TIMEHIST] = "--timehist", [CT_VIEW_OFFCPU] = "--offcpu",
	};
	enum ct_report_view view;

	switch (c) {
	case CT_OPT_TOP:
	case CT_OPT_LATENCY:
	case CT_OPT_TIMEHIST:
	case CT_OPT_OFFCPU:
		view = c == CT_OPT_TOP ? CT_VIEW_TOP :
		       c == CT_OPT_LATENCY ? CT_VIEW_LATENCY :
		       c == CT_OPT_OFFCPU ? CT_VIEW_OFFCPU : CT_VIEW_TIMEHIST;
		if (opts->view != CT_VIEW_RECORDS && opts->view != view) {
			fprintf(err, "coretrace report: %s and %s are two views: pick one\n",
				view_names[opts->view], view_names[view]);
			return -1;
		}
		opts->view = view;
		return 0;
	case CT_OPT_JSON:
	case CT_OPT_CSV:
	case CT_OPT_HTML:
		opts->out = c == CT_OPT_JSON ? CT_REPORT_JSON :
			    c == CT_OPT_CSV ? CT_REPORT_CSV : CT_REPORT_HTML;
		return 0;
	case 'f':
		if (!ct_parse_report_format(arg, &opts->out))
			return 0;
		fprintf(err, "coretrace report: unknown format '%s' (want text, json, csv or html)\n",
			arg);
		return -1;
	case 'n':
		opts->rows_set = true;
		if (!ct_parse_count(arg, &opts->rows))
			return 0;
		fprintf(err, "coretrace report: -n wants a number of rows, not '%s'\n",
			arg);
		return -1;
	case CT_OPT_BY:
		opts->by_set = true;
		return ct_parse_by(arg, &opts->by_cgroup, err, "report");
	}
	return -1;
}

static int ct_set_report(int id, const char *arg, void *opts, FILE *err,
			 const char *cmd)
{
	(void)cmd;
	return ct_report_option(id, arg, opts, err);
}

static const struct ct_opt ct_report_views[] = {
	{ CT_OPT_TOP, "top", NULL, "what used the CPUs and woke them (ms/s,\n"
	  "events/s) per process, interrupt, softirq,\n"
	  "timer and work function; C-states, frequencies", ct_set_report },
	{ CT_OPT_LATENCY, "latency", NULL, "per task: runtime, switches, average and\n"
	  "maximum scheduling delay (perf sched latency)", ct_set_report },
	{ CT_OPT_TIMEHIST, "timehist", NULL, "a line per run of a task: wait time,\n"
	  "scheduling delay, run time (perf sched timehist)", ct_set_report },
	{ CT_OPT_OFFCPU, "offcpu", NULL, "off-CPU time by call stack, switch-out to\n"
	  "switch-in (a capture of record -g): folded\n"
	  "stacks in microseconds, for FlameGraph and\n"
	  "speedscope, or --json", ct_set_report },
	{ CT_OPT_BY, "by", "cgroup", "--top and --latency: a row per cgroup v2 group\n"
	  "(CPU time, switches, wakeups, scheduling delay\n"
	  "and where its maximum was); --by task: per task", ct_set_report },
	{ 'f', "format", "FORMAT", "text (default), json; csv and html for --top",
	  ct_set_report },
	{ CT_OPT_JSON, "json", NULL, "the same as --format json", ct_set_report },
	{ CT_OPT_CSV, "csv", NULL, "the same as --format csv", ct_set_report },
	{ CT_OPT_HTML, "html", NULL, "the same as --format html", ct_set_report },
	{ 'n', "rows", "N", "--top: the N busiest rows (default 20, 0: all)",
	  ct_set_report },
	{ 0 },
};

static const struct ct_opt_group ct_report_groups[] = {
	{ NULL, ct_report_views, NULL },
	{ NULL, NULL, NULL },
};

static void ct_report_defaults(void *p)
{
	struct ct_report_opts *opts = p;

	opts->rows = CT_REPORT_TOP_ROWS;
}

static int ct_report_finish(void *p, int argc, char **argv, int first,
			    FILE *err)
{
	struct ct_report_opts *opts = p;

	if (opts->out >= CT_REPORT_CSV && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: csv and html are for --top\n");
		return -1;
	}
	if (opts->rows_set && opts->view != CT_VIEW_TOP) {
		fprintf(err, "coretrace report: -n is for --top\n");
		return -1;
	}
	if (opts->by_set && opts->view != CT_VIEW_TOP &&
	    opts->view != CT_VIEW_LATENCY) {
		fprintf(err, "coretrace report: --by is for --top and --latency\n");
		return -1;
	}
	if (first + 1 != argc) {
		fprintf(err, "coretrace report: want one capture directory (see coretrace report --help)\n");
		return -1;
	}
	opts->dir = argv[first];
	return 0;
}

const struct ct_command ct_report_command = {
	.name = "report",
	.summary = "read a capture written by record -o",
	.usage = "DIR [--top|--latency|--timehist|--offcpu] [--by cgroup]\n"
		 "                           [--json|--csv|--html]",
	.description =
		"Read a CTF capture written by coretrace record -o DIR. Without a\n"
		"view, print every record as record prints them live. A capture that\n"
		"does not read cleanly is named with the file and offset, exit 2.\n",
	.groups = ct_report_groups,
	.permute = true,
	.opts_size = sizeof(struct ct_report_opts),
	.init = ct_report_defaults,
	.finish = ct_report_finish,
};
