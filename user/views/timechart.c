// SPDX-License-Identifier: GPL-2.0
/*
 * The timechart: two passes over a capture. The first finds the time
 * range, the CPUs, the busiest tasks and every name; the second follows
 * each lane's state and draws it at pixel resolution.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/analysis.h"
#include "model/args.h"
#include "base/options.h"
#include "capture/replay.h"
#include "model/output.h"
#include "views/timechart.h"
#include "views/top.h"

#define TC_LEFT		170	/* pixels for the lane labels */
#define TC_TOP		60
#define TC_LANE		20
#define TC_GAP		4
#define TC_LABEL_MIN	46	/* a run this wide gets its task's name */

enum tc_task_state {
	TC_NONE,		/* not seen yet, or gone: nothing drawn */
	TC_RUNNING,
	TC_RUNNABLE,		/* woken or preempted, waiting for a CPU */
	TC_SLEEPING,
};

#define TC_KEY_NONE	0xffffffffu	/* CPU lane before its first record */
/* --by cgroup: a CPU lane's key is its task's group slot + 1 */
#define TC_KEY_NO_GROUP	(CT_AN_GROUPS + 1)	/* a task of no known group */
#define TC_LEGEND_MAX	24			/* legend items */
#define TC_LEGEND_GROUPS	16		/* groups named in the legend */

/*
 * A task lane's pixel column shares the lane's height among the states
 * the task was in during that column, in proportion (a task that ran 8 %
 * of a column shows a green band of 8 % of the height, at least a pixel,
 * under its red runnable share): its run key packs the three heights.
 */
#define TC_MIX(run, wait, sleep) \
	((1u << 24) | (uint32_t)(run) | (uint32_t)(wait) << 8 | \
	 (uint32_t)(sleep) << 16)
#define TC_MIX_HEIGHT(mix, state)	(((mix) >> (8 * ((state) - 1))) & 0xff)

struct tc_lane {
	bool cpu;		/* a CPU lane (keys: tid, 0 idle) or a task's */
	uint32_t id;		/* CPU number or tid */
	uint32_t key;		/* current state */
	uint64_t since;
	int col;		/* pixel column being filled, -1: none */
	uint32_t col_key, best_key;
	uint64_t col_ns, best_ns;
	uint64_t state_ns[TC_SLEEPING + 1];	/* task lanes: this column's */
	bool has_run;		/* a run of equal columns waits to be drawn */
	uint32_t run_key;
	int run_start, run_end;
	int y;
};

struct tc_chart {
	const struct ct_timechart_opts *opts;
	FILE *out;
	struct ct_names names;
	struct ct_analysis an;
	struct ct_ctf_reader reader;
	uint64_t t0, t1;	/* the capture's time range */
	double ns_per_px;
	struct tc_lane *lanes;
	int nlanes, ncpu_lanes;
	struct tc_lane *cpu_lane[CT_MAX_CPUS];
	uint32_t cpu_tid[CT_MAX_CPUS];	/* --by cgroup: who runs there */
	struct ct_cgroup_names now;	/* --by cgroup: tasks' groups, drawing */
	uint64_t elements;
	int svg_width;
	/* --by cgroup: a hue per key, by the group's rank; -1: none */
	int16_t group_hue[CT_AN_GROUPS + 2];
	struct tc_legend_item {
		char color[32];
		char text[CT_CGROUP_PATH_LEN + 48];
	} legend[TC_LEGEND_MAX];
	int nlegend;
};

static void tc_color(const struct tc_chart *c, const struct tc_lane *l,
		     uint32_t key, char *buf, size_t len)
{
	static const char *const task_colors[] = {
		[TC_RUNNING] = "#2e7d32", [TC_RUNNABLE] = "#e53935",
		[TC_SLEEPING] = "#e3e7ee",
	};

	if (!l->cpu)
		snprintf(buf, len, "%s", task_colors[key]);
	else if (!key)
		snprintf(buf, len, "#c9ced6");	/* idle */
	else if (c->opts->by_cgroup && key <= CT_AN_GROUPS + 1 &&
		 c->group_hue[key] >= 0)
		snprintf(buf, len, "hsl(%d,60%%,48%%)", c->group_hue[key]);
	else if (c->opts->by_cgroup)
		snprintf(buf, len, "#8a8f98");	/* a group past the legend */
	else
		snprintf(buf, len, "hsl(%u,60%%,%u%%)", (key * 137u) % 360u,
			 42u + (key * 7u) % 20u);
}

