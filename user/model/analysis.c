// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler, idle, frequency and interrupt accounting, one record at a
 * time. Every interval is credited when it ends (the next record of its
 * CPU) or when a window is settled; nothing is kept per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/htab.h"
#include "model/analysis.h"

/* sched_switch prev_state: runnable when no sleeping state bit is set */
#define CT_STATE_SLEEP_MASK	0xff

int ct_analysis_init(struct ct_analysis *a, int ncpus, uint32_t tasks)
{
	uint32_t cap = 64;

	memset(a, 0, sizeof(*a));
	while (cap < 2 * tasks && cap < (1u << 24))
		cap <<= 1;
	a->tasks = calloc(cap, sizeof(*a->tasks));
	a->cpus = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*a->cpus));
	a->groups = calloc(CT_AN_GROUPS, sizeof(*a->groups));
	if (!a->tasks || !a->cpus || !a->groups) {
		ct_analysis_free(a);
		return -ENOMEM;
	}
	a->task_mask = cap - 1;
	a->ncpus = ncpus > 0 ? ncpus : 1;
	return 0;
}

void ct_analysis_free(struct ct_analysis *a)
{
	free(a->tasks);
	for (int cpu = 0; a->cpus && cpu < a->ncpus; cpu++)
		free(a->cpus[cpu].freqs);
	free(a->cpus);
	free(a->groups);
	a->tasks = NULL;
	a->cpus = NULL;
	a->groups = NULL;
}

/* @tid's slot, made on first sight; NULL for the idle task or when full */
static struct ct_an_task *ct_task(struct ct_analysis *a, uint32_t tid)
{
	/* at most a quarter of the table is probed: it stays bounded */
	struct ct_probe probe = ct_probe(tid, a->task_mask, a->task_mask / 4 + 1);
	struct ct_an_task *t;
	uint32_t at;

	if (!tid)
		return NULL;
	while (ct_probe_next(&probe, &at)) {
		t = &a->tasks[at];
		if (t->used && t->tid == tid)
			return t;
		if (!t->used) {
			t->used = true;
			t->tid = tid;
			return t;
		}
	}
	a->tasks_dropped++;
	return NULL;
}

const struct ct_an_task *ct_analysis_task(const struct ct_analysis *a,
					  uint32_t tid)
{
	struct ct_probe probe = ct_probe(tid, a->task_mask, a->task_mask / 4 + 1);
	const struct ct_an_task *t;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		t = &a->tasks[at];
		if (!t->used)
			return NULL;
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* group @id's slot, made on first sight; NULL when the table is full */
static struct ct_an_group *ct_group(struct ct_analysis *a, uint64_t id)
{
	struct ct_probe probe = ct_probe(id, CT_AN_GROUPS - 1, CT_AN_GROUPS);
	struct ct_an_group *g;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		g = &a->groups[at];
		if (g->used && g->id == id)
			return g;
		if (!g->used) {
			g->used = true;
			g->id = id;
			return g;
		}
	}
	return NULL;
}

const struct ct_an_group *ct_analysis_group(const struct ct_analysis *a,
					    uint64_t id)
{
	struct ct_probe probe = ct_probe(id, CT_AN_GROUPS - 1, CT_AN_GROUPS);
	const struct ct_an_group *g;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		g = &a->groups[at];
		if (!g->used)
			return NULL;
		if (g->id == id)
			return g;
	}
	return NULL;
}

/* @key's slot in a table of @size sources (a power of two); NULL when full */
static struct ct_an_source *ct_source(struct ct_an_source *table, uint32_t size,
				      uint64_t key)
{
	struct ct_probe probe = ct_probe(key, size - 1, size);
	struct ct_an_source *s;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		s = &table[at];
		if (s->used && s->key == key)
			return s;
		if (!s->used) {
			s->used = true;
			s->key = key;
			return s;
		}
	}
	return NULL;
}

/*
 * Nanoseconds from @since to @ts that fall in the window: records that
 * were in the ring before a live window opened count from its start.
 */
static uint64_t ct_span(const struct ct_analysis *a, uint64_t since, uint64_t ts)
{
	if (since < a->window_start)
		since = a->window_start;
	return ts > since ? ts - since : 0;
}

