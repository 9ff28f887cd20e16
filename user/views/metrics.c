// SPDX-License-Identifier: GPL-2.0
/* coretrace serve's exposition (see metrics.h) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/events.h"
#include "views/metrics.h"

void ct_obuf_init(struct ct_obuf *b, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->max = max;
}

void ct_obuf_free(struct ct_obuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static bool ct_obuf_reserve(struct ct_obuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->failed)
		return false;
	if (n > b->max || b->len > b->max - n) {
		b->failed = true;
		return false;
	}
	if (b->len + n <= b->cap)
		return true;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void ct_obuf_put(struct ct_obuf *b, const char *s, size_t n)
{
	if (!ct_obuf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void ct_obuf_printf(struct ct_obuf *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		b->failed = true;	/* our formats are short: a bug */
		return;
	}
	ct_obuf_put(b, line, (size_t)n);
}

const char *ct_om_content_type(enum ct_om_format fmt)
{
	return fmt == CT_OM_OPENMETRICS ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}

/* Does the media range at @p (up to ',' or the end) have q=0? */
static bool ct_om_refused(const char *p)
{
	const char *end = strchr(p, ',');
	size_t n = end ? (size_t)(end - p) : strlen(p);
	const char *q;

	for (q = p; (q = memchr(q, ';', n - (size_t)(q - p))); q++) {
		const char *v = q + 1;

		while (*v == ' ' || *v == '\t')
			v++;
		if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=' &&
		    strtod(v + 2, NULL) <= 0.0)
			return true;
	}
	return false;
}

enum ct_om_format ct_om_negotiate(const char *accept)
{
	static const char om[] = "application/openmetrics-text";
	const char *p = accept;

	while (p && (p = strstr(p, om))) {
		if (!ct_om_refused(p))
			return CT_OM_OPENMETRICS;
		p += sizeof(om) - 1;
	}
	return CT_OM_PROMETHEUS;
}

/* Bytes of the valid UTF-8 sequence at @s (of @n), 0 if it is not one */
static size_t ct_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void ct_om_label_value(struct ct_obuf *b, const char *value)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t n = strlen(value), i = 0, len;

	while (i < n) {
		if (s[i] == '\\' || s[i] == '"') {
			ct_obuf_put(b, "\\", 1);
			ct_obuf_put(b, (const char *)&s[i++], 1);
		} else if (s[i] == '\n') {
			ct_obuf_put(b, "\\n", 2);
			i++;
		} else if ((len = ct_utf8_len(s + i, n - i))) {
			ct_obuf_put(b, (const char *)&s[i], len);
			i += len;
		} else {
			/* the text \xNN: its backslash escaped */
			ct_obuf_printf(b, "\\\\x%02x", s[i++]);
		}
	}
}

struct ct_om_label {
	const char *name;
	const char *value;
};

struct ct_om {
	struct ct_obuf *out;
	enum ct_om_format fmt;
};

enum ct_om_type { CT_OM_COUNTER, CT_OM_GAUGE, CT_OM_HISTOGRAM };

/*
 * A family's header. @name is the family's name as OpenMetrics has it
 * (a counter's without _total); @unit ends it, or is NULL.
 */
static void ct_om_family(struct ct_om *m, const char *name, enum ct_om_type type,
			 const char *unit, const char *help)
{
	static const char *const types[] = { "counter", "gauge", "histogram" };
	const char *suffix = "";

	if (type == CT_OM_COUNTER && m->fmt == CT_OM_PROMETHEUS)
		suffix = "_total";
	ct_obuf_printf(m->out, "# HELP %s%s %s\n", name, suffix, help);
	ct_obuf_printf(m->out, "# TYPE %s%s %s\n", name, suffix, types[type]);
	if (unit && m->fmt == CT_OM_OPENMETRICS)
		ct_obuf_printf(m->out, "# UNIT %s %s\n", name, unit);
}