/* --by cgroup: the group a CPU lane's key stands for */
static uint64_t tc_key_group(const struct tc_chart *c, uint32_t key)
{
	if (!key || key > CT_AN_GROUPS)
		return 0;
	return c->an.groups[key - 1].id;
}

static const char *tc_group_label(const struct tc_chart *c, uint32_t key,
				  char *buf, size_t size)
{
	return ct_group_name(&c->names.pctx, tc_key_group(c, key), buf, size);
}

/* --by cgroup: the key of the group @tid is in now (0: idle) */
static uint32_t tc_group_key(const struct tc_chart *c, uint32_t tid)
{
	const struct ct_an_group *g;

	if (!tid)
		return 0;
	g = ct_analysis_group(&c->an, ct_cgroup_task(&c->now, tid));
	return g ? (uint32_t)(g - c->an.groups) + 1 : TC_KEY_NO_GROUP;
}

/* a task lane's run: running at the bottom, runnable, then sleeping */
static void tc_draw_mix(struct tc_chart *c, const struct tc_lane *l, int width)
{
	static const enum tc_task_state order[] = {
		TC_RUNNING, TC_RUNNABLE, TC_SLEEPING,
	};
	int bottom = l->y + TC_LANE, i, h;
	char color[32];

	for (i = 0; i < 3; i++) {
		h = (int)TC_MIX_HEIGHT(l->run_key, order[i]);
		if (!h)
			continue;
		bottom -= h;
		tc_color(c, l, order[i], color, sizeof(color));
		fprintf(c->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
			TC_LEFT + l->run_start, bottom, width, h, color);
		c->elements++;
	}
}

static void tc_draw_run(struct tc_chart *c, struct tc_lane *l)
{
	char color[32], name[CT_COMM_LEN + 16];
	int width = l->run_end - l->run_start;

	if (!l->has_run || width <= 0)
		return;
	l->has_run = false;
	if ((!l->cpu && !l->run_key) || (l->cpu && l->run_key == TC_KEY_NONE))
		return;
	if (!l->cpu) {
		tc_draw_mix(c, l, width);
		return;
	}
	tc_color(c, l, l->run_key, color, sizeof(color));
	fprintf(c->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
		TC_LEFT + l->run_start, l->y, width, TC_LANE, color);
	c->elements++;
	if (l->cpu && l->run_key && width >= TC_LABEL_MIN) {
		fprintf(c->out, "<text x=\"%d\" y=\"%d\" class=\"in\">",
			TC_LEFT + l->run_start + 3, l->y + 14);
		if (c->opts->by_cgroup)
			ct_put_xml(c->out, tc_group_label(c, l->run_key, name,
							  sizeof(name)));
		else
			ct_put_xml(c->out, ct_comm_name(&c->names.comms, l->run_key,
						     0, name, sizeof(name)));
		fputs("</text>\n", c->out);
		c->elements++;
	}
}

/* column @col of @l is @key: extend the run or start another */
static void tc_put_cols(struct tc_chart *c, struct tc_lane *l, int from, int to,
			uint32_t key)
{
	if (from >= to)
		return;
	if (l->has_run && l->run_key == key && l->run_end == from) {
		l->run_end = to;
		return;
	}
	tc_draw_run(c, l);
	l->has_run = true;
	l->run_key = key;
	l->run_start = from;
	l->run_end = to;
}

/*
 * Heights of a task's states in a column that held @ns[state] of each: in
 * proportion, a state held at all gets a pixel; 0 when none was known.
 */
static uint32_t tc_mix(const uint64_t *ns)
{
	double known = (double)ns[TC_RUNNING] + (double)ns[TC_RUNNABLE] +
		       (double)ns[TC_SLEEPING];
	int h[TC_SLEEPING + 1] = { 0 }, state, left = TC_LANE;

	if (known <= 0)
		return 0;
	for (state = TC_RUNNING; state <= TC_RUNNABLE; state++) {
		h[state] = (int)((double)ns[state] * TC_LANE / known + 0.5);
		if (ns[state] && !h[state])
			h[state] = 1;
		if (h[state] > left)
			h[state] = left;
		left -= h[state];
	}
	h[TC_SLEEPING] = left;
	if (ns[TC_SLEEPING] && !left && h[TC_RUNNABLE] > 1) {
		h[TC_RUNNABLE]--;	/* sleeping was seen too: keep a pixel */
		h[TC_SLEEPING] = 1;
	}
	return TC_MIX(h[TC_RUNNING], h[TC_RUNNABLE], h[TC_SLEEPING]);
}

