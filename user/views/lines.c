// SPDX-License-Identifier: GPL-2.0
/*
 * Outputs to a terminal or a pipe (lines.h): lines of text or JSON, and
 * the live overview.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "views/lines.h"
#include "views/live_top.h"

/* a record's line, or a call stack's lines (up to 80 frames) */
#define CT_LINE_MAX	16384

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
	if (l->format == CT_FORMAT_TEXT && rec->hdr.type != CT_EV_CALLCHAIN) {
		ct_put_text_line(l->f, l->line, (size_t)n);
	} else {
		/* JSON, and a stack's lines: escaped by their printers */
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
