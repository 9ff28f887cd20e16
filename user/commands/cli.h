/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing for coretrace, kept free of BPF so it can be tested. */
#ifndef CORETRACE_CLI_H
#define CORETRACE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/options.h"
#include "loader/loader.h"
#include "model/args.h"
#include "model/cgroup.h"
#include "views/report.h"


/* coretrace serve */
#define CT_SERVE_LISTEN		":9476"
#define CT_SERVE_PATH		"/metrics"
#define CT_SERVE_MAX_CGROUPS	256

struct ct_serve_opts {
	const char *listen;		/* --web.listen-address */
	const char *path;		/* --web.telemetry-path */
	unsigned int max_cgroups;	/* --max-cgroups */
	double duration;		/* -d: seconds, 0: until SIGINT/SIGTERM */
	int verbose;
	struct ct_layout_opts layout;
};

struct ct_list_opts {
	int verbose;
};

struct ct_check_opts {
	bool json;
	struct ct_layout_opts layout;
};

/* Parse `record`'s options (argv[0] is "record"). */
int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err);

/* Parse `list`'s options (argv[0] is "list"). */
int ct_parse_list_args(int argc, char **argv, struct ct_list_opts *opts,
		       FILE *out, FILE *err);
/* Parse `check`'s options (argv[0] is "check"). */
int ct_parse_check_args(int argc, char **argv, struct ct_check_opts *opts,
			FILE *out, FILE *err);
/* Parse `report`'s options (argv[0] is "report"). */
int ct_parse_report_args(int argc, char **argv, struct ct_report_opts *opts,
			 FILE *out, FILE *err);
/* Parse `version`'s options: only --help. */
int ct_parse_version_args(int argc, char **argv, FILE *out, FILE *err);

/* Parse `top`'s options into a record session that feeds the overview. */
int ct_parse_top_args(int argc, char **argv, struct ct_record_opts *opts,
		      FILE *out, FILE *err);
struct ct_timechart_opts;
struct ct_convert_opts;
/* Parse `convert`'s options. */
int ct_parse_convert_args(int argc, char **argv, struct ct_convert_opts *opts,
			  FILE *out, FILE *err);
/* Parse `timechart`'s options. */
int ct_parse_timechart_args(int argc, char **argv, struct ct_timechart_opts *opts,
			    FILE *out, FILE *err);

/* Each command's description and options (cli.c) */
extern const struct ct_command ct_record_command, ct_top_command,
	ct_report_command, ct_timechart_command, ct_convert_command,
	ct_list_command, ct_check_command, ct_version_command,
	ct_serve_command;

#endif /* CORETRACE_CLI_H */
