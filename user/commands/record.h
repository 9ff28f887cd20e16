/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_RECORD_H
#define CORETRACE_RECORD_H

#include "base/options.h"
#include "loader/loader.h"

extern const struct ct_command ct_record_command;

/* Run `coretrace record`; returns the process exit code. */
int ct_record(const struct ct_record_opts *opts);

#endif /* CORETRACE_RECORD_H */
