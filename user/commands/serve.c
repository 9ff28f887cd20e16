// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace serve: its own programs (serve_*) add up in maps
 * and a scrape reads the maps and writes the exposition (metrics.c) over
 * HTTP (http.c). Nothing crosses to user space per event.
 *
 * Groups: the map holds a group by its id. A scrape names each by its
 * path (the hierarchy is walked again when an id is new); a group that
 * no longer exists has its sums moved out of the map into a table of
 * retired sums by path, so that the map's room goes to live groups and
 * the counters of a path never go down (a group made again under the
 * same path adds to them). Groups past --max-cgroups add up in BPF in
 * "(folded)", and so do retired paths past it here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "model/cgroup.h"
#include "base/clock.h"
#include "base/privs.h"
#include "base/signals.h"
#include "commands/common.h"
#include "coretrace.skel.h"
#include "model/events.h"
#include "views/http.h"
#include "views/metrics.h"
#include "loader/loader.h"
#include "commands/serve.h"
#include "base/version.h"

#define CT_UNKNOWN_LABEL	"(unknown)"
#define CT_FOLDED_LABEL		"(folded)"

struct ct_retired {
	char label[CT_CGROUP_PATH_LEN];
	struct ct_agg_cgroup sums;
};

struct ct_irq_label {
	uint32_t irq;
	char name[64];
};

struct ct_serve {
	const struct ct_serve_opts *opts;
	struct coretrace_bpf *skel;
	int ncpus;
	uint64_t events_mask;
	char cgroup_mnt[4096];
	struct ct_cgroup_names names;	/* ids to paths, as last walked */
	struct ct_cgroup_names last_names;	/* the walk before */
	uint32_t names_cap;
	struct ct_retired *retired;	/* max_cgroups, then "(folded)" */
	size_t nretired;
	struct ct_agg_cgroup retired_folded;
	struct ct_irq_label *irq_labels;
	size_t nirq_labels;
	/* a scrape's */
	struct ct_metrics_group *groups;
	__u64 *ids;			/* the groups BPF gave entries */
	struct ct_metrics_irq *irqs;
	struct ct_agg_cpu *cpus;
	unsigned long long scrapes;
};

static volatile sig_atomic_t ct_serve_stop;

static void ct_serve_on_signal(int sig)
{
	(void)sig;
	ct_serve_stop = 1;
}

static void ct_agg_add(struct ct_agg_cgroup *to, const struct ct_agg_cgroup *from)
{
	unsigned int b;

	to->oncpu_ns += from->oncpu_ns;
	to->switches += from->switches;
	to->wakeups += from->wakeups;
	to->migrations += from->migrations;
	to->delay_sum_ns += from->delay_sum_ns;
	for (b = 0; b < CT_DELAY_BUCKETS; b++)
		to->delay[b] += from->delay[b];
}

struct ct_walk {
	struct ct_cgroup_names *names;
	size_t count;
};

static int ct_learn_group(uint64_t id, uint32_t level, const char *path, void *arg)
{
	struct ct_walk *w = arg;

	w->count++;
	ct_cgroup_set_group(w->names, id, level, path[0] ? path : "/");
	return 0;
}

/*
 * Walk the hierarchy again: the groups there now, by id, in a table at
 * most half full (so that none is pushed out); the last walk's table is
 * kept, for the paths of the groups gone since.
 */
static int ct_serve_walk(struct ct_serve *sv)
{
	struct ct_cgroup_names fresh;
	struct ct_walk w;

	for (;;) {
		if (ct_cgroup_names_init(&fresh, 1, sv->names_cap))
			return -ENOMEM;
		w = (struct ct_walk){ &fresh, 0 };
		if (sv->cgroup_mnt[0])
			ct_cgroup_groups(sv->cgroup_mnt, 64, ct_learn_group, &w);
		if (w.count * 2 <= sv->names_cap || sv->names_cap >= (1u << 20))
			break;
		ct_cgroup_names_free(&fresh);
		sv->names_cap *= 2;
	}
	ct_cgroup_names_free(&sv->last_names);
	sv->last_names = sv->names;
	sv->names = fresh;
	return 0;
}

