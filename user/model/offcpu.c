// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU time by call stack (offcpu.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/htab.h"
#include "model/offcpu.h"

#define CT_OFFCPU_PROBE		64
#define CT_FOLDED_MAX		8192	/* bytes of one folded stack */

int ct_offcpu_init(struct ct_offcpu *o, const struct ct_comm_cache *comms)
{
	memset(o, 0, sizeof(*o));
	o->comms = comms;
	o->tasks = calloc(CT_OFFCPU_TASKS, sizeof(*o->tasks));
	o->sums = calloc(CT_OFFCPU_SUMS, sizeof(*o->sums));
	if (!o->tasks || !o->sums) {
		ct_offcpu_free(o);
		return -ENOMEM;
	}
	return 0;
}

void ct_offcpu_free(struct ct_offcpu *o)
{
	free(o->tasks);
	free(o->sums);
	o->tasks = NULL;
	o->sums = NULL;
}

/* @tid's slot (made when @make), or NULL */
static struct ct_offcpu_task *ct_offcpu_task(struct ct_offcpu *o, uint32_t tid,
					     bool make)
{
	struct ct_probe probe = ct_probe(tid, CT_OFFCPU_TASKS - 1,
					 CT_OFFCPU_PROBE);
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		if (o->tasks[at].tid == tid)
			return &o->tasks[at];
		if (!o->tasks[at].tid) {
			if (!make)
				return NULL;
			o->tasks[at].tid = tid;
			return &o->tasks[at];
		}
	}
	return NULL;
}

static uint64_t ct_offcpu_key(uint32_t tid, uint32_t kstack, uint32_t ustack)
{
	return (uint64_t)tid * 0x9e3779b97f4a7c15ull ^
	       ((uint64_t)kstack << 32 | ustack);
}

/* @t's time off the CPU, ended at @ts, added to its stack's sum */
static void ct_offcpu_count(struct ct_offcpu *o, struct ct_offcpu_task *t,
			    uint64_t ts)
{
	uint64_t key = ct_offcpu_key(t->tid, t->kstack, t->ustack);
	struct ct_probe probe = ct_probe(key, CT_OFFCPU_SUMS - 1,
					 CT_OFFCPU_PROBE);
	struct ct_offcpu_sum *s;
	const char *name;
	uint64_t d = ts - (t->out_at > o->window_ns ? t->out_at : o->window_ns);
	uint32_t at;

	t->out_at = 0;
	if (!t->kstack && !t->ustack)
		o->unknown++;
	while (ct_probe_next(&probe, &at)) {
		s = &o->sums[at];
		if (s->tid && (s->tid != t->tid || s->kstack != t->kstack ||
			       s->ustack != t->ustack))
			continue;
		s->tid = t->tid;
		s->kstack = t->kstack;
		s->ustack = t->ustack;
		s->ns += d;
		s->count++;
		name = o->comms ? ct_comm_cache_get(o->comms, t->tid) : NULL;
		if (name) {
			memset(s->comm, 0, sizeof(s->comm));
			memcpy(s->comm, name, strnlen(name, sizeof(s->comm)));
		}
		o->total_ns += d;
		return;
	}
	o->dropped++;
}

void ct_offcpu_feed(struct ct_offcpu *o, const union ct_record *rec)
{
	struct ct_offcpu_task *t;
	uint64_t ts = ct_ts(rec);

	if (rec->hdr.type == CT_EV_SCHED_SWITCH) {
		const struct ct_sched_switch *sw = &rec->sched_switch;

		if (sw->prev_pid) {
			t = ct_offcpu_task(o, sw->prev_pid, true);
			if (t) {
				t->out_at = ts ? ts : 1;
				t->kstack = 0;
				t->ustack = 0;
			} else {
				o->dropped++;
			}
		}
		t = sw->next_pid ? ct_offcpu_task(o, sw->next_pid, false) : NULL;
		if (t && t->out_at && ts >= t->out_at && ts >= o->window_ns)
			ct_offcpu_count(o, t, ts);
		return;
	}
	if (rec->hdr.type != CT_EV_CALLCHAIN ||
	    rec->callchain.event != CT_EV_SCHED_SWITCH)
		return;
	/* the stack of the switch-out just counted as begun */
	t = ct_offcpu_task(o, rec->callchain.pid, false);
	if (t && t->out_at) {
		t->kstack = rec->callchain.kstack;
		t->ustack = rec->callchain.ustack;
	}
}

