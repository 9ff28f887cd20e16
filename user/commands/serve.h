/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_SERVE_H
#define CORETRACE_SERVE_H

#include "base/options.h"
#include "loader/loader.h"

/* coretrace serve */
#define CT_SERVE_LISTEN		":9476"
#define CT_SERVE_PATH		"/metrics"
#define CT_SERVE_MAX_CGROUPS	256

struct ct_serve_opts {
	struct ct_session_opts session;	/* -d, -v, the layouts */
	const char *listen;		/* --web.listen-address */
	const char *path;		/* --web.telemetry-path */
	unsigned int max_cgroups;	/* --max-cgroups */
};

extern const struct ct_command ct_serve_command;

/* Run `coretrace serve`; returns the process exit code. */
int ct_serve(const struct ct_serve_opts *opts);

#endif /* CORETRACE_SERVE_H */
