// SPDX-License-Identifier: GPL-2.0
/*
 * The names every command shares, and the outputs every reader can feed:
 * a command's own callback, an analysis (output.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/analysis.h"
#include "model/output.h"

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
	ct_stacks_init(&n->stacks);
	n->pctx.stacks = &n->stacks;
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
	ct_stacks_free(&n->stacks);
	ct_usyms_free(n->usyms);
	n->usyms = NULL;
	n->pctx.usyms = NULL;
}

int ct_names_name_user_frames(struct ct_names *n, bool live)
{
	if (!n->usyms)
		n->usyms = ct_usyms_new(live);
	n->pctx.usyms = n->usyms;
	return n->usyms ? 0 : -ENOMEM;
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
