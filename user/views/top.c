// SPDX-License-Identifier: GPL-2.0
/* The powertop-like overview: rows, then one printer per format. */
#include <stdlib.h>
#include <string.h>
#include "model/cgroup.h"
#include "views/top.h"

static const char *const ct_func_category[CT_AN_FUNC_KINDS] = {
	[CT_AN_TIMER] = "Timer",
	[CT_AN_HRTIMER] = "Timer",
	[CT_AN_WORK] = "Work",
};

static double ct_window_s(const struct ct_analysis *a)
{
	uint64_t ns = a->last_ts > a->window_start ?
		      a->last_ts - a->window_start : 0;

	return ns ? (double)ns / 1e9 : 1.0;
}

static void ct_row(struct ct_top_row *r, const char *category, uint32_t id,
		   uint64_t busy_ns, uint64_t events, double seconds)
{
	r->category = category;
	r->id = id;
	r->usage_ms = (double)busy_ns / 1e6 / seconds;
	r->events = (double)events / seconds;
}

static size_t ct_task_rows(const struct ct_analysis *a,
			   const struct ct_print_ctx *names,
			   struct ct_top_row *rows, size_t n, size_t max)
{
	double seconds = ct_window_s(a);
	char buf[CT_COMM_LEN + 16];
	uint32_t i;

	for (i = 0; i <= a->task_mask && n < max; i++) {
		const struct ct_an_task *t = &a->tasks[i];

		if (!t->used || (!t->runtime_ns && !t->wakeups))
			continue;
		ct_row(&rows[n], "Process", t->tid, t->runtime_ns, t->wakeups,
		       seconds);
		rows[n].task = t;
		snprintf(rows[n].description, sizeof(rows[n].description),
			 "%s [%u]", ct_comm_name(names->comms, t->tid, 0, buf,
						 sizeof(buf)), t->tid);
		n++;
	}
	return n;
}

static size_t ct_irq_rows(const struct ct_analysis *a,
			  const struct ct_print_ctx *names,
			  struct ct_top_row *rows, size_t n, size_t max)
{
	double seconds = ct_window_s(a);
	const char *name;
	uint32_t i;

	for (i = 0; i < CT_AN_IRQS && n < max; i++) {
		const struct ct_an_source *s = &a->irqs[i];

		if (!s->used || (!s->events && !s->busy_ns))
			continue;
		ct_row(&rows[n], "Interrupt", (uint32_t)s->key, s->busy_ns,
		       s->events, seconds);
		name = names->irqs ? ct_irq_names_get(names->irqs, (uint32_t)s->key) : NULL;
		snprintf(rows[n].description, sizeof(rows[n].description),
			 "[%u] %s", (uint32_t)s->key, name ? name : "?");
		n++;
	}
	for (i = 0; i < CT_AN_SOFTIRQS && n < max; i++) {
		const struct ct_an_source *s = &a->softirqs[i];

		if (!s->events && !s->busy_ns)
			continue;
		ct_row(&rows[n], "Softirq", i, s->busy_ns, s->events, seconds);
		snprintf(rows[n].description, sizeof(rows[n].description),
			 "%s", ct_softirq_name(i));
		n++;
	}
	return n;
}

static size_t ct_func_rows(const struct ct_analysis *a,
			   const struct ct_print_ctx *names,
			   struct ct_top_row *rows, size_t n, size_t max)
{
	double seconds = ct_window_s(a);
	const char *sym;
	int kind;
	uint32_t i;