/* --- output: stacks folded into one string each, the same ones merged */

struct ct_offcpu_row {
	char *folded;		/* "comm;frame;...;frame" */
	const struct ct_offcpu_sum *sum;	/* the first of those merged */
	uint64_t ns, count;
};

/* @name into @b with what would break a folded line made harmless */
static void ct_fold_name(struct ct_buf *b, const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == ';')
			c = ':';
		else if (c < 0x20 || c >= 0x7f)
			c = '?';
		if (b->pos + 1 < b->len) {
			b->p[b->pos] = (char)c;
			b->p[b->pos + 1] = '\0';
		}
		b->pos++;
	}
}

/* the frames of stack @id, outermost first, each after a ';' */
static void ct_fold_stack(struct ct_buf *b, const struct ct_print_ctx *pctx,
			  uint32_t id)
{
	const struct ct_stack *s = id && pctx->stacks ?
				   ct_stacks_get(pctx->stacks, id) : NULL;
	char name[256];
	int i;

	if (!s) {
		if (id)
			ct_buf_printf(b, ";[stack not in the recording]");
		return;
	}
	for (i = (int)s->nr - 1; i >= 0; i--) {
		ct_buf_printf(b, ";");
		ct_fold_name(b, ct_frame_name(pctx, s, (unsigned int)i, name,
					      sizeof(name)));
	}
}

static char *ct_fold(const struct ct_offcpu_sum *s,
		     const struct ct_print_ctx *pctx)
{
	char line[CT_FOLDED_MAX], comm[CT_COMM_LEN + 1];
	struct ct_buf b = { line, sizeof(line), 0 };

	line[0] = '\0';
	memcpy(comm, s->comm, CT_COMM_LEN);
	comm[CT_COMM_LEN] = '\0';
	ct_fold_name(&b, comm[0] ? comm : "[unknown]");
	ct_fold_stack(&b, pctx, s->ustack);
	ct_fold_stack(&b, pctx, s->kstack);
	if (!s->kstack && !s->ustack)
		ct_buf_printf(&b, ";[no stack]");
	return strdup(line);
}

static int ct_row_by_folded(const void *pa, const void *pb)
{
	const struct ct_offcpu_row *a = pa, *b = pb;

	return strcmp(a->folded, b->folded);
}

static int ct_row_by_time(const void *pa, const void *pb)
{
	const struct ct_offcpu_row *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return strcmp(a->folded, b->folded);
}

/* ,"key":[frames] of stack @id (ct_json_stack_frames) to @f */
static void ct_json_stack(FILE *f, const char *key,
			  const struct ct_print_ctx *pctx, uint32_t id)
{
	char line[CT_FOLDED_MAX];
	struct ct_buf b = { line, sizeof(line), 0 };

	line[0] = '\0';
	ct_buf_printf(&b, ",\"%s\":", key);
	ct_json_stack_frames(&b, pctx, id);
	fputs(line, f);
}

int ct_offcpu_print(const struct ct_offcpu *o, FILE *f,
		    const struct ct_print_ctx *pctx,
		    enum ct_offcpu_format format)
{
	struct ct_offcpu_row *rows;
	size_t n = 0, i, j;
	char comm[CT_COMM_LEN * 6 + 3];
	struct ct_buf b;

