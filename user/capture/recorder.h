/* SPDX-License-Identifier: GPL-2.0 */
/* Always-on recording: a flight recorder or rotated chunks (recorder.c) */
#ifndef CORETRACE_RECORDER_H
#define CORETRACE_RECORDER_H

#include "capture/ctf.h"
#include "model/output.h"

/* An always-on recording in a directory of parts (recorder.c) */
struct ct_parts_opts {
	const char *dir;
	uint64_t flight_bytes;		/* --flight-recorder: memory, 0 off */
	uint64_t chunk_bytes;		/* --chunk-size: 0 no limit */
	uint64_t chunk_ns;		/* --chunk-time: 0 no limit */
	unsigned int max_chunks;	/* --max-chunks: 0 keep all */
	int verbose;
	struct ct_outdir_opts out;	/* owner and mode of what is written */
};

/*
 * A flight recorder (opts->flight_bytes) whose snapshots are capture
 * directories DIR/snapshot-N, or a recording rotated into chunks
 * DIR/chunk-N. NULL with *@err set when it cannot start, and @why
 * (CT_OUTDIR_WHY bytes) the sentence when DIR was refused.
 */
struct ct_output *ct_parts_output(const struct ct_parts_opts *opts, int ncpus,
				  const struct ct_ctf_env *env,
				  struct ct_names *names, uint64_t now_ns,
				  int *err, char *why);

#endif /* CORETRACE_RECORDER_H */
