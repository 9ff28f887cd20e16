/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coretrace serve's exposition: what the BPF maps added up, written in
 * the Prometheus text format (0.0.4) or in OpenMetrics 1.0, as the
 * scraper asks. No libbpf and no sockets here: unit-tested.
 *
 * The rules kept (both formats): a family's HELP and TYPE before its
 * samples, each family once, base units (seconds) in the names, counters
 * ending in _total, histograms as cumulative _bucket samples with an le
 * label up to "+Inf", then _sum and _count; label values escaped (\\, \"
 * and \n) and valid UTF-8 (other bytes are written as the text \xNN).
 * OpenMetrics also names a counter's family without _total, gives the
 * unit (# UNIT) and ends with # EOF.
 */
#ifndef CORETRACE_METRICS_H
#define CORETRACE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ct_abi.h"
#include "ct_control.h"
#include "ct_serve.h"

/* A growing output buffer; failed once it could not grow (or past max) */
struct ct_obuf {
	char *p;
	size_t len, cap, max;
	bool failed;
};

void ct_obuf_init(struct ct_obuf *b, size_t max);
void ct_obuf_free(struct ct_obuf *b);
void ct_obuf_put(struct ct_obuf *b, const char *s, size_t n);
void ct_obuf_printf(struct ct_obuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

enum ct_om_format {
	CT_OM_PROMETHEUS,	/* text/plain; version=0.0.4 */
	CT_OM_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

/* The Content-Type of @fmt's exposition */
const char *ct_om_content_type(enum ct_om_format fmt);

/*
 * Which format a request's Accept header (NULL: none) asks for:
 * OpenMetrics when it lists application/openmetrics-text without q=0.
 */
enum ct_om_format ct_om_negotiate(const char *accept);

/* A label value as the formats want it (escaped, valid UTF-8) */
void ct_om_label_value(struct ct_obuf *b, const char *value);

/* A group as exposed: its path (or "(unknown)", "(folded)") and sums */
struct ct_metrics_group {
	const char *label;
	struct ct_agg_cgroup sums;
};

struct ct_metrics_irq {
	uint32_t irq;
	const char *name;	/* its handler's, "" when unknown */
	uint64_t ns, count;
};

/* Everything one scrape shows */
struct ct_metrics {
	const char *version;
	const struct ct_metrics_group *groups;
	size_t ngroups;
	const struct ct_agg_cpu *cpus;	/* a row per CPU */
	unsigned int ncpus;
	const struct ct_metrics_irq *irqs;
	size_t nirqs;
	uint64_t events_mask;		/* 1 << type of each attached event */
	uint64_t events[CT_EV_MAX];	/* seen by the handlers */
	uint64_t lost[CT_EV_MAX];	/* seen but not added up */
	uint64_t groups_folded;		/* groups past the cap, at least */
	uint32_t groups_max;		/* the cap */
};

/* The whole exposition of @m into @out */
void ct_metrics_render(const struct ct_metrics *m, enum ct_om_format fmt,
		       struct ct_obuf *out);

/* le of delay bucket @b (< CT_DELAY_BUCKETS - 1): 2^b us, in seconds */
void ct_delay_bucket_le(unsigned int b, char *buf, size_t size);

#endif /* CORETRACE_METRICS_H */