	for (kind = 0; kind < CT_AN_FUNC_KINDS; kind++) {
		for (i = 0; i < CT_AN_FUNCS && n < max; i++) {
			const struct ct_an_source *s = &a->funcs[kind][i];

			if (!s->used || !s->events)
				continue;
			ct_row(&rows[n], ct_func_category[kind], 0, s->busy_ns,
			       s->events, seconds);
			sym = ct_function_name(names, s->key);
			if (sym)
				snprintf(rows[n].description,
					 sizeof(rows[n].description), "%s%s", sym,
					 kind == CT_AN_HRTIMER ? " (hrtimer)" : "");
			else
				snprintf(rows[n].description,
					 sizeof(rows[n].description), "0x%llx%s",
					 (unsigned long long)s->key,
					 kind == CT_AN_HRTIMER ? " (hrtimer)" : "");
			n++;
		}
	}
	return n;
}

/* most used first; as powertop, a wakeup weighs like a little CPU time */
/* @v (>= 0) to 0.1, as printed: rows that print the same compare equal */
static long long ct_tenths(double v)
{
	return (long long)(v * 10.0 + 0.5);
}

int ct_top_row_cmp(const void *pa, const void *pb)
{
	const struct ct_top_row *ra = pa, *rb = pb;
	long long ua = ct_tenths(ra->usage_ms), ub = ct_tenths(rb->usage_ms);
	long long ea = ct_tenths(ra->events), eb = ct_tenths(rb->events);

	if (ua != ub)
		return ua < ub ? 1 : -1;
	if (ea != eb)
		return ea < eb ? 1 : -1;
	return strcmp(ra->description, rb->description);
}

size_t ct_top_rows(const struct ct_analysis *a, const struct ct_print_ctx *names,
		   struct ct_top_row *rows, size_t max)
{
	size_t n = 0;

	n = ct_task_rows(a, names, rows, n, max);
	n = ct_irq_rows(a, names, rows, n, max);
	n = ct_func_rows(a, names, rows, n, max);
	qsort(rows, n, sizeof(*rows), ct_top_row_cmp);
	return n;
}

/* ---- groups ---- */

const char *ct_group_name(const struct ct_print_ctx *names, uint64_t id,
			  char *buf, size_t size)
{
	const char *path;

	if (!id)
		return "(no group announced)";
	path = names->cgroups ? ct_cgroup_path(names->cgroups, id) : NULL;
	if (path)
		return *path ? path : "/";
	snprintf(buf, size, "(cgroup id %llu)", (unsigned long long)id);
	return buf;
}

static bool ct_group_active(const struct ct_an_group *g, bool window)
{
	if (window)
		return g->runtime_ns || g->switches || g->wakeups;
	return g->total_runtime_ns || g->total_switches || g->total_wakeups;
}

static int ct_group_by_runtime(const void *pa, const void *pb)
{
	const struct ct_an_group *a = pa, *b = pb;

	if (a->runtime_ns != b->runtime_ns)
		return a->runtime_ns < b->runtime_ns ? 1 : -1;
	if (a->wakeups != b->wakeups)
		return a->wakeups < b->wakeups ? 1 : -1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int ct_group_by_delay(const void *pa, const void *pb)
{
	const struct ct_an_group *a = pa, *b = pb;

	if (a->delay_max_ns != b->delay_max_ns)
		return a->delay_max_ns < b->delay_max_ns ? 1 : -1;
	return a->id < b->id ? -1 : a->id > b->id;
}

size_t ct_group_rows(const struct ct_analysis *a, bool window,
		     struct ct_an_group *rows, size_t max)
{
	struct ct_an_group none = { .used = true };
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < CT_AN_GROUPS && n < max; i++)
		if (a->groups[i].used && ct_group_active(&a->groups[i], window))
			rows[n++] = a->groups[i];
	for (i = 0; i <= a->task_mask; i++)
		if (a->tasks[i].used && !a->tasks[i].grp) {
			ct_analysis_group_add(&none, &a->tasks[i]);
			none.tasks++;
		}
	if (n < max && ct_group_active(&none, window))
		rows[n++] = none;
	qsort(rows, n, sizeof(*rows),
	      window ? ct_group_by_runtime : ct_group_by_delay);
	return n;
}

/* ---- the CPU pane ---- */