/* A gone group's sums, kept under its last path */
static void ct_retire(struct ct_serve *sv, const char *label,
		      const struct ct_agg_cgroup *sums)
{
	size_t i;

	for (i = 0; label && i < sv->nretired; i++) {
		if (!strcmp(sv->retired[i].label, label)) {
			ct_agg_add(&sv->retired[i].sums, sums);
			return;
		}
	}
	if (!label || sv->nretired >= sv->opts->max_cgroups) {
		ct_agg_add(&sv->retired_folded, sums);
		return;
	}
	snprintf(sv->retired[sv->nretired].label, CT_CGROUP_PATH_LEN, "%s", label);
	sv->retired[sv->nretired++].sums = *sums;
}

static int ct_cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct ct_metrics_group *)a)->label,
		      ((const struct ct_metrics_group *)b)->label);
}

/* Groups sorted by label, one entry per label */
static size_t ct_merge_groups(struct ct_metrics_group *g, size_t n)
{
	size_t i, out = 0;

	qsort(g, n, sizeof(*g), ct_cmp_group);
	for (i = 0; i < n; i++) {
		if (out && !strcmp(g[out - 1].label, g[i].label))
			ct_agg_add(&g[out - 1].sums, &g[i].sums);
		else
			g[out++] = g[i];
	}
	return out;
}

/* Entry @index of ct_agg_groups: cleared, and free for another group */
static void ct_free_entry(struct ct_serve *sv, __u32 index)
{
	static const struct ct_agg_cgroup zero;

	bpf_map_update_elem(bpf_map__fd(sv->skel->maps.ct_agg_groups), &index,
			    &zero, BPF_ANY);
	bpf_map_update_elem(bpf_map__fd(sv->skel->maps.ct_agg_free), NULL,
			    &index, BPF_ANY);
}

/*
 * The groups' sums: the unknown and folded entries, each group BPF gave
 * an entry, then the retired ones. A group gone from the hierarchy gives
 * its entry back (its sums retire first; what BPF adds between the read
 * and the clearing is lost, a task of a removed group being rare).
 */
static size_t ct_collect_groups(struct ct_serve *sv)
{
	int ids = bpf_map__fd(sv->skel->maps.ct_agg_group_ids);
	int groups = bpf_map__fd(sv->skel->maps.ct_agg_groups);
	__u64 key, *prev = NULL;
	struct ct_agg_cgroup sums;
	__u32 index, fixed;
	size_t n = 0, i, nids = 0;
	const char *path;
	bool walked;

	for (fixed = CT_AGG_IDX_UNKNOWN; fixed < CT_AGG_IDX_FIRST; fixed++) {
		if (bpf_map_lookup_elem(groups, &fixed, &sums))
			continue;
		sv->groups[n].label = fixed == CT_AGG_IDX_UNKNOWN ?
				      CT_UNKNOWN_LABEL : CT_FOLDED_LABEL;
		sv->groups[n++].sums = sums;
	}
	/*
	 * The ids first: deleting the key an iteration stands on would
	 * start it again from the first (and count groups twice)
	 */
	while (nids < sv->opts->max_cgroups &&
	       !bpf_map_get_next_key(ids, prev, &sv->ids[nids])) {
		prev = &sv->ids[nids];
		nids++;
	}
	/* a failed walk keeps the last one's names: nothing retires */
	walked = !ct_serve_walk(sv);
	for (i = 0; i < nids; i++) {
		key = sv->ids[i];
		if (bpf_map_lookup_elem(ids, &key, &index) ||
		    bpf_map_lookup_elem(groups, &index, &sums) || sums.id != key)
			continue;	/* being given or given back meanwhile */
		path = ct_cgroup_path(&sv->names, key);
		if (path || !walked) {
			sv->groups[n].label = path ? path : CT_UNKNOWN_LABEL;
			sv->groups[n++].sums = sums;
			continue;
		}
		/* gone: its sums retire, its entry is free again */
		if (bpf_map_delete_elem(ids, &key))
			continue;
		bpf_map_lookup_elem(groups, &index, &sums);
		ct_retire(sv, ct_cgroup_path(&sv->last_names, key), &sums);
		ct_free_entry(sv, index);
	}
	for (i = 0; i < sv->nretired; i++) {
		sv->groups[n].label = sv->retired[i].label;
		sv->groups[n++].sums = sv->retired[i].sums;
	}
	sv->groups[n].label = CT_FOLDED_LABEL;
	sv->groups[n++].sums = sv->retired_folded;
	return ct_merge_groups(sv->groups, n);
}

