/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_SERVE_H
#define CORETRACE_SERVE_H

#include "commands/cli.h"

/* Run `coretrace serve`; returns the process exit code. */
int ct_serve(const struct ct_serve_opts *opts);

#endif /* CORETRACE_SERVE_H */