static void ct_om_labels(struct ct_om *m, const struct ct_om_label *labels,
			 size_t n, const char *le)
{
	size_t i;

	if (!n && !le)
		return;
	ct_obuf_put(m->out, "{", 1);
	for (i = 0; i < n; i++) {
		ct_obuf_printf(m->out, "%s%s=\"", i ? "," : "", labels[i].name);
		ct_om_label_value(m->out, labels[i].value);
		ct_obuf_put(m->out, "\"", 1);
	}
	if (le)
		ct_obuf_printf(m->out, "%sle=\"%s\"", n ? "," : "", le);
	ct_obuf_put(m->out, "}", 1);
}

/* NAME{LABELS} VALUE: a count */
static void ct_om_count(struct ct_om *m, const char *name, const char *suffix,
			const struct ct_om_label *labels, size_t n, uint64_t value)
{
	ct_obuf_printf(m->out, "%s%s", name, suffix);
	ct_om_labels(m, labels, n, NULL);
	ct_obuf_printf(m->out, " %llu\n", (unsigned long long)value);
}

/* NAME{LABELS} SECONDS, exactly, from nanoseconds */
static void ct_om_seconds(struct ct_om *m, const char *name, const char *suffix,
			  const struct ct_om_label *labels, size_t n, uint64_t ns)
{
	ct_obuf_printf(m->out, "%s%s", name, suffix);
	ct_om_labels(m, labels, n, NULL);
	ct_obuf_printf(m->out, " %llu.%09llu\n", (unsigned long long)(ns / 1000000000),
		       (unsigned long long)(ns % 1000000000));
}

void ct_delay_bucket_le(unsigned int b, char *buf, size_t size)
{
	unsigned long long us = 1ull << b;

	snprintf(buf, size, "%llu.%06llu", us / 1000000, us % 1000000);
}

/* A histogram's samples from the delay buckets of @g */
static void ct_om_delay(struct ct_om *m, const char *name,
			const struct ct_om_label *labels, size_t n,
			const struct ct_agg_cgroup *g)
{
	unsigned long long cumulative = 0;
	char le[32], sample[128];
	unsigned int b;

	snprintf(sample, sizeof(sample), "%s_bucket", name);
	for (b = 0; b < CT_DELAY_BUCKETS; b++) {
		cumulative += g->delay[b];
		if (b == CT_DELAY_BUCKETS - 1)
			snprintf(le, sizeof(le), "+Inf");
		else
			ct_delay_bucket_le(b, le, sizeof(le));
		ct_obuf_printf(m->out, "%s", sample);
		ct_om_labels(m, labels, n, le);
		ct_obuf_printf(m->out, " %llu\n", cumulative);
	}
	ct_om_seconds(m, name, "_sum", labels, n, g->delay_sum_ns);
	ct_om_count(m, name, "_count", labels, n, cumulative);
}

static void ct_sum_groups(const struct ct_metrics *mx, struct ct_agg_cgroup *all)
{
	size_t i;
	unsigned int b;

	memset(all, 0, sizeof(*all));
	for (i = 0; i < mx->ngroups; i++) {
		const struct ct_agg_cgroup *g = &mx->groups[i].sums;

		all->oncpu_ns += g->oncpu_ns;
		all->switches += g->switches;
		all->wakeups += g->wakeups;
		all->migrations += g->migrations;
		all->delay_sum_ns += g->delay_sum_ns;
		for (b = 0; b < CT_DELAY_BUCKETS; b++)
			all->delay[b] += g->delay[b];
	}
}

static void ct_render_delay(struct ct_om *m, const struct ct_metrics *mx)
{
	static const char all_name[] = "coretrace_sched_delay_seconds";
	static const char cg_name[] = "coretrace_cgroup_sched_delay_seconds";
	struct ct_agg_cgroup all;
	struct ct_om_label label;
	size_t i;

	ct_sum_groups(mx, &all);
	ct_om_family(m, all_name, CT_OM_HISTOGRAM, "seconds",
		     "Time tasks waited to run after a wakeup or a preemption (log2 microsecond buckets).");
	ct_om_delay(m, all_name, NULL, 0, &all);
	ct_om_family(m, cg_name, CT_OM_HISTOGRAM, "seconds",
		     "Time tasks waited to run, by the cgroup v2 group of the task.");
	for (i = 0; i < mx->ngroups; i++) {
		label = (struct ct_om_label){ "cgroup", mx->groups[i].label };
		ct_om_delay(m, cg_name, &label, 1, &mx->groups[i].sums);
	}
}

