/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_CHECK_H
#define CORETRACE_CHECK_H

#include <stdbool.h>
#include "base/options.h"
#include "loader/objopen.h"

struct ct_check_opts {
	bool json;
	struct ct_layout_opts layout;
};

extern const struct ct_command ct_check_command;

/* `coretrace check`; returns the exit code */
int ct_check(const struct ct_check_opts *opts);

#endif /* CORETRACE_CHECK_H */
