/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replaying a capture, the way every reader does (report, convert,
 * timechart): open it, feed every record to an output, close the output,
 * say what was wrong, which part of an always-on recording it is and
 * what it lost, and close it (replay.c).
 */
#ifndef CORETRACE_REPLAY_H
#define CORETRACE_REPLAY_H

#include <stdbool.h>
#include "capture/ctf_read.h"
#include "model/output.h"

struct ct_replay {
	const char *dir;		/* the capture */
	const char *who;		/* starts every sentence: "coretrace report" */
	struct ct_output *out;		/* fed every record; closed here */
	/*
	 * Once the capture is open, before its records (the reader's hooks
	 * go here): 0 to go on, or -errno after saying why (may be NULL)
	 */
	int (*begin)(struct ct_ctf_reader *r, void *ctx);
	/*
	 * After the records and the output's close, with the reader's error
	 * (0 if none): false keeps the replay from saying anything (may be
	 * NULL)
	 */
	bool (*end)(const struct ct_ctf_reader *r, int err, void *ctx);
	void *ctx;
	bool quiet;		/* say nothing: a second pass over the capture */
	bool count;		/* say how many records were read, or recovered */
	bool out_failed;	/* set by ct_replay(): closing the output failed */
};

/*
 * Replay @rp->dir through @r (left closed, its counts kept): 0, the
 * reader's error (a damaged capture is read up to the damage:
 * r->records), or begin's.
 */
int ct_replay(struct ct_replay *rp, struct ct_ctf_reader *r);

#endif /* CORETRACE_REPLAY_H */