/* One counter family with a sample per group, from the field at @offset */
static void ct_render_group_counter(struct ct_om *m, const struct ct_metrics *mx,
				    const char *name, size_t offset, bool seconds,
				    const char *help)
{
	struct ct_om_label label;
	uint64_t value;
	size_t i;

	ct_om_family(m, name, CT_OM_COUNTER, seconds ? "seconds" : NULL, help);
	for (i = 0; i < mx->ngroups; i++) {
		label = (struct ct_om_label){ "cgroup", mx->groups[i].label };
		memcpy(&value, (const char *)&mx->groups[i].sums + offset,
		       sizeof(value));
		if (seconds)
			ct_om_seconds(m, name, "_total", &label, 1, value);
		else
			ct_om_count(m, name, "_total", &label, 1, value);
	}
}

static void ct_render_groups(struct ct_om *m, const struct ct_metrics *mx)
{
	ct_render_group_counter(m, mx, "coretrace_cgroup_cpu_seconds",
				offsetof(struct ct_agg_cgroup, oncpu_ns), true,
				"Time the group's tasks ran on a CPU (counted when switched out).");
	ct_render_group_counter(m, mx, "coretrace_cgroup_context_switches",
				offsetof(struct ct_agg_cgroup, switches), false,
				"Times the group's tasks were switched out.");
	ct_render_group_counter(m, mx, "coretrace_cgroup_wakeups",
				offsetof(struct ct_agg_cgroup, wakeups), false,
				"Times the group's tasks were woken.");
	ct_render_group_counter(m, mx, "coretrace_cgroup_migrations",
				offsetof(struct ct_agg_cgroup, migrations), false,
				"Times the group's tasks were moved to another CPU.");
	ct_om_family(m, "coretrace_cgroups_folded", CT_OM_GAUGE, NULL,
		     "Groups past the cap (--max-cgroups), added up in the group \"(folded)\".");
	ct_om_count(m, "coretrace_cgroups_folded", "", NULL, 0, mx->groups_folded);
	ct_om_family(m, "coretrace_cgroups_max", CT_OM_GAUGE, NULL,
		     "The cap on groups with series of their own.");
	ct_om_count(m, "coretrace_cgroups_max", "", NULL, 0, mx->groups_max);
}

static void ct_render_idle(struct ct_om *m, const struct ct_metrics *mx)
{
	static const char time_name[] = "coretrace_cpu_idle_seconds";
	static const char entries_name[] = "coretrace_cpu_idle_entries";
	struct ct_om_label labels[2];
	char cpu[16], state[16];
	unsigned int c, s, pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			ct_om_family(m, time_name, CT_OM_COUNTER, "seconds",
				     "Time each CPU spent in each idle state (power:cpu_idle).");
		else
			ct_om_family(m, entries_name, CT_OM_COUNTER, NULL,
				     "Times each CPU left each idle state.");
		for (c = 0; c < mx->ncpus; c++) {
			const struct ct_agg_cpu *row = &mx->cpus[c];

			for (s = 0; s < CT_IDLE_STATES; s++) {
				if (!row->idle_entries[s])
					continue;
				snprintf(cpu, sizeof(cpu), "%u", c);
				snprintf(state, sizeof(state), "%u", s);
				labels[0] = (struct ct_om_label){ "cpu", cpu };
				labels[1] = (struct ct_om_label){ "state", state };
				if (pass == 0)
					ct_om_seconds(m, time_name, "_total", labels, 2,
						      row->idle_ns[s]);
				else
					ct_om_count(m, entries_name, "_total", labels, 2,
						    row->idle_entries[s]);
			}
		}
	}
}