	rows = calloc(CT_OFFCPU_SUMS, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < CT_OFFCPU_SUMS; i++) {
		if (!o->sums[i].tid)
			continue;
		rows[n].sum = &o->sums[i];
		rows[n].ns = o->sums[i].ns;
		rows[n].count = o->sums[i].count;
		rows[n].folded = ct_fold(&o->sums[i], pctx);
		if (!rows[n].folded)
			goto nomem;
		n++;
	}
	/* the same frames under other ids (or threads of one name) add up */
	qsort(rows, n, sizeof(*rows), ct_row_by_folded);
	for (i = 0, j = 0; i < n; i++) {
		if (j && !strcmp(rows[j - 1].folded, rows[i].folded)) {
			rows[j - 1].ns += rows[i].ns;
			rows[j - 1].count += rows[i].count;
			free(rows[i].folded);
			continue;
		}
		rows[j++] = rows[i];
	}
	n = j;
	qsort(rows, n, sizeof(*rows), ct_row_by_time);
	if (format == CT_OFFCPU_JSON)
		fprintf(f, "{\"total_us\":%llu,\"not_counted\":%llu,\"without_stack\":%llu,\"stacks\":[",
			(unsigned long long)(o->total_ns / 1000),
			(unsigned long long)o->dropped,
			(unsigned long long)o->unknown);
	for (i = 0; i < n; i++) {
		if (format == CT_OFFCPU_FOLDED) {
			/* FlameGraph and speedscope want whole numbers */
			if (rows[i].ns >= 1000)
				fprintf(f, "%s %llu\n", rows[i].folded,
					(unsigned long long)(rows[i].ns / 1000));
			continue;
		}
		b = (struct ct_buf){ comm, sizeof(comm), 0 };
		comm[0] = '\0';
		ct_buf_json_str(&b, rows[i].sum->comm, CT_COMM_LEN);
		fprintf(f, "%s{\"comm\":%s,\"tid\":%u,\"us\":%llu,\"count\":%llu",
			i ? "," : "", comm, rows[i].sum->tid,
			(unsigned long long)(rows[i].ns / 1000),
			(unsigned long long)rows[i].count);
		ct_json_stack(f, "kernel_stack", pctx, rows[i].sum->kstack);
		ct_json_stack(f, "user_stack", pctx, rows[i].sum->ustack);
		fputc('}', f);
	}
	if (format == CT_OFFCPU_JSON)
		fputs("]}\n", f);
	for (i = 0; i < n; i++)
		free(rows[i].folded);
	free(rows);
	return 0;
nomem:
	for (i = 0; i < n; i++)
		free(rows[i].folded);
	free(rows);
	return -ENOMEM;
}

void ct_offcpu_new_window(struct ct_offcpu *o, uint64_t now_ns)
{
	memset(o->sums, 0, CT_OFFCPU_SUMS * sizeof(*o->sums));
	o->total_ns = 0;
	o->unknown = 0;
	o->window_ns = now_ns;
}

static int ct_sum_by_time(const void *pa, const void *pb)
{
	const struct ct_offcpu_sum *a = *(const struct ct_offcpu_sum *const *)pa;
	const struct ct_offcpu_sum *b = *(const struct ct_offcpu_sum *const *)pb;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

void ct_offcpu_top(const struct ct_offcpu *o, FILE *f,
		   const struct ct_print_ctx *pctx, unsigned int rows,
		   uint64_t window_ns)
{
	const struct ct_offcpu_sum **list;
	char task[CT_COMM_LEN + 16], where[256], escaped[4 * sizeof(task)];
	size_t n = 0, i;

	list = calloc(CT_OFFCPU_SUMS, sizeof(*list));
	if (!list || !window_ns)
		goto out;
	for (i = 0; i < CT_OFFCPU_SUMS; i++)
		if (o->sums[i].tid)
			list[n++] = &o->sums[i];
	qsort(list, n, sizeof(*list), ct_sum_by_time);
	fprintf(f, "\n%8s  %-22s %s\n", "ms/s", "Off the CPU (-g)",
		"where it left the CPU");
	for (i = 0; i < n && i < rows; i++) {
		snprintf(task, sizeof(task), "%.*s:%u", CT_COMM_LEN,
			 list[i]->comm[0] ? list[i]->comm : "?", list[i]->tid);
		ct_text_escape(escaped, sizeof(escaped), task, strlen(task));
		ct_stack_where(pctx, list[i]->kstack, list[i]->ustack, where,
			       sizeof(where));
		fprintf(f, "%8.1f  %-22s %s\n",
			(double)list[i]->ns / 1e6 / ((double)window_ns / 1e9),
			escaped, where[0] ? where : "(no stack)");
	}
out:
	free(list);
}