/* the run key of a whole column in state @key */
static uint32_t tc_pure(const struct tc_lane *l, uint32_t key)
{
	uint64_t ns[TC_SLEEPING + 1] = { 0 };

	if (l->cpu)
		return key;
	ns[key] = 1;	/* TC_NONE counts as unknown */
	return tc_mix(ns);
}

static void tc_close_col(struct tc_chart *c, struct tc_lane *l)
{
	if (l->col >= 0)
		tc_put_cols(c, l, l->col, l->col + 1,
			    l->cpu ? l->best_key : tc_mix(l->state_ns));
	l->col = -1;
}

/* the time where pixel column @col ends */
static uint64_t tc_col_end(const struct tc_chart *c, int col)
{
	return c->t0 + (uint64_t)ceil((double)(col + 1) * c->ns_per_px);
}

/* one column's share of a state: the longest share names the column */
static void tc_add_piece(struct tc_chart *c, struct tc_lane *l, int col,
			 uint32_t key, uint64_t ns)
{
	if (col != l->col) {
		tc_close_col(c, l);
		l->col = col;
		l->col_key = l->best_key = key;
		l->col_ns = l->best_ns = 0;
		memset(l->state_ns, 0, sizeof(l->state_ns));
	}
	if (!l->cpu) {
		l->state_ns[key] += ns;
		return;
	}
	if (key != l->col_key) {
		l->col_key = key;
		l->col_ns = 0;
	}
	l->col_ns += ns;
	if (l->col_ns >= l->best_ns) {
		l->best_ns = l->col_ns;
		l->best_key = key;
	}
}

/* the pixel column holding time @ts */
static int tc_col_of(const struct tc_chart *c, uint64_t ts)
{
	int col = (int)((double)(ts - c->t0) / c->ns_per_px);
	int last = (int)c->opts->width - 1;

	return col > last ? last : col;
}

/* @l held @key from @from to @to (ns): into pixel columns */
static void tc_span(struct tc_chart *c, struct tc_lane *l, uint32_t key,
		    uint64_t from, uint64_t to)
{
	int last = (int)c->opts->width - 1, col = tc_col_of(c, from), through;
	uint64_t end;

	while (from < to) {
		end = col == last ? to : tc_col_end(c, col);
		if (end > to)
			end = to;
		if (end > from)
			tc_add_piece(c, l, col, key, end - from);
		if (end >= to)
			break;
		from = end;
		col++;
		/* columns wholly inside the span are @key: one run */
		through = tc_col_of(c, to);
		if (through > col) {
			tc_close_col(c, l);
			tc_put_cols(c, l, col, through, tc_pure(l, key));
			col = through;
			from = tc_col_end(c, through - 1);
			if (from > to)
				from = to;
		}
	}
}

static void tc_set(struct tc_chart *c, struct tc_lane *l, uint32_t key,
		   uint64_t ts)
{
	if (ts > l->since)
		tc_span(c, l, l->key, l->since, ts);
	if (ts > l->since)
		l->since = ts;
	l->key = key;
}

static struct tc_lane *tc_task_lane(struct tc_chart *c, uint32_t tid)
{
	int i;

	for (i = c->ncpu_lanes; i < c->nlanes; i++)
		if (c->lanes[i].id == tid)
			return &c->lanes[i];
	return NULL;
}

/* --by cgroup: a task changes group, on a CPU from then on */
static void tc_move(struct tc_chart *c, const struct ct_task_cgroup *tc)
{
	int cpu;

	ct_cgroup_set_task(&c->now, tc->pid, tc->cgroup_id);
	for (cpu = 0; cpu < CT_MAX_CPUS; cpu++)
		if (c->cpu_lane[cpu] && c->cpu_tid[cpu] == tc->pid)
			tc_set(c, c->cpu_lane[cpu], tc_group_key(c, tc->pid),
			       ct_ts(tc));
}

