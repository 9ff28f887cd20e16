/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_CHECK_H
#define CORETRACE_CHECK_H

#include "commands/cli.h"

/* `coretrace check`; returns the exit code */
int ct_check(const struct ct_check_opts *opts);

#endif /* CORETRACE_CHECK_H */