static void ct_credit_run(struct ct_analysis *a, struct ct_an_cpu *c,
			  uint64_t ts)
{
	struct ct_an_task *t;
	uint64_t ns;

	if (!c->has_current || ts < c->current_since)
		return;
	ns = ct_span(a, c->current_since, ts);
	t = ct_task(a, c->current);
	if (t) {
		t->runtime_ns += ns;
		t->total_runtime_ns += ns;
	}
	if (t && t->grp) {
		t->grp->runtime_ns += ns;
		t->grp->total_runtime_ns += ns;
	}
	c->current_since = ts;
}

static void ct_delay(struct ct_an_task *t, uint64_t delay, uint64_t ts)
{
	struct ct_an_group *g = t->grp;

	t->run_delay_ns = delay;
	t->delay_sum_ns += delay;
	t->delays++;
	if (delay >= t->delay_max_ns) {
		t->delay_max_ns = delay;
		t->delay_max_at = ts;
		t->max_stacks = t->wait_stacks;
	}
	if (!g)
		return;
	g->delay_sum_ns += delay;
	g->delays++;
	if (delay >= g->delay_max_ns) {
		g->delay_max_ns = delay;
		g->delay_max_at = ts;
		g->delay_max_tid = t->tid;
	}
}

static void ct_switch_in(struct ct_an_task *next, uint64_t ts)
{
	next->running = true;
	next->switches++;
	next->total_switches++;
	if (next->grp) {
		next->grp->switches++;
		next->grp->total_switches++;
	}
	next->run_wait_ns = next->out_at ? ts - next->out_at : 0;
	next->run_delay_ns = 0;
	if (next->woken && ts >= next->woken_at)
		ct_delay(next, ts - next->woken_at, ts);
	next->woken = false;
	next->in_at = ts;
}

static void ct_on_switch(struct ct_analysis *a, struct ct_an_cpu *c,
			 const struct ct_sched_switch *sw)
{
	struct ct_an_task *prev, *next;

	/*
	 * The first switch on a CPU: the task it switches out has been
	 * running since the window began (perf sched and Trace Compass
	 * credit it the same way), or a task that never switches would have
	 * no time at all.
	 */
	if (!c->has_current && sw->prev_pid) {
		c->current = sw->prev_pid;
		c->has_current = true;
		c->current_since = a->window_start;
	}
	ct_credit_run(a, c, ct_ts(sw));
	prev = ct_task(a, sw->prev_pid);
	if (prev) {
		if (prev->running && a->run_end)
			a->run_end(a->run_end_ctx, prev, sw->cpu, ct_ts(sw));
		prev->running = false;
		prev->out_at = ct_ts(sw);
		/* preempted or yielding: waiting for a CPU from now on */
		if (!(sw->prev_state & CT_STATE_SLEEP_MASK)) {
			prev->woken = true;
			prev->woken_at = ct_ts(sw);
		}
	}
	next = ct_task(a, sw->next_pid);
	if (next)
		ct_switch_in(next, ct_ts(sw));
	c->current = sw->next_pid;
	c->has_current = true;
	c->current_since = ct_ts(sw);
}

static void ct_on_wakeup(struct ct_analysis *a, const struct ct_wakeup *w)
{
	struct ct_an_task *t = ct_task(a, w->pid);

	if (!t)
		return;
	t->wakeups++;
	t->total_wakeups++;
	if (t->grp) {
		t->grp->wakeups++;
		t->grp->total_wakeups++;
	}
	if (!t->running && !t->woken) {
		t->woken = true;
		t->woken_at = ct_ts(w);
	}
}

/*
 * record -g: the stack a task left the CPU with begins its wait's
 * stacks; a waker's stack is its waker's
 */
static void ct_on_callchain(struct ct_analysis *a, const struct ct_callchain *c)
{
	struct ct_an_task *t;

	if (c->event == CT_EV_SCHED_SWITCH) {
		t = c->pid ? ct_task(a, c->pid) : NULL;
		if (t)
			t->wait_stacks = (struct ct_an_stacks){
				.kstack = c->kstack, .ustack = c->ustack };
	} else if (c->event == CT_EV_SCHED_WAKING) {
		t = c->target ? ct_task(a, c->target) : NULL;
		if (t) {
			t->wait_stacks.woken = true;
			t->wait_stacks.waker = c->pid;
			t->wait_stacks.waker_kstack = c->kstack;
			t->wait_stacks.waker_ustack = c->ustack;
		}
	}
}

