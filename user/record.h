/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_RECORD_H
#define CORETRACE_RECORD_H

#include "cli.h"

struct coretrace_bpf;

/*
 * Open, configure and load the programs @opts asks for (coretrace serve
 * too, with opts->aggregate), then attach them all at once; 0, or a
 * negative errno after one sentence on stderr.
 */
int ct_programs_open(const struct ct_record_opts *opts,
		     struct coretrace_bpf **skel);
int ct_programs_attach(struct coretrace_bpf *skel);

/* Run `coretrace record`; returns the process exit code. */
int ct_record(const struct ct_record_opts *opts);

#endif /* CORETRACE_RECORD_H */
