// SPDX-License-Identifier: GPL-2.0
/*
 * record -o: the capture as an output (capture_output.h), its packets
 * written as they fill and flushed when they have waited a second.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_output.h"

#define CT_FLUSH_WAIT_NS	1000000000ull	/* packets wait at most this */

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
				    const struct ct_outdir_opts *out,
				    struct ct_names *names, uint64_t now_ns,
				    int *err, char *why)
{
	struct ct_capture *c = calloc(1, sizeof(*c));

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = ct_ctf_open(&c->ctf, dir, ncpus, env, out);
	snprintf(why, CT_OUTDIR_WHY, "%s", c->ctf.why);
	c->ctf.ksyms = names->pctx.ksyms;	/* names travel with the capture */
	c->ctf.stacks = &names->stacks;
	c->ctf.usyms = names->usyms;
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