static double ct_pct(uint64_t ns, double seconds)
{
	return (double)ns / 1e7 / seconds;
}

/* "1300 MHz", or "other frequencies" for the row past CT_AN_FREQS */
static const char *ct_freq_label(const struct ct_an_freq *f, char *buf,
				 size_t len)
{
	if (f->khz == CT_AN_FREQ_OTHER)
		return "other frequencies";
	snprintf(buf, len, "%u MHz", f->khz / 1000);
	return buf;
}

static int ct_top_cstates_seen(const struct ct_an_cpu *c)
{
	int s, seen = 0;

	for (s = 0; s < CT_AN_CSTATES; s++)
		if (c->cstate_ns[s])
			seen = s + 1;
	return seen;
}

static void ct_cpu_text(FILE *out, const struct ct_analysis *a)
{
	double seconds = ct_window_s(a);
	char label[32];
	int cpu, s, f;

	fputs("\n  CPU  busy %  idle states (% of the window)           frequencies (% of the window)\n", out);
	for (cpu = 0; cpu < a->ncpus; cpu++) {
		const struct ct_an_cpu *c = &a->cpus[cpu];
		int col = 0;

		if (!c->seen)
			continue;
		fprintf(out, "  %3d  ", cpu);
		if (c->idle_since)
			fprintf(out, "%6.1f  ", ct_pct(c->busy_ns, seconds));
		else
			fputs("     -  ", out);
		for (s = 0; s < ct_top_cstates_seen(c); s++)
			col += fprintf(out, "C%d %5.1f  ", s, ct_pct(c->cstate_ns[s], seconds));
		if (!col)
			col = fprintf(out, "(no cpu_idle records)");
		fprintf(out, "%*s", col < 43 ? 43 - col : 1, "");
		for (f = 0; f < (int)c->nfreqs; f++)
			fprintf(out, "%s %5.1f  ",
				ct_freq_label(&c->freqs[f], label, sizeof(label)),
				ct_pct(c->freqs[f].ns, seconds));
		if (!f)
			fputs("(the kernel reported none)", out);
		if (c->lost)
			fprintf(out, "  (%llu records lost)",
				(unsigned long long)c->lost);
		fputc('\n', out);
	}
}

static void ct_cpu_json(FILE *out, const struct ct_analysis *a)
{
	double seconds = ct_window_s(a);
	const char *sep = "";
	int cpu, s, f;

	fputs(",\"cpus\":[", out);
	for (cpu = 0; cpu < a->ncpus; cpu++) {
		const struct ct_an_cpu *c = &a->cpus[cpu];
		const char *inner = "";

		if (!c->seen)
			continue;
		fprintf(out, "%s{\"cpu\":%d,\"records_lost\":%llu,\"busy_pct\":",
			sep, cpu, (unsigned long long)c->lost);
		if (c->idle_since)
			fprintf(out, "%.3f", ct_pct(c->busy_ns, seconds));
		else
			fputs("null", out);
		fputs(",\"cstates_pct\":{", out);
		for (s = 0; s < ct_top_cstates_seen(c); s++, inner = ",")
			fprintf(out, "%s\"C%d\":%.3f", inner, s,
				ct_pct(c->cstate_ns[s], seconds));
		fputs("},\"freqs_pct\":{", out);
		inner = "";
		for (f = 0; f < (int)c->nfreqs; f++, inner = ",")
			if (c->freqs[f].khz == CT_AN_FREQ_OTHER)
				fprintf(out, "%s\"other\":%.3f", inner,
					ct_pct(c->freqs[f].ns, seconds));
			else
				fprintf(out, "%s\"%u\":%.3f", inner, c->freqs[f].khz,
					ct_pct(c->freqs[f].ns, seconds));
		fputs("}}", out);
		sep = ",";
	}
	fputc(']', out);
}

/*
 * The CPU pane in the rows' own columns, so that the CSV is one table:
 * a state held p % of the window is p * 10 ms/s of that CPU.
 */
