/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_REPORT_H
#define CORETRACE_REPORT_H

#include "cli.h"

/* `coretrace report DIR`; returns the exit code */
int ct_report(const struct ct_report_opts *opts);

#endif /* CORETRACE_REPORT_H */
