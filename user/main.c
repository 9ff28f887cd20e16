// SPDX-License-Identifier: GPL-2.0
/* coretrace: a CO-RE BPF scheduler and power tracer. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "record.h"

#ifndef CT_VERSION
#define CT_VERSION "0.1.0"
#endif

static int ct_cmd_record(int argc, char **argv)
{
	struct ct_record_opts opts;

	switch (ct_parse_record_args(argc, argv, &opts, stdout, stderr)) {
	case CT_PARSE_OK:
		return ct_record(&opts);
	case CT_PARSE_EXIT:
		return CT_EXIT_OK;
	default:
		return CT_EXIT_USAGE;
	}
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
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("coretrace %s (record ABI %d)\n", CT_VERSION,
		       CT_ABI_VERSION);
		return CT_EXIT_OK;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h")) {
		ct_usage(stdout);
		return CT_EXIT_OK;
	}
	fprintf(stderr, "coretrace: unknown command '%s' (see coretrace --help)\n",
		cmd);
	return CT_EXIT_USAGE;
}
