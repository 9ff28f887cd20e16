// SPDX-License-Identifier: GPL-2.0
/*
 * The names every command shares, and record's outputs: lines of text or
 * JSON, a capture, the live overview (output.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "live_top.h"
#include "output.h"

#define CT_LINE_MAX	1024
#define CT_FLUSH_WAIT_NS	1000000000ull	/* packets wait at most this */

int ct_names_init(struct ct_names *n, size_t capacity)
{
	memset(n, 0, sizeof(*n));
	if (ct_comm_cache_init(&n->comms, (uint32_t)capacity))
		return -ENOMEM;
	if (ct_cgroup_names_init(&n->cgroups, (uint32_t)capacity,
				 CT_CGROUP_GROUPS)) {
		ct_comm_cache_free(&n->comms);
		return -ENOMEM;
	}
	n->pctx.comms = &n->comms;
	n->pctx.irqs = &n->irqs;
	n->pctx.syms = &n->syms;
	n->pctx.cgroups = &n->cgroups;
	return 0;
}

int ct_names_load_ksyms(struct ct_names *n, FILE *f)
{
	int err = ct_ksyms_load(&n->ksyms, f);

	n->pctx.ksyms = n->ksyms.count ? &n->ksyms : NULL;
	return err;
}

int ct_output_feed_naming(struct ct_output *out, const union ct_record *rec)
{
	int err;

	if (out->ops->names_first)
		ct_names_learn(out->names, rec);
	err = out->ops->feed(out, rec);
	if (!out->ops->names_first)
		ct_names_learn(out->names, rec);
	return err;
}

void ct_names_free(struct ct_names *n)
{
	ct_comm_cache_free(&n->comms);
	ct_cgroup_names_free(&n->cgroups);
	ct_ksyms_free(&n->ksyms);
}

/*
 * After writing to @f: an error stops the session and is said once (and
 * -EIO at close); a closed pipe (EPIPE) stops it quietly. 0 go on, 1 stop.
 */
static int ct_check_file(struct ct_output *out, FILE *f, int *failed,
			 const char *who)
{
	if (*failed)
		return 1;
	if (fflush(f) == 0)
		return 0;
	if (errno == EPIPE) {
		*failed = 1;
		out->quiet = true;
		return 1;
	}
	*failed = -EIO;
	fprintf(stderr, "%s: writing the output failed: %s\n", who,
		strerror(errno));
	return 1;
}

/* --- lines of text or JSON */

struct ct_lines {
	struct ct_output out;
	FILE *f;
	enum ct_format format;
	int failed;		/* 1: the pipe closed, -EIO: a write failed */
	const char *who;
	char line[CT_LINE_MAX];
};

static int ct_lines_feed(struct ct_output *out, const union ct_record *rec)
{
	struct ct_lines *l = (struct ct_lines *)out;
	int n;

	if (l->failed)
		return 0;
	n = ct_format(l->format, rec, &out->names->pctx, l->line,
		      sizeof(l->line));
	if (n <= 0)
		return 0;
	if ((size_t)n >= sizeof(l->line))
		n = sizeof(l->line) - 1;
	if (l->format == CT_FORMAT_TEXT) {
		ct_put_text_line(l->f, l->line, (size_t)n);
	} else {
		l->line[n] = '\n';
		fwrite(l->line, 1, (size_t)n + 1, l->f);
	}
	return 0;
}

static int ct_lines_tick(struct ct_output *out, uint64_t now_ns)
{
	struct ct_lines *l = (struct ct_lines *)out;

	(void)now_ns;
	return ct_check_file(out, l->f, &l->failed, l->who);
}

static int ct_lines_close(struct ct_output *out)
{
	struct ct_lines *l = (struct ct_lines *)out;

	ct_check_file(out, l->f, &l->failed, l->who);
	return l->failed < 0 ? l->failed : 0;
}

static const struct ct_output_ops ct_lines_ops = {
	.feed = ct_lines_feed,
	.tick = ct_lines_tick,
	.close = ct_lines_close,
};

struct ct_output *ct_lines_output(FILE *f, enum ct_format format,
				  struct ct_names *names, const char *who)
{
	struct ct_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->out.ops = &ct_lines_ops;
	l->out.names = names;
	l->f = f;
	l->format = format;
	l->who = who;
	return &l->out;
}

/* --- a capture */

struct ct_capture {
	struct ct_output out;
	struct ct_ctf ctf;
	const char *dir;
	uint64_t now_ns;		/* monotonic, once per batch */
};

static int ct_capture_feed(struct ct_output *out, const union ct_record *rec)
{
	struct ct_capture *c = (struct ct_capture *)out;

	ct_ctf_add(&c->ctf, rec, c->now_ns);
	return 0;
}

static int ct_capture_tick(struct ct_output *out, uint64_t now_ns)
{
	struct ct_capture *c = (struct ct_capture *)out;

	c->now_ns = now_ns;
	if (ct_ctf_flush_old(&c->ctf, now_ns, CT_FLUSH_WAIT_NS))
		return c->ctf.error ? c->ctf.error : -EIO;
	return 0;
}

