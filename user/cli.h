/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing for coretrace, kept free of BPF so it can be tested. */
#ifndef CORETRACE_CLI_H
#define CORETRACE_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "events.h"

#define CT_DEFAULT_BUFFER_SIZE	(4u << 20)
#define CT_MIN_BUFFER_SIZE	4096u
#define CT_MAX_BUFFER_SIZE	(1u << 30)

/* exit codes */
#define CT_EXIT_OK		0
#define CT_EXIT_FAILURE		1	/* runtime: no privileges, no BTF... */
#define CT_EXIT_USAGE		2	/* bad command line */

struct ct_record_opts {
	double duration;	/* seconds, 0: until SIGINT/SIGTERM */
	uint32_t buffer_size;	/* ring buffer bytes, a power of two */
	enum ct_format format;
	int verbose;
};

enum ct_parse_result {
	CT_PARSE_OK = 0,	/* run the command */
	CT_PARSE_EXIT = 1,	/* help was printed: exit 0 */
	CT_PARSE_ERROR = -1,	/* message printed: exit CT_EXIT_USAGE */
};

/* "2", "0.5", "1.5s", "200ms", "3m": positive, at most a day */
int ct_parse_seconds(const char *arg, double *seconds);
/* "65536", "64K", "4M", "1G" (binary units) */
int ct_parse_size(const char *arg, uint64_t *bytes);
/* round up to a power of two within the ring buffer's limits */
int ct_ring_size(uint64_t requested, uint32_t *size);

/* Parse `record`'s options (argv[0] is "record"). */
int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err);

void ct_usage(FILE *out);

#endif /* CORETRACE_CLI_H */