static void ct_cpu_csv_row(FILE *out, int cpu, const char *state,
			   double pct)
{
	fprintf(out, "%.3f,,CPU state,\"CPU %d %s\",%d,\n", pct * 10.0, cpu,
		state, cpu);
}

static void ct_cpu_csv(FILE *out, const struct ct_analysis *a)
{
	double seconds = ct_window_s(a);
	char state[48], label[32];
	int cpu, s, f;

	for (cpu = 0; cpu < a->ncpus; cpu++) {
		const struct ct_an_cpu *c = &a->cpus[cpu];

		if (!c->seen)
			continue;
		if (c->idle_since)
			ct_cpu_csv_row(out, cpu, "busy", ct_pct(c->busy_ns, seconds));
		for (s = 0; s < ct_top_cstates_seen(c); s++) {
			snprintf(state, sizeof(state), "C%d", s);
			ct_cpu_csv_row(out, cpu, state,
				       ct_pct(c->cstate_ns[s], seconds));
		}
		for (f = 0; f < (int)c->nfreqs; f++) {
			snprintf(state, sizeof(state), "at %s",
				 ct_freq_label(&c->freqs[f], label, sizeof(label)));
			ct_cpu_csv_row(out, cpu, state,
				       ct_pct(c->freqs[f].ns, seconds));
		}
	}
}

/* ---- escaping ---- */

/*
 * A CSV field, quoted; control bytes escaped as the text views escape
 * them (a task names itself: a spreadsheet or a terminal reads this)
 */
static void ct_put_csv(FILE *out, const char *s)
{
	char escaped[4 * 512 + 1];
	size_t n = strnlen(s, 512);

	if (ct_text_needs_escape(s, n)) {
		ct_text_escape(escaped, sizeof(escaped), s, n);
		s = escaped;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void ct_put_xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else if (*s == '\'')
			fputs("&apos;", out);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, out);
	}
}

static void ct_put_json(FILE *out, const char *s)
{
	char buf[256];
	struct ct_buf b = { buf, sizeof(buf), 0 };

	ct_buf_json_str(&b, s, strlen(s));
	fwrite(buf, 1, b.pos < sizeof(buf) ? b.pos : sizeof(buf) - 1, out);
}

/* ---- the four printers ---- */

static void ct_text_head(FILE *out, const struct ct_analysis *a,
			 const char *title)
{
	char escaped[4 * 256];

	ct_text_escape(escaped, sizeof(escaped), title, strlen(title));
	fprintf(out, "coretrace top: %s, %.2f s, %llu records", escaped,
		ct_window_s(a), (unsigned long long)a->records);
	if (a->lost)
		fprintf(out, ", %llu lost while recording",
			(unsigned long long)a->lost);
	fprintf(out, "%s\n", a->tasks_dropped ? " (task table full: some tasks not counted)" : "");
}

static void ct_top_text(FILE *out, const struct ct_analysis *a,
			const struct ct_top_row *rows, size_t n, size_t total,
			const char *title)
{
	char escaped[4 * sizeof(rows->description)];
	size_t i;

	ct_text_head(out, a, title);
	if (n < total)
		fprintf(out, "the %zu busiest of %zu rows (-n 0: all of them)\n", n,
			total);
	fputc('\n', out);
	fputs("      Usage   Events/s  Category   Description\n", out);
	for (i = 0; i < n; i++) {
		ct_text_escape(escaped, sizeof(escaped), rows[i].description,
			       sizeof(rows[i].description));
		fprintf(out, "%7.1f ms/s %10.1f  %-9s  %s\n", rows[i].usage_ms,
			rows[i].events, rows[i].category, escaped);
	}
	ct_cpu_text(out, a);
}

static const char *ct_row_group(const struct ct_print_ctx *names,
				const struct ct_top_row *row, char *buf,
				size_t size)
{
	if (!row->task || !row->task->grp)
		return NULL;
	return ct_group_name(names, row->task->group, buf, size);
}

