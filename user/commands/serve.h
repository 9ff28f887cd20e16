/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CORETRACE_SERVE_H
#define CORETRACE_SERVE_H

#include "base/options.h"
#include "loader/loader.h"

/* coretrace serve */
/*
 * This machine only: the series name every cgroup and are served without
 * authentication (node_exporter's ":9100" convention would publish them
 * to every network the machine is on). --web.listen-address :9476 for
 * all, behind a firewall or a reverse proxy with TLS and authentication.
 */
#define CT_SERVE_LISTEN		"127.0.0.1:9476"
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