static void ct_render_irqs(struct ct_om *m, const struct ct_metrics *mx)
{
	static const char time_name[] = "coretrace_irq_seconds";
	static const char count_name[] = "coretrace_irqs";
	struct ct_om_label labels[2];
	char irq[16];
	unsigned int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			ct_om_family(m, time_name, CT_OM_COUNTER, "seconds",
				     "Time spent in each interrupt's handlers.");
		else
			ct_om_family(m, count_name, CT_OM_COUNTER, NULL,
				     "Times each interrupt's handlers ran.");
		for (i = 0; i < mx->nirqs; i++) {
			snprintf(irq, sizeof(irq), "%u", mx->irqs[i].irq);
			labels[0] = (struct ct_om_label){ "irq", irq };
			labels[1] = (struct ct_om_label){ "name", mx->irqs[i].name };
			if (pass == 0)
				ct_om_seconds(m, time_name, "_total", labels, 2,
					      mx->irqs[i].ns);
			else
				ct_om_count(m, count_name, "_total", labels, 2,
					    mx->irqs[i].count);
		}
	}
}

static void ct_render_softirqs(struct ct_om *m, const struct ct_metrics *mx)
{
	static const char time_name[] = "coretrace_softirq_seconds";
	static const char count_name[] = "coretrace_softirqs";
	uint64_t ns[CT_SOFTIRQS] = { 0 }, count[CT_SOFTIRQS] = { 0 };
	struct ct_om_label label;
	char vec[16];
	unsigned int c, v, pass;

	for (c = 0; c < mx->ncpus; c++) {
		for (v = 0; v < CT_SOFTIRQS; v++) {
			ns[v] += mx->cpus[c].softirq_ns[v];
			count[v] += mx->cpus[c].softirq_count[v];
		}
	}
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			ct_om_family(m, time_name, CT_OM_COUNTER, "seconds",
				     "Time spent in each softirq vector, all CPUs.");
		else
			ct_om_family(m, count_name, CT_OM_COUNTER, NULL,
				     "Times each softirq vector ran, all CPUs.");
		for (v = 0; v < CT_SOFTIRQS; v++) {
			if (!count[v])
				continue;
			/* its kernel name, or its number for a vector 6.1 lacks */
			if (strcmp(ct_softirq_name(v), "?"))
				snprintf(vec, sizeof(vec), "%s", ct_softirq_name(v));
			else
				snprintf(vec, sizeof(vec), "%u", v);
			label = (struct ct_om_label){ "vector", vec };
			if (pass == 0)
				ct_om_seconds(m, time_name, "_total", &label, 1, ns[v]);
			else
				ct_om_count(m, count_name, "_total", &label, 1, count[v]);
		}
	}
}

/* coretrace's own: the events its handlers saw, and those not added up */
static void ct_render_self(struct ct_om *m, const struct ct_metrics *mx)
{
	static const char seen[] = "coretrace_events";
	static const char lost[] = "coretrace_events_lost";
	struct ct_om_label label;
	unsigned int i, pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			ct_om_family(m, seen, CT_OM_COUNTER, NULL,
				     "Tracepoint hits coretrace's handlers saw.");
		else
			ct_om_family(m, lost, CT_OM_COUNTER, NULL,
				     "Hits that could not be added up (a table full, a state out of range).");
		for (i = 0; i < CT_EV_MAX; i++) {
			if (!(mx->events_mask & (1ull << i)))
				continue;
			label = (struct ct_om_label){ "event", ct_events[i].name };
			ct_om_count(m, pass ? lost : seen, "_total", &label, 1,
				    pass ? mx->lost[i] : mx->events[i]);
		}
	}
	ct_om_family(m, "coretrace_build_info", CT_OM_GAUGE, NULL,
		     "coretrace's version and record ABI, as labels; always 1.");
	{
		char abi[16];
		struct ct_om_label labels[2] = {
			{ "version", mx->version }, { "abi", abi },
		};

		snprintf(abi, sizeof(abi), "%d", CT_ABI_VERSION);
		ct_om_count(m, "coretrace_build_info", "", labels, 2, 1);
	}
}

void ct_metrics_render(const struct ct_metrics *mx, enum ct_om_format fmt,
		       struct ct_obuf *out)
{
	struct ct_om m = { out, fmt };

	ct_render_delay(&m, mx);
	ct_render_groups(&m, mx);
	ct_render_idle(&m, mx);
	ct_render_irqs(&m, mx);
	ct_render_softirqs(&m, mx);
	ct_render_self(&m, mx);
	if (fmt == CT_OM_OPENMETRICS)
		ct_obuf_put(out, "# EOF\n", 6);
}