/* An interrupt's handler names, from /sys/kernel/irq/N/actions */
static const char *ct_irq_name(struct ct_serve *sv, uint32_t irq)
{
	struct ct_irq_label *l;
	char path[64];
	size_t i, n;
	FILE *f;

	for (i = 0; i < sv->nirq_labels; i++)
		if (sv->irq_labels[i].irq == irq)
			return sv->irq_labels[i].name;
	if (sv->nirq_labels >= CT_AGG_IRQS)
		return "";
	l = &sv->irq_labels[sv->nirq_labels++];
	l->irq = irq;
	l->name[0] = '\0';
	snprintf(path, sizeof(path), "/sys/kernel/irq/%u/actions", irq);
	f = fopen(path, "r");
	if (f) {
		if (fgets(l->name, sizeof(l->name), f)) {
			n = strcspn(l->name, "\n");
			l->name[n] = '\0';
		}
		fclose(f);
	}
	return l->name;
}

static size_t ct_collect_irqs(struct ct_serve *sv)
{
	int fd = bpf_map__fd(sv->skel->maps.ct_agg_irqs);
	__u32 key, next, *prev = NULL;
	struct ct_agg_irq sum;
	size_t n = 0;

	while (n < CT_AGG_IRQS && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &sum))
			continue;
		sv->irqs[n++] = (struct ct_metrics_irq){
			key, ct_irq_name(sv, key), sum.ns, sum.count,
		};
	}
	return n;
}

static void ct_collect_counts(struct ct_serve *sv, struct ct_metrics *m)
{
	int fd = bpf_map__fd(sv->skel->maps.ct_stats);
	struct ct_counts counts;
	__u32 cpu, type, slot;

	for (cpu = 0; cpu < (__u32)sv->ncpus; cpu++) {
		for (type = 0; type < CT_EV_MAX; type++) {
			if (!(sv->events_mask & (1ull << type)))
				continue;
			slot = cpu * CT_STATS_STRIDE + type;
			if (bpf_map_lookup_elem(fd, &slot, &counts))
				continue;
			m->events[type] += counts.attempted;
			m->lost[type] += counts.lost;
		}
	}
}

