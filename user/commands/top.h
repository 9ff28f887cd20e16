/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_TOP_CMD_H
#define CORETRACE_TOP_CMD_H

#include "base/options.h"

/* `coretrace top`: options into a struct ct_record_opts, run by ct_record() */
extern const struct ct_command ct_top_command;

#endif /* CORETRACE_TOP_CMD_H */