static void tc_record(const union ct_record *rec, void *data)
{
	struct tc_chart *c = data;
	const struct ct_sched_switch *sw = &rec->sched_switch;
	struct tc_lane *l;

	if (ct_ts(rec) > c->t1)
		return;
	switch (rec->hdr.type) {
	case CT_EV_SCHED_SWITCH:
		if (sw->cpu < CT_MAX_CPUS && c->cpu_lane[sw->cpu]) {
			c->cpu_tid[sw->cpu] = sw->next_pid;
			tc_set(c, c->cpu_lane[sw->cpu], c->opts->by_cgroup ?
			       tc_group_key(c, sw->next_pid) : sw->next_pid,
			       ct_ts(sw));
		}
		l = tc_task_lane(c, sw->prev_pid);
		if (l)
			tc_set(c, l, sw->prev_state & 0xff ? TC_SLEEPING : TC_RUNNABLE,
			       ct_ts(sw));
		l = tc_task_lane(c, sw->next_pid);
		if (l)
			tc_set(c, l, TC_RUNNING, ct_ts(sw));
		break;
	case CT_EV_SCHED_WAKEUP:
	case CT_EV_SCHED_WAKEUP_NEW:
		l = tc_task_lane(c, rec->wakeup.pid);
		if (l && l->key != TC_RUNNING)
			tc_set(c, l, TC_RUNNABLE, ct_ts(rec));
		break;
	case CT_EV_SCHED_PROCESS_EXIT:
		l = tc_task_lane(c, rec->exit.pid);
		if (l)
			tc_set(c, l, TC_NONE, ct_ts(rec));
		break;
	case CT_EV_TASK_CGROUP:
		if (c->opts->by_cgroup)
			tc_move(c, &rec->task_cgroup);
		break;
	}
}


static int tc_by_runtime(const void *pa, const void *pb)
{
	const struct ct_an_task *a = *(const struct ct_an_task *const *)pa;
	const struct ct_an_task *b = *(const struct ct_an_task *const *)pb;

	if (a->total_runtime_ns != b->total_runtime_ns)
		return a->total_runtime_ns < b->total_runtime_ns ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* lanes: every CPU seen, then the busiest tasks */
static int tc_lanes(struct tc_chart *c)
{
	const struct ct_an_task **busy;
	size_t n = 0, i;
	int cpu, y = TC_TOP;

	busy = calloc((size_t)c->an.task_mask + 1, sizeof(*busy));
	c->lanes = calloc((size_t)CT_MAX_CPUS + c->opts->tasks, sizeof(*c->lanes));
	if (!busy || !c->lanes) {
		free(busy);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < c->an.ncpus; cpu++) {
		struct tc_lane *l = &c->lanes[c->nlanes];

		if (!c->an.cpus[cpu].seen)
			continue;
		*l = (struct tc_lane){ .cpu = true, .id = (uint32_t)cpu,
				       .key = TC_KEY_NONE, .since = c->t0,
				       .col = -1, .y = y };
		c->cpu_lane[cpu] = l;
		c->nlanes++;
		y += TC_LANE + TC_GAP;
	}
	c->ncpu_lanes = c->nlanes;
	y += 3 * TC_GAP;
	for (i = 0; i <= c->an.task_mask; i++)
		if (c->an.tasks[i].used && c->an.tasks[i].total_runtime_ns)
			busy[n++] = &c->an.tasks[i];
	qsort(busy, n, sizeof(*busy), tc_by_runtime);
	for (i = 0; i < n && i < c->opts->tasks; i++) {
		c->lanes[c->nlanes++] = (struct tc_lane){ .id = busy[i]->tid,
			.key = TC_NONE, .since = c->t0, .col = -1, .y = y };
		y += TC_LANE + TC_GAP;
	}
	free(busy);
	return 0;
}

static double tc_tick_step(double ns_per_px)
{
	static const double steps[] = { 1, 2, 5 };
	double scale = 1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (steps[i] * scale / ns_per_px >= 90)
				return steps[i] * scale;
		scale *= 10;
	}
}

