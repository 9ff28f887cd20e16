// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include "capture/replay.h"

/* What the reader found, what part the capture is, what it lost */
static void ct_replay_say(const struct ct_replay *rp,
			  const struct ct_ctf_reader *r, int err)
{
	if (err) {
		ct_ctf_reader_print_error(r, rp->who);
		if (!r->records)
			return;	/* nothing was read: the one sentence says why */
	} else if (rp->count && r->cut) {
		fprintf(stderr, "%s: %llu records recovered from %s: the recording was cut short (coretrace record did not end it; up to a second of records before the cut is missing)\n",
			rp->who, r->records, rp->dir);
	} else if (rp->count) {
		fprintf(stderr, "%s: %llu records read from %s\n", rp->who,
			r->records, rp->dir);
	}
	ct_ctf_reader_print_part(r, rp->who);
	ct_ctf_reader_print_losses(r, rp->who);
}

int ct_replay(struct ct_replay *rp, struct ct_ctf_reader *r)
{
	bool quiet, say;
	int err;

	err = ct_ctf_reader_open(r, rp->dir);
	if (!err && rp->begin) {
		err = rp->begin(r, rp->ctx);
		if (err) {
			if (rp->out)
				ct_output_close(rp->out, &quiet);
			rp->out = NULL;
			ct_ctf_reader_close(r);
			return err;
		}
	}
	if (!err)
		err = rp->out ? ct_ctf_reader_run(r, ct_output_reader_cb, rp->out) :
				-ENOMEM;
	rp->out_failed = rp->out && ct_output_close(rp->out, &quiet);
	rp->out = NULL;
	say = !rp->end || rp->end(r, err, rp->ctx);
	if (say && !rp->quiet)
		ct_replay_say(rp, r, err);
	ct_ctf_reader_close(r);
	return err;
}