static void ct_top_json(FILE *out, const struct ct_analysis *a,
			const struct ct_print_ctx *names,
			const struct ct_top_row *rows, size_t n, size_t total,
			const char *title)
{
	char buf[64];
	const char *group;
	size_t i;

	fputs("{\"source\":", out);
	ct_put_json(out, title);
	fprintf(out, ",\"seconds\":%.6f,\"records\":%llu,\"records_lost\":%llu,\"tasks_dropped\":%llu,\"rows_total\":%zu,\"rows\":[",
		ct_window_s(a), (unsigned long long)a->records,
		(unsigned long long)a->lost,
		(unsigned long long)a->tasks_dropped, total);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s{\"category\":\"%s\",\"description\":", i ? "," : "",
			rows[i].category);
		ct_put_json(out, rows[i].description);
		fprintf(out, ",\"id\":%u,\"usage_ms_per_s\":%.3f,\"events_per_s\":%.3f,\"cgroup\":",
			rows[i].id, rows[i].usage_ms, rows[i].events);
		group = ct_row_group(names, &rows[i], buf, sizeof(buf));
		if (group)
			ct_put_json(out, group);
		else
			fputs("null", out);
		fputc('}', out);
	}
	fputc(']', out);
	ct_cpu_json(out, a);
	fputs("}\n", out);
}

static void ct_top_csv(FILE *out, const struct ct_analysis *a,
		       const struct ct_print_ctx *names,
		       const struct ct_top_row *rows, size_t n)
{
	const char *group;
	char buf[64];
	size_t i;

	fputs("usage_ms_per_s,events_per_s,category,description,id,cgroup\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%.3f,%.3f,%s,", rows[i].usage_ms, rows[i].events,
			rows[i].category);
		ct_put_csv(out, rows[i].description);
		fprintf(out, ",%u,", rows[i].id);
		group = ct_row_group(names, &rows[i], buf, sizeof(buf));
		if (group)
			ct_put_csv(out, group);
		fputc('\n', out);
	}
	ct_cpu_csv(out, a);
}

