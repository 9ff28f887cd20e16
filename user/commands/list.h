/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_LIST_H
#define CORETRACE_LIST_H

#include <stdio.h>
#include "base/options.h"

#include "base/version.h"

struct ct_list_opts {
	int verbose;
};

extern const struct ct_command ct_list_command, ct_version_command;

/* `coretrace list`; returns the exit code */
int ct_list(const struct ct_list_opts *opts, FILE *out);
/* `coretrace version` */
void ct_version(FILE *out);

#endif /* CORETRACE_LIST_H */