static uint64_t ct_count_folded(struct ct_serve *sv)
{
	int fd = bpf_map__fd(sv->skel->maps.ct_agg_folded);
	__u64 key, next, *prev = NULL;
	uint64_t n = 0;

	while (n < CT_AGG_FOLDED_KEPT && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

/* One scrape: the maps read into @m */
static void ct_collect(struct ct_serve *sv, struct ct_metrics *m)
{
	int fd = bpf_map__fd(sv->skel->maps.ct_agg_cpus);
	__u32 cpu;

	memset(m, 0, sizeof(*m));
	m->version = CT_VERSION;
	m->groups = sv->groups;
	m->ngroups = ct_collect_groups(sv);
	for (cpu = 0; cpu < (__u32)sv->ncpus; cpu++)
		if (bpf_map_lookup_elem(fd, &cpu, &sv->cpus[cpu]))
			memset(&sv->cpus[cpu], 0, sizeof(sv->cpus[cpu]));
	m->cpus = sv->cpus;
	m->ncpus = (unsigned int)sv->ncpus;
	m->irqs = sv->irqs;
	m->nirqs = ct_collect_irqs(sv);
	m->events_mask = sv->events_mask;
	ct_collect_counts(sv, m);
	m->groups_folded = ct_count_folded(sv);
	m->groups_max = sv->opts->max_cgroups;
}

static int ct_serve_request(const struct ct_http_request *req,
			    struct ct_obuf *body, const char **type, void *arg)
{
	struct ct_serve *sv = arg;
	enum ct_om_format fmt;
	struct ct_metrics m;

	if (sv->opts->session.verbose)
		fprintf(stderr, "coretrace: %s %s (Accept: %s)\n",
			req->head ? "HEAD" : "GET", req->path,
			req->accept[0] ? req->accept : "-");
	if (!strcmp(req->path, "/") && strcmp(sv->opts->path, "/")) {
		ct_obuf_printf(body, "coretrace %s: the metrics are at %s\n",
			       CT_VERSION, sv->opts->path);
		return 200;
	}
	if (strcmp(req->path, sv->opts->path))
		return 404;
	fmt = ct_om_negotiate(req->accept);
	ct_collect(sv, &m);
	ct_metrics_render(&m, fmt, body);
	*type = ct_om_content_type(fmt);
	sv->scrapes++;
	return 200;
}

static int ct_serve_alloc(struct ct_serve *sv)
{
	size_t groups = (size_t)sv->opts->max_cgroups * 2 + 4;

	sv->ncpus = libbpf_num_possible_cpus();
	if (sv->ncpus <= 0)
		return -EINVAL;
	sv->groups = calloc(groups, sizeof(*sv->groups));
	sv->retired = calloc(sv->opts->max_cgroups, sizeof(*sv->retired));
	sv->ids = calloc(sv->opts->max_cgroups, sizeof(*sv->ids));
	sv->irqs = calloc(CT_AGG_IRQS, sizeof(*sv->irqs));
	sv->irq_labels = calloc(CT_AGG_IRQS, sizeof(*sv->irq_labels));
	sv->cpus = calloc((size_t)sv->ncpus, sizeof(*sv->cpus));
	if (!sv->groups || !sv->retired || !sv->ids || !sv->irqs || !sv->irq_labels ||
	    !sv->cpus || ct_cgroup_names_init(&sv->names, 1, 16) ||
	    ct_cgroup_names_init(&sv->last_names, 1, 16))
		return -ENOMEM;
	sv->names_cap = 4096;
	if (ct_cgroup_find_mount(sv->cgroup_mnt, sizeof(sv->cgroup_mnt)))
		sv->cgroup_mnt[0] = '\0';
	return 0;
}

static void ct_serve_free(struct ct_serve *sv)
{
	ct_cgroup_names_free(&sv->names);
	ct_cgroup_names_free(&sv->last_names);
	free(sv->groups);
	free(sv->retired);
	free(sv->ids);
	free(sv->irqs);
	free(sv->irq_labels);
	free(sv->cpus);
}

/* The unknown and folded entries marked; every other one free */
static int ct_serve_seed(struct ct_serve *sv)
{
	int groups = bpf_map__fd(sv->skel->maps.ct_agg_groups);
	int free_fd = bpf_map__fd(sv->skel->maps.ct_agg_free);
	struct ct_agg_cgroup entry = { .id = CT_AGG_CG_FOLDED };
	__u32 index = CT_AGG_IDX_FOLDED;

	if (bpf_map_update_elem(groups, &index, &entry, BPF_ANY))
		return -errno;
	for (index = CT_AGG_IDX_FIRST;
	     index < sv->opts->max_cgroups + CT_AGG_IDX_FIRST; index++)
		if (bpf_map_update_elem(free_fd, NULL, &index, BPF_ANY))
			return -errno;
	return 0;
}

static int ct_serve_loop(struct ct_serve *sv, struct ct_http_server *http)
{
	double end = sv->opts->session.duration > 0 ? ct_mono_s() + sv->opts->session.duration : 0;
	int err = 0, wait_ms;

	while (!ct_serve_stop && !err) {
		wait_ms = 1000;
		if (end) {
			double left = end - ct_mono_s();

			if (left <= 0)
				break;
			if (left * 1000 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		err = ct_http_step(http, wait_ms);
		if (err == -EINTR)
			err = 0;
	}
	if (err)
		fprintf(stderr, "coretrace: waiting for connections failed: %s\n",
			strerror(-err));
	return err;
}

static void ct_serve_summary(struct ct_serve *sv, const struct ct_http_server *http)
{
	struct ct_metrics m;
	unsigned long long seen = 0, lost = 0;
	unsigned int i;

	memset(&m, 0, sizeof(m));
	ct_collect_counts(sv, &m);
	for (i = 0; i < CT_EV_MAX; i++) {
		seen += m.events[i];
		lost += m.lost[i];
	}
	fprintf(stderr, "coretrace: %llu events added up, %llu not; %llu scrapes, %llu requests refused, %llu timed out, %llu given up for newer connections\n",
		seen, lost, sv->scrapes, http->rejected, http->timeouts,
		http->evicted);
}

int ct_serve(const struct ct_serve_opts *opts)
{
	struct ct_record_opts rec;
	struct ct_http_server http;
	struct sockaddr_storage addr;
	char why[CT_PRIVS_WHY];
	struct ct_privs privs;
	struct ct_serve sv;
	socklen_t len;
	int err;

	memset(&sv, 0, sizeof(sv));
	sv.opts = opts;
	if (ct_http_parse_listen(opts->listen, &addr, &len, stderr, "serve"))
		return CT_EXIT_USAGE;
	if (ct_privs_prepare(&privs, opts->session.user, why, sizeof(why))) {
		fprintf(stderr, "coretrace: %s\n", why);
		return CT_EXIT_FAILURE;
	}
	if (ct_serve_alloc(&sv)) {
		fprintf(stderr, "coretrace: out of memory\n");
		ct_serve_free(&sv);
		return CT_EXIT_FAILURE;
	}
	/* the port first: a taken one is said before anything is loaded */
	err = ct_http_open(&http, &addr, len, ct_serve_request, &sv);
	if (err) {
		fprintf(stderr, "coretrace: cannot listen on %s: %s\n", opts->listen,
			strerror(-err));
		ct_serve_free(&sv);
		return CT_EXIT_FAILURE;
	}
	memset(&rec, 0, sizeof(rec));
	rec.session.layout = opts->session.layout;
	rec.session.verbose = opts->session.verbose > 1 ? opts->session.verbose - 1 : 0;
	rec.events = CT_SERVE_EVENTS;
	rec.buffer_size = CT_MIN_BUFFER_SIZE;
	rec.no_cgroup_names = true;
	rec.aggregate = true;
	rec.agg_cgroups = opts->max_cgroups;
	sv.events_mask = CT_SERVE_EVENTS;
	ct_signals_install(ct_serve_on_signal, false);
	err = ct_loader_open(&rec, &sv.skel);
	if (!err) {
		err = ct_serve_seed(&sv);
		if (err)
			fprintf(stderr, "coretrace: could not set up the group table: %s\n",
				strerror(-err));
	}
	if (!err)
		err = ct_loader_attach(sv.skel);
	/* the socket and the maps are open: nothing after needs root */
	if (!err && ct_privs_drop(&privs, CT_PRIVS_SERVER,
				   ct_loader_map_fd(sv.skel),
				   why, sizeof(why)) < 0) {
		fprintf(stderr, "coretrace: %s\n", why);
		err = -EPERM;
	}
	if (!err) {
		fprintf(stderr, "coretrace: serving metrics on %s (port %d), path %s\n",
			opts->listen, ct_http_port(&http), opts->path);
		err = ct_serve_loop(&sv, &http);
		ct_loader_detach(sv.skel);
		ct_serve_summary(&sv, &http);
	}
	if (sv.skel)
		ct_loader_close(sv.skel);
	ct_http_close(&http);
	ct_serve_free(&sv);
	return err ? CT_EXIT_FAILURE : CT_EXIT_OK;
}

/* --- its options */

enum {
	CT_OPT_LISTEN = CT_OPT_COMMON_END,
	CT_OPT_METRICS_PATH,
	CT_OPT_MAX_CGROUPS,
};

static int ct_set_serve(int id, const char *arg, void *p, FILE *err,
			const char *cmd)
{
	struct ct_serve_opts *opts = p;

	switch (id) {
	case CT_OPT_LISTEN:
		opts->listen = arg;
		return 0;
	case CT_OPT_METRICS_PATH:
		opts->path = arg;
		if (arg[0] == '/' && strlen(arg) < 200 && !strpbrk(arg, " ?#"))
			return 0;
		fprintf(err, "coretrace %s: --web.telemetry-path wants a path such as /metrics, not '%s'\n",
			cmd, arg);
		return -1;
	case CT_OPT_MAX_CGROUPS:
		if (!ct_parse_count(arg, &opts->max_cgroups) &&
		    opts->max_cgroups >= 1 && opts->max_cgroups <= 65536)
			return 0;
		fprintf(err, "coretrace %s: --max-cgroups wants a number from 1 to 65536, not '%s'\n",
			cmd, arg);
		return -1;
	default:
		return ct_set_session(id, arg, &opts->session, err, cmd);
	}
}

static const struct ct_opt ct_serve_opts_table[] = {
	{ CT_OPT_LISTEN, "web.listen-address", "ADDR:PORT",
	  "where to serve (default " CT_SERVE_LISTEN ": this\n"
	  "machine only; :9476 for every address, behind a\n"
	  "firewall or an authenticating proxy)", ct_set_serve },
	{ CT_OPT_METRICS_PATH, "web.telemetry-path", "PATH",
	  "the metrics' path (default " CT_SERVE_PATH ")", ct_set_serve },
	{ CT_OPT_MAX_CGROUPS, "max-cgroups", "N",
	  "groups with series of their own (default 256); the\n"
	  "others add up in cgroup=\"(folded)\"", ct_set_serve },
	{ 'd', "duration", "SECONDS", "stop after SECONDS", ct_set_serve },
	{ 'v', "verbose", NULL, "each request on stderr; -vv: libbpf's log too",
	  ct_set_serve },
	CT_USER_OPT(ct_set_serve),
	CT_LAYOUT_OPTS(ct_set_serve),
	{ 0 },
};

static const struct ct_opt_group ct_serve_groups[] = {
	{ NULL, ct_serve_opts_table, NULL },
	{ NULL, NULL, NULL },
};

static void ct_serve_init(void *p)
{
	struct ct_serve_opts *opts = p;

	opts->listen = CT_SERVE_LISTEN;
	opts->path = CT_SERVE_PATH;
	opts->max_cgroups = CT_SERVE_MAX_CGROUPS;
}

const struct ct_command ct_serve_command = {
	.name = "serve",
	.summary = "in-kernel summaries served to Prometheus (OpenMetrics)",
	.usage = "[--web.listen-address ADDR:PORT] [options]",
	.description =
		"Run the same tracepoint programs, adding up in BPF maps instead of\n"
		"writing records, and serve the sums over HTTP for Prometheus to\n"
		"scrape: scheduling delay histograms (log2 microseconds), overall and\n"
		"per cgroup; CPU time, switches, wakeups and migrations per cgroup;\n"
		"time per CPU in each idle state; time in each interrupt and softirq;\n"
		"coretrace's own counters. The text format is OpenMetrics when the\n"
		"scraper asks for it (Accept), Prometheus' 0.0.4 otherwise.\n",
	.groups = ct_serve_groups,
	.opts_size = sizeof(struct ct_serve_opts),
	.init = ct_serve_init,
};