static void ct_capture_losses(struct ct_output *out, unsigned int cpu,
			      uint64_t lost)
{
	struct ct_capture *c = (struct ct_capture *)out;

	ct_ctf_set_discarded(&c->ctf, (int)cpu, lost);
}

static int ct_capture_close(struct ct_output *out)
{
	struct ct_capture *c = (struct ct_capture *)out;
	unsigned long long events, bytes, switches;
	int err = ct_ctf_close(&c->ctf);

	events = c->ctf.events;
	bytes = c->ctf.bytes;
	switches = c->ctf.type_events[CT_EV_SCHED_SWITCH];
	if (err)
		fprintf(stderr, "coretrace: writing %s failed: %s; recording stopped, the %llu bytes written stay readable\n",
			c->dir, strerror(-err), bytes);
	else
		fprintf(stderr, "coretrace: wrote %llu events to %s: %llu bytes, %.1f bytes per event, %.1f per sched_switch\n",
			events, c->dir, bytes,
			events ? (double)bytes / (double)events : 0.0,
			switches ? (double)c->ctf.type_bytes[CT_EV_SCHED_SWITCH] /
				   (double)switches : 0.0);
	return err;
}

static const struct ct_output_ops ct_capture_ops = {
	.feed = ct_capture_feed,
	.tick = ct_capture_tick,
	.losses = ct_capture_losses,
	.close = ct_capture_close,
};

struct ct_output *ct_capture_output(const char *dir, int ncpus,
				    const struct ct_ctf_env *env,
				    struct ct_names *names, uint64_t now_ns,
				    int *err)
{
	struct ct_capture *c = calloc(1, sizeof(*c));

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = ct_ctf_open(&c->ctf, dir, ncpus, env);
	c->ctf.ksyms = names->pctx.ksyms;	/* names travel with the capture */
	if (!*err)
		*err = ct_ctf_start_writer(&c->ctf);
	if (*err) {
		ct_ctf_close(&c->ctf);
		free(c);
		return NULL;
	}
	c->out.ops = &ct_capture_ops;
	/* a capture carries the names records as they come: none to learn */
	c->out.names = NULL;
	c->dir = dir;
	c->now_ns = now_ns;
	return &c->out;
}

/* --- the live overview */

struct ct_top {
	struct ct_output out;
	struct ct_live_top *top;
	FILE *f;
	int failed;
};

static int ct_top_feed(struct ct_output *out, const union ct_record *rec)
{
	ct_live_top_feed(((struct ct_top *)out)->top, rec);
	return 0;
}

static int ct_top_tick(struct ct_output *out, uint64_t now_ns)
{
	struct ct_top *t = (struct ct_top *)out;

	if (ct_check_file(out, t->f, &t->failed, "coretrace"))
		return 1;
	return ct_live_top_tick(t->top, now_ns) ? 1 : 0;
}

static int ct_top_close(struct ct_output *out)
{
	struct ct_top *t = (struct ct_top *)out;

	ct_live_top_close(t->top);
	ct_check_file(out, t->f, &t->failed, "coretrace");
	return t->failed < 0 ? t->failed : 0;
}

static const struct ct_output_ops ct_top_ops = {
	.feed = ct_top_feed,
	.tick = ct_top_tick,
	.close = ct_top_close,
};

struct ct_output *ct_top_output(FILE *f, int in_fd,
				const struct ct_live_view *view, int ncpus,
				struct ct_names *names, uint64_t now_ns)
{
	struct ct_top *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->top = ct_live_top_open(f, in_fd, view, ncpus,
				  &names->pctx, now_ns);
	if (!t->top) {
		free(t);
		return NULL;
	}
	t->out.ops = &ct_top_ops;
	t->out.names = names;
	t->f = f;
	return &t->out;
}

/* --- a command's own consumer, and an analysis */

struct ct_callback_out {
	struct ct_output out;
	void (*feed)(const union ct_record *rec, void *ctx);
	void *ctx;
};

static int ct_callback_feed(struct ct_output *out, const union ct_record *rec)
{
	struct ct_callback_out *c = (struct ct_callback_out *)out;

	c->feed(rec, c->ctx);
	return 0;
}

static const struct ct_output_ops ct_callback_ops = {
	.feed = ct_callback_feed,
};

struct ct_output *ct_callback_output(void (*feed)(const union ct_record *rec,
						  void *ctx),
				     void *ctx, struct ct_names *names)
{
	struct ct_callback_out *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->out.ops = &ct_callback_ops;
	c->out.names = names;
	c->feed = feed;
	c->ctx = ctx;
	return &c->out;
}

static void ct_analysis_record(const union ct_record *rec, void *an)
{
	ct_analysis_feed(an, rec);
}

struct ct_output *ct_analysis_output(struct ct_analysis *an,
				     struct ct_names *names)
{
	return ct_callback_output(ct_analysis_record, an, names);
}