void ct_analysis_group_add(struct ct_an_group *g, const struct ct_an_task *t)
{
	g->runtime_ns += t->runtime_ns;
	g->switches += t->switches;
	g->wakeups += t->wakeups;
	g->total_runtime_ns += t->total_runtime_ns;
	g->total_switches += t->total_switches;
	g->total_wakeups += t->total_wakeups;
	g->delay_sum_ns += t->delay_sum_ns;
	g->delays += t->delays;
	if (t->delays && t->delay_max_ns >= g->delay_max_ns) {
		g->delay_max_ns = t->delay_max_ns;
		g->delay_max_at = t->delay_max_at;
		g->delay_max_tid = t->tid;
	}
}

/*
 * A task's group, announced or changed: a running task's time so far
 * goes to the group it leaves, the rest to the new one.
 */
static void ct_on_task_cgroup(struct ct_analysis *a,
			      const struct ct_task_cgroup *tc)
{
	struct ct_an_task *t = ct_task(a, tc->pid);
	struct ct_an_group *g;
	int cpu;

	/* no group has id 0 (the root's is 1): a damaged record */
	if (!t || !tc->cgroup_id || (t->grp && t->group == tc->cgroup_id))
		return;
	/* rare records: the CPUs are searched rather than kept per task */
	for (cpu = 0; cpu < a->ncpus; cpu++)
		if (a->cpus[cpu].has_current && a->cpus[cpu].current == t->tid)
			ct_credit_run(a, &a->cpus[cpu], ct_ts(tc));
	g = ct_group(a, tc->cgroup_id);
	if (!g) {
		a->groups_dropped++;
		return;
	}
	/* what it did before its group was first announced goes there */
	if (!t->grp)
		ct_analysis_group_add(g, t);
	g->tasks++;
	t->group = tc->cgroup_id;
	t->grp = g;
}

static void ct_credit_idle(const struct ct_analysis *a, struct ct_an_cpu *c,
			   uint64_t ts)
{
	if (!c->idle_since || ts < c->idle_since)
		return;
	if (c->idle == CT_IDLE_EXIT)
		c->busy_ns += ct_span(a, c->idle_since, ts);
	else if (c->idle < CT_AN_CSTATES)
		c->cstate_ns[c->idle] += ct_span(a, c->idle_since, ts);
	c->idle_since = ts;
}

/* @khz's row of @c, made on first sight; NULL without memory */
static struct ct_an_freq *ct_freq_row(struct ct_an_cpu *c, uint32_t khz)
{
	struct ct_an_freq *grown;
	uint32_t i, cap;