static void ct_html_cpus(FILE *out, const struct ct_analysis *a)
{
	double seconds = ct_window_s(a);
	char label[32];
	int cpu, s, f;

	fputs("<h2>CPUs</h2>\n<table>\n<tr><th>CPU</th><th>busy %</th>"
	      "<th>idle states %</th><th>frequencies %</th></tr>\n", out);
	for (cpu = 0; cpu < a->ncpus; cpu++) {
		const struct ct_an_cpu *c = &a->cpus[cpu];

		if (!c->seen)
			continue;
		fprintf(out, "<tr><td>%d</td><td class=\"n\">", cpu);
		if (c->idle_since)
			fprintf(out, "%.1f", ct_pct(c->busy_ns, seconds));
		fputs("</td><td>", out);
		for (s = 0; s < ct_top_cstates_seen(c); s++)
			fprintf(out, "C%d %.1f&nbsp; ", s, ct_pct(c->cstate_ns[s], seconds));
		fputs("</td><td>", out);
		for (f = 0; f < (int)c->nfreqs; f++)
			fprintf(out, "%s %.1f&nbsp; ",
				ct_freq_label(&c->freqs[f], label, sizeof(label)),
				ct_pct(c->freqs[f].ns, seconds));
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void ct_html_head(FILE *out, const struct ct_analysis *a,
			 const char *title)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>coretrace: ", out);
	ct_put_xml(out, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;color:#222}\n"
	      "table{border-collapse:collapse;margin-bottom:2em}\n"
	      "th{background:#2a4d69;color:#fff;text-align:left;padding:4px 10px}\n"
	      "td{padding:3px 10px;border-bottom:1px solid #ddd}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      ".bar{background:#4b86b4;height:10px;display:inline-block}\n"
	      ".Process{color:#1b5e20}.Interrupt{color:#b71c1c}.Softirq{color:#e65100}"
	      ".Timer{color:#4a148c}.Work{color:#0d47a1}\n"
	      "</style></head><body>\n<h1>coretrace overview</h1>\n<p>", out);
	ct_put_xml(out, title);
	fprintf(out, ": %.2f s, %llu records", ct_window_s(a),
		(unsigned long long)a->records);
	if (a->lost)
		fprintf(out, ", %llu lost while recording",
			(unsigned long long)a->lost);
	fputs("</p>\n", out);
	ct_html_cpus(out, a);
}

static void ct_top_html(FILE *out, const struct ct_analysis *a,
			const struct ct_print_ctx *names,
			const struct ct_top_row *rows, size_t n, size_t total,
			const char *title)
{
	double max = n && rows[0].usage_ms > 0 ? rows[0].usage_ms : 1.0;
	const char *group;
	char buf[64];
	size_t i;

	ct_html_head(out, a, title);
	fputs("<h2>Processes, interrupts, timers and work</h2>\n", out);
	if (n < total)
		fprintf(out, "<p>The %zu busiest of %zu rows (-n 0: all of them).</p>\n",
			n, total);
	fputs("<table>\n<tr><th>Usage (ms/s)</th><th></th><th>Events/s</th>"
	      "<th>Category</th><th>Description</th><th>Cgroup</th></tr>\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "<tr><td class=\"n\">%.1f</td><td><span class=\"bar\" "
			"style=\"width:%dpx\"></span></td><td class=\"n\">%.1f</td>"
			"<td class=\"%s\">%s</td><td>", rows[i].usage_ms,
			(int)(200.0 * rows[i].usage_ms / max), rows[i].events,
			rows[i].category, rows[i].category);
		ct_put_xml(out, rows[i].description);
		fputs("</td><td>", out);
		group = ct_row_group(names, &rows[i], buf, sizeof(buf));
		if (group)
			ct_put_xml(out, group);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n</body></html>\n", out);
}

/* ---- by cgroup ---- */

/* a group's rates over the window and its scheduling delays */
struct ct_group_view {
	const char *name;
	double usage_ms, switches, wakeups;	/* per second */
	double avg_delay_ms, max_delay_ms;
};

static void ct_group_view(const struct ct_analysis *a,
			  const struct ct_print_ctx *names,
			  const struct ct_an_group *g, char *buf, size_t size,
			  struct ct_group_view *v)
{
	double seconds = ct_window_s(a);

	v->name = ct_group_name(names, g->id, buf, size);
	v->usage_ms = (double)g->runtime_ns / 1e6 / seconds;
	v->switches = (double)g->switches / seconds;
	v->wakeups = (double)g->wakeups / seconds;
	v->avg_delay_ms = g->delays ? (double)g->delay_sum_ns / 1e6 / (double)g->delays : 0;
	v->max_delay_ms = (double)g->delay_max_ns / 1e6;
}

static void ct_groups_note(FILE *out, const struct ct_analysis *a)
{
	if (a->groups_dropped)
		fprintf(out, "(%llu tasks joined groups past the %d the overview holds: not counted by group)\n",
			(unsigned long long)a->groups_dropped, CT_AN_GROUPS);
}

static void ct_groups_text(FILE *out, const struct ct_analysis *a,
			   const struct ct_print_ctx *names,
			   const struct ct_an_group *rows, size_t n,
			   size_t total, const char *title)
{
	char buf[64], escaped[4 * CT_CGROUP_PATH_LEN];
	struct ct_group_view v;
	size_t i;

	ct_text_head(out, a, title);
	ct_groups_note(out, a);
	if (n < total)
		fprintf(out, "the %zu busiest of %zu groups (-n 0: all of them)\n",
			n, total);
	fputs("scheduling delays since tracing began; interrupts, softirqs, timers and work are in no group\n\n", out);
	fputs("      Usage  Switches/s  Wakeups/s  Avg delay ms  Max delay ms  Tasks  Cgroup\n", out);
	for (i = 0; i < n; i++) {
		ct_group_view(a, names, &rows[i], buf, sizeof(buf), &v);
		ct_text_escape(escaped, sizeof(escaped), v.name, strlen(v.name));
		fprintf(out, "%7.1f ms/s %11.1f %10.1f %13.3f %13.3f %6u  %s\n",
			v.usage_ms, v.switches, v.wakeups, v.avg_delay_ms,
			v.max_delay_ms, rows[i].tasks, escaped);
	}
	ct_cpu_text(out, a);
}

static void ct_groups_json(FILE *out, const struct ct_analysis *a,
			   const struct ct_print_ctx *names,
			   const struct ct_an_group *rows, size_t n,
			   size_t total, const char *title)
{
	struct ct_group_view v;
	char buf[64];
	size_t i;

	fputs("{\"source\":", out);
	ct_put_json(out, title);
	fprintf(out, ",\"by\":\"cgroup\",\"seconds\":%.6f,\"records\":%llu,\"records_lost\":%llu,\"tasks_dropped\":%llu,\"groups_dropped\":%llu,\"groups_total\":%zu,\"groups\":[",
		ct_window_s(a), (unsigned long long)a->records,
		(unsigned long long)a->lost,
		(unsigned long long)a->tasks_dropped,
		(unsigned long long)a->groups_dropped, total);
	for (i = 0; i < n; i++) {
		ct_group_view(a, names, &rows[i], buf, sizeof(buf), &v);
		fprintf(out, "%s{\"cgroup\":", i ? "," : "");
		if (rows[i].id)
			ct_put_json(out, v.name);
		else
			fputs("null", out);
		fprintf(out, ",\"cgroup_id\":%llu,\"tasks\":%u,\"usage_ms_per_s\":%.3f,\"switches_per_s\":%.3f,\"wakeups_per_s\":%.3f,\"delays\":%llu,\"avg_delay_ms\":%.6f,\"max_delay_ms\":%.6f,\"max_delay_at\":%llu,\"max_delay_tid\":%u}",
			(unsigned long long)rows[i].id, rows[i].tasks, v.usage_ms,
			v.switches, v.wakeups, (unsigned long long)rows[i].delays,
			v.avg_delay_ms, v.max_delay_ms,
			(unsigned long long)rows[i].delay_max_at,
			rows[i].delay_max_tid);
	}
	fputc(']', out);
	ct_cpu_json(out, a);
	fputs("}\n", out);
}

/* the CSV by cgroup is the group table alone: its columns are its own */
static void ct_groups_csv(FILE *out, const struct ct_analysis *a,
			  const struct ct_print_ctx *names,
			  const struct ct_an_group *rows, size_t n)
{
	struct ct_group_view v;
	char buf[64];
	size_t i;

	fputs("usage_ms_per_s,switches_per_s,wakeups_per_s,delays,avg_delay_ms,max_delay_ms,max_delay_at,max_delay_tid,tasks,cgroup_id,cgroup\n", out);
	for (i = 0; i < n; i++) {
		ct_group_view(a, names, &rows[i], buf, sizeof(buf), &v);
		fprintf(out, "%.3f,%.3f,%.3f,%llu,%.6f,%.6f,%llu,%u,%u,%llu,",
			v.usage_ms, v.switches, v.wakeups,
			(unsigned long long)rows[i].delays, v.avg_delay_ms,
			v.max_delay_ms, (unsigned long long)rows[i].delay_max_at,
			rows[i].delay_max_tid, rows[i].tasks,
			(unsigned long long)rows[i].id);
		if (rows[i].id)
			ct_put_csv(out, v.name);
		fputc('\n', out);
	}
}

static void ct_groups_html(FILE *out, const struct ct_analysis *a,
			   const struct ct_print_ctx *names,
			   const struct ct_an_group *rows, size_t n,
			   size_t total, const char *title)
{
	struct ct_group_view v;
	double max = 1.0;
	char buf[64];
	size_t i;

	ct_html_head(out, a, title);
	fputs("<h2>Cgroups</h2>\n<p>Scheduling delays since tracing began; interrupts, softirqs, timers and work are in no group.</p>\n", out);
	if (n < total)
		fprintf(out, "<p>The %zu busiest of %zu groups (-n 0: all of them).</p>\n",
			n, total);
	if (n && rows[0].runtime_ns)
		max = (double)rows[0].runtime_ns / 1e6 / ct_window_s(a);
	fputs("<table>\n<tr><th>Usage (ms/s)</th><th></th><th>Switches/s</th>"
	      "<th>Wakeups/s</th><th>Avg delay (ms)</th><th>Max delay (ms)</th>"
	      "<th>Tasks</th><th>Cgroup</th></tr>\n", out);
	for (i = 0; i < n; i++) {
		ct_group_view(a, names, &rows[i], buf, sizeof(buf), &v);
		fprintf(out, "<tr><td class=\"n\">%.1f</td><td><span class=\"bar\" "
			"style=\"width:%dpx\"></span></td><td class=\"n\">%.1f</td>"
			"<td class=\"n\">%.1f</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%.3f</td><td class=\"n\">%u</td><td>",
			v.usage_ms, (int)(200.0 * v.usage_ms / max), v.switches,
			v.wakeups, v.avg_delay_ms, v.max_delay_ms, rows[i].tasks);
		ct_put_xml(out, v.name);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n</body></html>\n", out);
}

static void ct_groups_print(FILE *out, enum ct_out fmt,
			    const struct ct_analysis *a,
			    const struct ct_print_ctx *names, size_t limit,
			    const char *title)
{
	struct ct_an_group *rows = calloc(CT_GROUP_ROWS, sizeof(*rows));
	size_t n, total;

	if (!rows) {
		fputs("coretrace: out of memory for the overview\n", stderr);
		return;
	}
	total = ct_group_rows(a, true, rows, CT_GROUP_ROWS);
	n = limit && total > limit ? limit : total;
	switch (fmt) {
	case CT_OUT_JSON:
		ct_groups_json(out, a, names, rows, n, total, title);
		break;
	case CT_OUT_CSV:
		ct_groups_csv(out, a, names, rows, n);
		break;
	case CT_OUT_HTML:
		ct_groups_html(out, a, names, rows, n, total, title);
		break;
	default:
		ct_groups_text(out, a, names, rows, n, total, title);
	}
	free(rows);
}

void ct_top_print(FILE *out, enum ct_out fmt, const struct ct_analysis *a,
		  const struct ct_print_ctx *names, size_t limit,
		  const char *title, bool by_cgroup)
{
	size_t max = (size_t)a->task_mask + 1 + CT_AN_IRQS + CT_AN_SOFTIRQS +
		     CT_AN_FUNC_KINDS * CT_AN_FUNCS;
	struct ct_top_row *rows;
	size_t n, total;

	if (by_cgroup) {
		ct_groups_print(out, fmt, a, names, limit, title);
		return;
	}
	rows = calloc(max, sizeof(*rows));
	if (!rows) {
		fputs("coretrace: out of memory for the overview\n", stderr);
		return;
	}
	total = ct_top_rows(a, names, rows, max);
	n = limit && total > limit ? limit : total;
	switch (fmt) {
	case CT_OUT_JSON:
		ct_top_json(out, a, names, rows, n, total, title);
		break;
	case CT_OUT_CSV:
		ct_top_csv(out, a, names, rows, n);
		break;
	case CT_OUT_HTML:
		ct_top_html(out, a, names, rows, n, total, title);
		break;
	default:
		ct_top_text(out, a, rows, n, total, title);
	}
	free(rows);
}
