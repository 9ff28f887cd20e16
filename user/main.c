// SPDX-License-Identifier: GPL-2.0
/* coretrace: a CO-RE BPF scheduler and power tracer. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "convert.h"
#include "cli.h"
#include "list.h"
#include "report.h"
#include "record.h"
#include "timechart.h"

static int ct_parse_exit(int parsed)
{
	return parsed == CT_PARSE_EXIT ? CT_EXIT_OK : CT_EXIT_USAGE;
}

static int ct_cmd_record(int argc, char **argv)
{
	struct ct_record_opts opts;
	int parsed = ct_parse_record_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_record(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_top(int argc, char **argv)
{
	struct ct_record_opts opts;
	int parsed = ct_parse_top_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_record(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_timechart(int argc, char **argv)
{
	struct ct_timechart_opts opts;
	int parsed = ct_parse_timechart_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_timechart(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_convert(int argc, char **argv)
{
	struct ct_convert_opts opts;
	int parsed = ct_parse_convert_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_convert(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_list(int argc, char **argv)
{
	struct ct_list_opts opts;
	int parsed = ct_parse_list_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_list(&opts, stdout) :
				       ct_parse_exit(parsed);
}

static int ct_cmd_check(int argc, char **argv)
{
	struct ct_check_opts opts;
	int parsed = ct_parse_check_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_check(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_report(int argc, char **argv)
{
	struct ct_report_opts opts;
	int parsed = ct_parse_report_args(argc, argv, &opts, stdout, stderr);

	return parsed == CT_PARSE_OK ? ct_report(&opts) : ct_parse_exit(parsed);
}

static int ct_cmd_version(int argc, char **argv)
{
	int parsed = ct_parse_version_args(argc, argv, stdout, stderr);

	if (parsed != CT_PARSE_OK)
		return ct_parse_exit(parsed);
	ct_version(stdout);
	return CT_EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		ct_usage(stderr);
		return CT_EXIT_USAGE;
	}
	if (!strcmp(cmd, "record"))
		return ct_cmd_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return ct_cmd_top(argc - 1, argv + 1);
	if (!strcmp(cmd, "timechart"))
		return ct_cmd_timechart(argc - 1, argv + 1);
	if (!strcmp(cmd, "convert"))
		return ct_cmd_convert(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return ct_cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return ct_cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return ct_cmd_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version"))
		return ct_cmd_version(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		ct_usage(stdout);
		return CT_EXIT_OK;
	}
	fprintf(stderr, "coretrace: unknown command '%s' (see coretrace --help)\n",
		cmd);
	return CT_EXIT_USAGE;
}
