/* SPDX-License-Identifier: GPL-2.0 */
/* A capture as an output (capture_output.c) */
#ifndef CORETRACE_CAPTURE_OUTPUT_H
#define CORETRACE_CAPTURE_OUTPUT_H

#include "capture/ctf.h"
#include "model/output.h"

/*
 * A capture in @dir for @ncpus CPUs (ctf.h), its files as @out says;
 * its packets wait at most a second in memory. NULL with *@err set when
 * it cannot be written, and @why (CT_OUTDIR_WHY bytes) the sentence
 * when @dir was refused.
 */
struct ct_output *ct_capture_output(const char *dir, int ncpus,
				    const struct ct_ctf_env *env,
				    const struct ct_outdir_opts *out,
				    struct ct_names *names, uint64_t now_ns,
				    int *err, char *why);

#endif /* CORETRACE_CAPTURE_OUTPUT_H */
