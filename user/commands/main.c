// SPDX-License-Identifier: GPL-2.0
/* coretrace: a CO-RE BPF scheduler and power tracer. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "commands/check.h"
#include "views/convert.h"
#include "commands/top.h"
#include "model/args.h"
#include "commands/list.h"
#include "views/report.h"
#include "commands/record.h"
#include "commands/serve.h"
#include "views/timechart.h"
#include "base/version.h"

static int ct_run_record(void *opts)
{
	return ct_record(opts);
}

static int ct_run_timechart(void *opts)
{
	return ct_timechart(opts);
}

static int ct_run_convert(void *opts)
{
	return ct_convert(opts);
}

static int ct_run_list(void *opts)
{
	return ct_list(opts, stdout);
}

static int ct_run_check(void *opts)
{
	return ct_check(opts);
}

static int ct_run_report(void *opts)
{
	return ct_report(opts);
}

static int ct_run_serve(void *opts)
{
	return ct_serve(opts);
}

static int ct_run_version(void *opts)
{
	(void)opts;
	ct_version(stdout);
	return CT_EXIT_OK;
}

/* The commands, in the order coretrace --help lists them */
static const struct ct_cmd {
	const struct ct_command *spec;	/* its options and help (in its own file) */
	int (*run)(void *opts);		/* what it does, once parsed */
} ct_cmds[] = {
	{ &ct_record_command, ct_run_record },
	{ &ct_list_command, ct_run_list },
	{ &ct_top_command, ct_run_record },	/* a record session, shown live */
	{ &ct_serve_command, ct_run_serve },
	{ &ct_report_command, ct_run_report },
	{ &ct_timechart_command, ct_run_timechart },
	{ &ct_convert_command, ct_run_convert },
	{ &ct_check_command, ct_run_check },
	{ &ct_version_command, ct_run_version },
};

#define CT_NCMDS	(sizeof(ct_cmds) / sizeof(ct_cmds[0]))

/* the largest options struct of any command */
union ct_any_opts {
	struct ct_record_opts record;
	struct ct_report_opts report;
	struct ct_timechart_opts timechart;
	struct ct_convert_opts convert;
	struct ct_list_opts list;
	struct ct_check_opts check;
	struct ct_serve_opts serve;
};

static void ct_usage(FILE *out)
{
	const struct ct_command *specs[CT_NCMDS];
	size_t i;

	for (i = 0; i < CT_NCMDS; i++)
		specs[i] = ct_cmds[i].spec;
	ct_commands_help(specs, CT_NCMDS, out);
}

/*
 * coretrace help --man [COMMAND]: the manual page of coretrace or of a
 * command, made from the tables --help is made from (make man)
 */
static int ct_man(int argc, char **argv)
{
	const struct ct_command *specs[CT_NCMDS];
	size_t i;

	for (i = 0; i < CT_NCMDS; i++)
		specs[i] = ct_cmds[i].spec;
	if (argc == 3) {
		ct_commands_man(specs, CT_NCMDS, CT_VERSION, stdout);
		return ct_close_output(NULL, "coretrace", "the manual page") ?
		       CT_EXIT_FAILURE : CT_EXIT_OK;
	}
	for (i = 0; argc == 4 && i < CT_NCMDS; i++) {
		if (strcmp(specs[i]->name, argv[3]))
			continue;
		ct_command_man(specs[i], CT_VERSION, stdout);
		return ct_close_output(NULL, "coretrace", "the manual page") ?
		       CT_EXIT_FAILURE : CT_EXIT_OK;
	}
	fprintf(stderr, "coretrace: help --man takes one command at most, one of coretrace --help's\n");
	return CT_EXIT_USAGE;
}

static const struct ct_cmd *ct_find_cmd(const char *name)
{
	size_t i;

	if (!strcmp(name, "--version"))
		name = "version";
	for (i = 0; i < CT_NCMDS; i++)
		if (!strcmp(ct_cmds[i].spec->name, name))
			return &ct_cmds[i];
	return NULL;
}

/*
 * A capture has a stream file per CPU, all open at once while it is read
 * in time order: 1,024 CPUs need more than the usual soft limit of 1,024
 * descriptors, and the hard limit is there to be used.
 */
static void ct_raise_nofile(void)
{
	struct rlimit lim;

	if (!getrlimit(RLIMIT_NOFILE, &lim) && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	static union ct_any_opts opts;
	const struct ct_cmd *cmd;
	int parsed;

	ct_raise_nofile();
	if (!name) {
		ct_usage(stderr);
		return CT_EXIT_USAGE;
	}
	if (!strcmp(name, "help") && argc > 2 && !strcmp(argv[2], "--man"))
		return ct_man(argc, argv);
	if (!strcmp(name, "help") && argc == 3) {
		/* coretrace help COMMAND: that command's --help */
		cmd = ct_find_cmd(argv[2]);
		if (!cmd) {
			fprintf(stderr, "coretrace: no command '%s' to help with (see coretrace --help)\n",
				argv[2]);
			return CT_EXIT_USAGE;
		}
		ct_command_help(cmd->spec, stdout);
		return ct_close_output(NULL, "coretrace", "the help") ?
		       CT_EXIT_FAILURE : CT_EXIT_OK;
	}
	if ((!strcmp(name, "help") && argc == 2) || !strcmp(name, "--help") ||
	    !strcmp(name, "-h")) {
		ct_usage(stdout);
		return CT_EXIT_OK;
	}
	if (!strcmp(name, "help")) {
		fprintf(stderr, "coretrace: help takes one command at most (see coretrace --help)\n");
		return CT_EXIT_USAGE;
	}
	cmd = ct_find_cmd(name);
	if (!cmd) {
		fprintf(stderr, "coretrace: unknown command '%s' (see coretrace --help)\n",
			name);
		return CT_EXIT_USAGE;
	}
	parsed = ct_parse_command(cmd->spec, argc - 1, argv + 1, &opts, stdout,
				  stderr);
	if (parsed == CT_PARSE_EXIT)
		return CT_EXIT_OK;
	if (parsed != CT_PARSE_OK)
		return CT_EXIT_USAGE;
	return cmd->run(&opts);
}