static void tc_header(struct tc_chart *c, int height)
{
	int w = c->svg_width;
	double step = tc_tick_step(c->ns_per_px), t;
	int x;

	fprintf(c->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text{font-family:DejaVu Sans,Verdana,sans-serif;font-size:12px;fill:#222}"
		" text.in{font-size:11px;fill:#fff} text.t{font-size:16px}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		w, height, w, height);
	fputs("<text x=\"10\" y=\"22\" class=\"t\">coretrace timechart: ", c->out);
	ct_put_xml(c->out, c->opts->dir);
	fprintf(c->out, ", %.3f s from %.6f s</text>\n",
		(double)(c->t1 - c->t0) / 1e9, (double)c->t0 / 1e9);
	for (t = 0; t <= (double)(c->t1 - c->t0); t += step) {
		x = TC_LEFT + (int)(t / c->ns_per_px);
		fprintf(c->out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\" stroke-width=\"0.5\"/>\n"
			"<text x=\"%d\" y=\"%d\">%g s</text>\n", x, TC_TOP - 8, x,
			c->lanes[c->nlanes - 1].y + TC_LANE + 30, x + 2,
			TC_TOP - 12, t / 1e9);
	}
}

static void tc_labels(struct tc_chart *c)
{
	char name[CT_COMM_LEN + 16];
	int i;

	for (i = 0; i < c->nlanes; i++) {
		const struct tc_lane *l = &c->lanes[i];

		if (l->cpu)
			fprintf(c->out, "<text x=\"10\" y=\"%d\">CPU %u</text>\n",
				l->y + 14, l->id);
		if (l->cpu)
			continue;
		fprintf(c->out, "<text x=\"10\" y=\"%d\">", l->y + 14);
		ct_put_xml(c->out, ct_comm_name(&c->names.comms, l->id, 0, name, sizeof(name)));
		fprintf(c->out, " [%u]</text>\n", l->id);
	}
}

static void tc_legend_add(struct tc_chart *c, const char *color,
			  const char *text)
{
	struct tc_legend_item *item;

	if (c->nlegend >= TC_LEGEND_MAX)
		return;
	item = &c->legend[c->nlegend++];
	snprintf(item->color, sizeof(item->color), "%s", color);
	snprintf(item->text, sizeof(item->text), "%s", text);
}

/* --by cgroup: a colour per group that ran, the busiest first */
static void tc_legend_groups(struct tc_chart *c)
{
	struct ct_an_group *rows = calloc(CT_GROUP_ROWS, sizeof(*rows));
	char color[32], buf[64];
	size_t n, i;
	uint32_t key;

	if (!rows)
		return;
	n = ct_group_rows(&c->an, true, rows, CT_GROUP_ROWS);
	for (i = 0; i < n && i < TC_LEGEND_GROUPS; i++) {
		const struct ct_an_group *g = ct_analysis_group(&c->an, rows[i].id);

		if (!rows[i].runtime_ns)
			break;
		key = g ? (uint32_t)(g - c->an.groups) + 1 : TC_KEY_NO_GROUP;
		/* the golden angle from blue: neighbours in rank stay apart */
		c->group_hue[key] = (int16_t)((200 + 137 * (int)i) % 360);
		tc_color(c, &(struct tc_lane){ .cpu = true }, key, color, sizeof(color));
		tc_legend_add(c, color, ct_group_name(&c->names.pctx, rows[i].id,
						      buf, sizeof(buf)));
	}
	if (i < n && rows[i].runtime_ns) {
		snprintf(buf, sizeof(buf), "%zu more groups", n - i);
		tc_legend_add(c, "#8a8f98", buf);
	}
	free(rows);
}

static void tc_legend_items(struct tc_chart *c)
{
	tc_legend_add(c, "#2e7d32", "running");
	tc_legend_add(c, "#e53935", "runnable (waiting for a CPU)");
	tc_legend_add(c, "#e3e7ee", "sleeping");
	tc_legend_add(c, "#c9ced6", "CPU idle");
	if (c->opts->by_cgroup)
		tc_legend_groups(c);
	else
		tc_legend_add(c, "hsl(137,60%,49%)",
			      "CPU running a task (one colour per task)");
}

#define TC_LEGEND_LINE	20

static int tc_legend_item_px(const struct tc_chart *c, int i)
{
	return 40 + 8 * (int)strlen(c->legend[i].text);
}

/* The legend from @y, wrapped to the picture's width; returns its lines. */
static int tc_legend(struct tc_chart *c, int y, bool draw)
{
	int i, x = 10, lines = 1;

	for (i = 0; i < c->nlegend; i++) {
		if (x > 10 && x + tc_legend_item_px(c, i) > c->svg_width) {
			x = 10;
			y += TC_LEGEND_LINE;
			lines++;
		}
		if (draw) {
			fprintf(c->out, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#666\" stroke-width=\"0.5\"/>\n"
				"<text x=\"%d\" y=\"%d\">", x, y,
				c->legend[i].color, x + 20, y + 12);
			ct_put_xml(c->out, c->legend[i].text);
			fputs("</text>\n", c->out);
		}
		x += tc_legend_item_px(c, i);
	}
	return lines;
}

/*
 * Wide enough for the time axis, the title (about 9 px a character at
 * 16 px) and the legend's widest item.
 */
static int tc_svg_width(const struct tc_chart *c)
{
	int w = TC_LEFT + (int)c->opts->width + 20, i;
	int title = 20 + 9 * (int)(strlen(c->opts->dir) + 55);

	if (w < title)
		w = title;
	for (i = 0; i < c->nlegend; i++)
		if (w < 20 + tc_legend_item_px(c, i))
			w = 20 + tc_legend_item_px(c, i);
	return w;
}

/*
 * One pass over the capture into @out: the first learns the analysis and
 * the names, and says what it read (a damaged capture is drawn from what
 * could be read, as report does); the second draws.
 */
static int tc_pass(struct tc_chart *c, struct ct_output *out, bool first)
{
	struct ct_replay replay = {
		.dir = c->opts->dir, .who = "coretrace timechart", .out = out,
		.quiet = !first,
	};
	int err;

	if (!out) {
		fprintf(stderr, "coretrace: out of memory\n");
		return -ENOMEM;
	}
	err = ct_replay(&replay, &c->reader);
	return err && !c->reader.records ? err : 0;
}

static int tc_draw(struct tc_chart *c)
{
	int i, height;

	/*
	 * The chart ends at the last switch: after it (programs detach one
	 * by one) a task's state is no longer known.
	 */
	c->t0 = c->an.window_start;
	c->t1 = c->an.last_switch ? c->an.last_switch : c->an.last_ts;
	if (c->t1 <= c->t0)
		c->t1 = c->t0 + 1;
	c->ns_per_px = (double)(c->t1 - c->t0) / (double)c->opts->width;
	if (tc_lanes(c))
		return -ENOMEM;
	tc_legend_items(c);
	c->svg_width = tc_svg_width(c);
	height = c->lanes[c->nlanes - 1].y + TC_LANE + 70 +
		 (tc_legend(c, 0, false) - 1) * TC_LEGEND_LINE;
	tc_header(c, height);
	tc_labels(c);
	/* the names are the first pass's: this one learns none */
	if (tc_pass(c, ct_callback_output(tc_record, c, NULL), false))
		return -EINVAL;
	for (i = 0; i < c->nlanes; i++) {
		tc_set(c, &c->lanes[i], c->lanes[i].key, c->t1);
		tc_close_col(c, &c->lanes[i]);
		tc_draw_run(c, &c->lanes[i]);
	}
	tc_legend(c, c->lanes[c->nlanes - 1].y + TC_LANE + 40, true);
	fputs("</svg>\n", c->out);
	return 0;
}

int ct_timechart(const struct ct_timechart_opts *opts)
{
	struct tc_chart *c = calloc(1, sizeof(*c));
	char why[4608];
	bool damaged = false;
	int err = -ENOMEM;

	if (!c || ct_names_init(&c->names, 65536) ||
	    ct_analysis_init(&c->an, CT_MAX_CPUS, 32768) ||
	    ct_cgroup_names_init(&c->now, 65536, 16)) {
		fprintf(stderr, "coretrace: out of memory\n");
		goto out;
	}
	c->opts = opts;
	memset(c->group_hue, 0xff, sizeof(c->group_hue));	/* -1: none */
	err = ct_output_check(opts->output, opts->dir, why, sizeof(why));
	if (err) {
		fprintf(stderr, "coretrace timechart: %s\n", why);
		err = -EINVAL;
		goto out;
	}
	err = tc_pass(c, ct_analysis_output(&c->an, &c->names), true);
	if (err) {
		err = -EINVAL;	/* not a capture coretrace can read */
		goto out;
	}
	damaged = c->reader.damaged_streams > 0;
	if (!c->an.records) {
		fprintf(stderr, "coretrace timechart: %s holds no records\n", opts->dir);
		err = -EINVAL;
		goto out;
	}
	c->out = ct_output_open(opts->output, why, sizeof(why));
	if (!c->out) {
		err = -errno;
		fprintf(stderr, "coretrace timechart: %s\n", why);
		goto out;
	}
	err = tc_draw(c);
	if (ct_close_output(c->out, "coretrace timechart", opts->output) && !err)
		err = -EIO;
	if (!err)
		fprintf(stderr, "coretrace timechart: %s: %d lanes, %llu elements%s\n",
			opts->output, c->nlanes, (unsigned long long)c->elements,
			damaged ? ", from the records that could be read" : "");
	if (!err && damaged)
		err = -EINVAL;	/* drawn, but the capture is damaged */
out:
	if (c) {
		ct_analysis_free(&c->an);
		ct_names_free(&c->names);
		ct_cgroup_names_free(&c->now);
		free(c->lanes);
	}
	free(c);
	return err ? (err == -EINVAL ? CT_EXIT_USAGE : CT_EXIT_FAILURE) : CT_EXIT_OK;
}

/* --- its options */

enum {
	CT_OPT_BY = 256,
};

static int ct_set_timechart(int id, const char *arg, void *p, FILE *err,
			    const char *cmd)
{
	struct ct_timechart_opts *opts = p;

	switch (id) {
	case 'o':
		opts->output = arg;
		return 0;
	case 'n':
		if (!ct_parse_count(arg, &opts->tasks) && opts->tasks <= 1000)
			return 0;
		fprintf(err, "coretrace timechart: invalid task count '%s' (want 0 to 1000)\n",
			arg);
		return -1;
	case 'w':
		if (!ct_parse_count(arg, &opts->width) && opts->width >= 100 &&
		    opts->width <= 100000)
			return 0;
		fprintf(err, "coretrace timechart: invalid width '%s' (want 100 to 100000 pixels)\n",
			arg);
		return -1;
	default:
		return ct_parse_by(arg, &opts->by_cgroup, err, cmd);
	}
}

static const struct ct_opt ct_timechart_opts[] = {
	{ 'o', "output", "FILE", "the SVG to write (required)", ct_set_timechart },
	{ 'n', "tasks", "N", "task lanes (default 20)", ct_set_timechart },
	{ 'w', "width", "PIXELS", "width of the time axis (default 1600)",
	  ct_set_timechart },
	{ CT_OPT_BY, "by", "cgroup", "CPU lanes coloured by the cgroup of the task\n"
	  "that ran (--by task: a colour per task)", ct_set_timechart },
	{ 0 },
};

static const struct ct_opt_group ct_timechart_groups[] = {
	{ NULL, ct_timechart_opts, NULL },
	{ NULL, NULL, NULL },
};

static void ct_timechart_init(void *p)
{
	struct ct_timechart_opts *opts = p;

	opts->tasks = 20;
	opts->width = 1600;
}

static int ct_timechart_finish(void *p, int argc, char **argv, int first,
			       FILE *err)
{
	struct ct_timechart_opts *opts = p;

	if (first + 1 != argc || !opts->output) {
		fprintf(err, "coretrace timechart: want a capture directory and -o FILE.svg (see coretrace timechart --help)\n");
		return -1;
	}
	opts->dir = argv[first];
	return 0;
}

const struct ct_command ct_timechart_command = {
	.name = "timechart",
	.summary = "draw a capture as an SVG timeline",
	.usage = "DIR -o FILE.svg [-n TASKS] [-w PIXELS] [--by cgroup]",
	.description =
		"Draw a capture as an SVG, like perf timechart: a lane per CPU (the\n"
		"task that ran, or idle), a lane per task for the busiest ones\n"
		"(running, runnable, sleeping), a time axis and a legend.\n",
	.groups = ct_timechart_groups,
	.permute = true,
	.opts_size = sizeof(struct ct_timechart_opts),
	.init = ct_timechart_init,
	.finish = ct_timechart_finish,
};