	for (i = 0; i < c->nfreqs; i++)
		if (c->freqs[i].khz == khz)
			return &c->freqs[i];
	/* the last row, once made, holds every frequency past the others */
	if (c->nfreqs == CT_AN_FREQS)
		return &c->freqs[CT_AN_FREQS - 1];
	if (c->nfreqs == c->freqs_cap) {
		cap = c->freqs_cap ? 2 * c->freqs_cap : 16;
		grown = realloc(c->freqs, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		c->freqs = grown;
		c->freqs_cap = cap;
	}
	c->freqs[c->nfreqs].khz = c->nfreqs == CT_AN_FREQS - 1 ?
				  CT_AN_FREQ_OTHER : khz;
	c->freqs[c->nfreqs].ns = 0;
	return &c->freqs[c->nfreqs++];
}

static void ct_credit_freq(const struct ct_analysis *a, struct ct_an_cpu *c,
			   uint64_t ts)
{
	struct ct_an_freq *row;

	if (!c->khz || ts < c->khz_since)
		return;
	row = ct_freq_row(c, c->khz);
	if (row)
		row->ns += ct_span(a, c->khz_since, ts);
	c->khz_since = ts;
}

static void ct_credit_irqs(struct ct_analysis *a, struct ct_an_cpu *c,
			   uint64_t ts)
{
	struct ct_an_source *s;

	if (c->in_irq && ts >= c->irq_since) {
		s = ct_source(a->irqs, CT_AN_IRQS, c->irq);
		if (s)
			s->busy_ns += ct_span(a, c->irq_since, ts);
		c->irq_since = ts;
	}
	if (c->in_softirq && ts >= c->softirq_since) {
		a->softirqs[c->softirq].busy_ns += ct_span(a, c->softirq_since, ts);
		c->softirq_since = ts;
	}
}

static struct ct_an_cpu *ct_cpu(struct ct_analysis *a, uint32_t cpu)
{
	if (cpu >= (uint32_t)a->ncpus)
		return NULL;
	a->cpus[cpu].seen = true;
	return &a->cpus[cpu];
}

static void ct_on_cpu_state(struct ct_analysis *a, const union ct_record *rec)
{
	/* cpu_idle and cpu_frequency: the same fields */
	const struct ct_cpu_idle *cs = &rec->cpu_idle;
	struct ct_an_cpu *c = ct_cpu(a, cs->cpu_id);
	uint64_t ts = ct_ts(rec);

	if (!c)
		return;
	if (rec->hdr.type == CT_EV_CPU_IDLE) {
		ct_credit_idle(a, c, ts);
		c->idle = cs->state;
		c->idle_since = ts;
	} else {
		ct_credit_freq(a, c, ts);
		c->khz = cs->state;
		c->khz_since = ts;
	}
}

static void ct_on_irq(struct ct_analysis *a, struct ct_an_cpu *c,
		      const union ct_record *rec)
{
	struct ct_an_source *s;

	switch (rec->hdr.type) {
	case CT_EV_IRQ_HANDLER_ENTRY:
		s = ct_source(a->irqs, CT_AN_IRQS, rec->irq_entry.irq);
		if (s)
			s->events++;
		c->in_irq = true;
		c->irq = rec->irq_entry.irq;
		c->irq_since = ct_ts(rec);
		break;
	case CT_EV_IRQ_HANDLER_EXIT:
		ct_credit_irqs(a, c, ct_ts(rec));
		c->in_irq = false;
		break;
	case CT_EV_SOFTIRQ_ENTRY:
		if (rec->softirq.vec >= CT_AN_SOFTIRQS)
			break;
		a->softirqs[rec->softirq.vec].events++;
		c->in_softirq = true;
		c->softirq = rec->softirq.vec;
		c->softirq_since = ct_ts(rec);
		break;
	case CT_EV_SOFTIRQ_EXIT:
		ct_credit_irqs(a, c, ct_ts(rec));
		c->in_softirq = false;
		break;
	}
}

static enum ct_an_func_kind ct_func_kind(unsigned int type)
{
	switch (type) {
	case CT_EV_TIMER_EXPIRE_ENTRY:
	case CT_EV_TIMER_EXPIRE_EXIT:
		return CT_AN_TIMER;
	case CT_EV_HRTIMER_EXPIRE_ENTRY:
	case CT_EV_HRTIMER_EXPIRE_EXIT:
		return CT_AN_HRTIMER;
	default:
		return CT_AN_WORK;
	}
}

/* the slot of the function running for @object, or a free one (NULL: full) */
static struct ct_an_running *ct_running(struct ct_analysis *a,
					enum ct_an_func_kind kind,
					uint64_t object, bool take)
{
	struct ct_probe probe = ct_probe(object, CT_AN_RUNNING - 1, CT_AN_RUNNING);
	struct ct_an_running *r;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		r = &a->running[at];
		if (r->used && r->object == object && r->kind == kind)
			return r;
		if (!r->used && take)
			return r;
	}
	return NULL;
}

/* @r ran from its start (or the last settle) to @ts: credit its function */
static void ct_credit_function(struct ct_analysis *a, struct ct_an_running *r,
			       uint64_t ts)
{
	struct ct_an_source *s;

	if (ts < r->since)
		return;
	s = ct_source(a->funcs[r->kind], CT_AN_FUNCS, r->function);
	if (s)
		s->busy_ns += ct_span(a, r->since, ts);
	r->since = ts;
}

/*
 * Timers, hrtimers and work items: an entry counts the function and
 * starts its clock, keyed by the timer or work item it runs for; the exit
 * for the same object stops it. Work items run in tasks that sleep and
 * migrate, so the key is the object, not the CPU.
 */
static void ct_on_function(struct ct_analysis *a, const union ct_record *rec)
{
	enum ct_an_func_kind kind = ct_func_kind(rec->hdr.type);
	struct ct_an_running *r;
	struct ct_an_source *s;

	if (ct_type_names_function(rec->hdr.type)) {
		s = ct_source(a->funcs[kind], CT_AN_FUNCS, ct_rec_function(rec));
		if (s)
			s->events++;
		r = ct_running(a, kind, rec->timer_entry.timer, true);
		if (!r) {
			a->functions_untimed++;
			return;
		}
		r->used = true;
		r->kind = kind;
		r->object = rec->timer_entry.timer;
		r->function = ct_rec_function(rec);
		r->since = ct_ts(rec);
		return;
	}
	r = ct_running(a, kind, rec->timer_exit.timer, false);
	if (!r)
		return;		/* its entry was before the trace, or lost */
	ct_credit_function(a, r, ct_ts(rec));
	r->used = false;
}

