/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_CONVERT_H
#define CORETRACE_CONVERT_H

#include "base/options.h"

struct ct_convert_opts {
	const char *dir;
	const char *perfetto;	/* Chrome/Perfetto JSON to write */
};

/* `coretrace convert DIR --perfetto FILE`; returns the exit code */
int ct_convert(const struct ct_convert_opts *opts);

extern const struct ct_command ct_convert_command;

#endif /* CORETRACE_CONVERT_H */