void ct_analysis_feed(struct ct_analysis *a, const union ct_record *rec)
{
	struct ct_an_cpu *c = ct_cpu(a, rec->hdr.cpu);

	a->records++;
	/* what names a group is no event: the window does not start there */
	if (rec->hdr.type == CT_EV_TASK_CGROUP) {
		ct_on_task_cgroup(a, &rec->task_cgroup);
		return;
	}
	if (rec->hdr.type == CT_EV_CGROUP_NAME)
		return;
	if (!a->window_start)
		a->window_start = ct_ts(rec);
	if (ct_ts(rec) > a->last_ts)
		a->last_ts = ct_ts(rec);
	if (!c)
		return;
	switch (rec->hdr.type) {
	case CT_EV_SCHED_SWITCH:
		ct_on_switch(a, c, &rec->sched_switch);
		if (ct_ts(rec) > a->last_switch)
			a->last_switch = ct_ts(rec);
		break;
	case CT_EV_SCHED_WAKEUP:
	case CT_EV_SCHED_WAKEUP_NEW:
		ct_on_wakeup(a, &rec->wakeup);
		break;
	case CT_EV_CALLCHAIN:
		ct_on_callchain(a, &rec->callchain);
		break;
	case CT_EV_CPU_IDLE:
	case CT_EV_CPU_FREQUENCY:
		ct_on_cpu_state(a, rec);
		break;
	case CT_EV_IRQ_HANDLER_ENTRY:
	case CT_EV_IRQ_HANDLER_EXIT:
	case CT_EV_SOFTIRQ_ENTRY:
	case CT_EV_SOFTIRQ_EXIT:
		ct_on_irq(a, c, rec);
		break;
	case CT_EV_TIMER_EXPIRE_ENTRY:
	case CT_EV_TIMER_EXPIRE_EXIT:
	case CT_EV_HRTIMER_EXPIRE_ENTRY:
	case CT_EV_HRTIMER_EXPIRE_EXIT:
	case CT_EV_WORKQUEUE_EXECUTE_START:
	case CT_EV_WORKQUEUE_EXECUTE_END:
		ct_on_function(a, rec);
		break;
	default:
		break;
	}
}

void ct_analysis_settle(struct ct_analysis *a, uint64_t now)
{
	uint32_t i;
	int cpu;

	for (cpu = 0; cpu < a->ncpus; cpu++) {
		struct ct_an_cpu *c = &a->cpus[cpu];

		ct_credit_run(a, c, now);
		ct_credit_idle(a, c, now);
		ct_credit_freq(a, c, now);
		ct_credit_irqs(a, c, now);
	}
	for (i = 0; i < CT_AN_RUNNING; i++)
		if (a->running[i].used)
			ct_credit_function(a, &a->running[i], now);
	if (now > a->last_ts)
		a->last_ts = now;
}

static void ct_zero_sources(struct ct_an_source *table, uint32_t size)
{
	uint32_t i;

	for (i = 0; i < size; i++) {
		table[i].events = 0;
		table[i].busy_ns = 0;
	}
}

void ct_analysis_new_window(struct ct_analysis *a, uint64_t now)
{
	uint32_t i;
	int cpu, kind;

	ct_analysis_settle(a, now);
	for (i = 0; i <= a->task_mask; i++) {
		a->tasks[i].runtime_ns = 0;
		a->tasks[i].switches = 0;
		a->tasks[i].wakeups = 0;
	}
	for (i = 0; i < CT_AN_GROUPS; i++) {
		a->groups[i].runtime_ns = 0;
		a->groups[i].switches = 0;
		a->groups[i].wakeups = 0;
	}
	for (cpu = 0; cpu < a->ncpus; cpu++) {
		struct ct_an_cpu *c = &a->cpus[cpu];

		memset(c->cstate_ns, 0, sizeof(c->cstate_ns));
		c->busy_ns = 0;
		for (i = 0; i < c->nfreqs; i++)
			c->freqs[i].ns = 0;
	}
	ct_zero_sources(a->irqs, CT_AN_IRQS);
	ct_zero_sources(a->softirqs, CT_AN_SOFTIRQS);
	for (kind = 0; kind < CT_AN_FUNC_KINDS; kind++)
		ct_zero_sources(a->funcs[kind], CT_AN_FUNCS);
	a->window_start = now;
	a->records = 0;
}
