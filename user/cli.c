// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

void ct_usage(FILE *out)
{
	fputs("usage: coretrace <command> [options]\n"
	      "\n"
	      "commands:\n"
	      "  record     trace scheduler events and print them\n"
	      "  version    print the version and the record ABI version\n"
	      "  help       show this help\n"
	      "\n"
	      "'coretrace <command> --help' shows a command's options.\n",
	      out);
}

static void ct_record_usage(FILE *out)
{
	fputs("usage: coretrace record [options]\n"
	      "\n"
	      "Trace sched_switch (and task renames) until Ctrl-C, SIGTERM or\n"
	      "the duration, one line per event, then a summary on stderr.\n"
	      "\n"
	      "  -d, --duration SECONDS   stop after SECONDS (e.g. 5, 0.5, 200ms)\n"
	      "  -b, --buffer-size SIZE   ring buffer size (e.g. 256K, 4M; default 4M)\n"
	      "  -f, --format FORMAT      text (default) or json (one object a line)\n"
	      "  -v, --verbose            more detail: per-event counts, libbpf log\n"
	      "  -h, --help               show this help\n",
	      out);
}

int ct_parse_seconds(const char *arg, double *seconds)
{
	double value, scale = 1.0;
	char *end;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		scale = 0.001;
	else if (!strcmp(end, "m"))
		scale = 60.0;
	else if (*end && strcmp(end, "s"))
		return -EINVAL;
	value *= scale;
	if (!isfinite(value) || value <= 0.0 || value > 86400.0)
		return -ERANGE;
	*seconds = value;
	return 0;
}

int ct_parse_size(const char *arg, uint64_t *bytes)
{
	unsigned long long value;
	unsigned int shift = 0;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	value = strtoull(arg, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -EINVAL;
	if (value > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes = (uint64_t)value << shift;
	return 0;
}

int ct_ring_size(uint64_t requested, uint32_t *size)
{
	uint64_t ring = CT_MIN_BUFFER_SIZE;

	if (requested == 0 || requested > CT_MAX_BUFFER_SIZE)
		return -ERANGE;
	while (ring < requested)
		ring <<= 1;
	*size = (uint32_t)ring;
	return 0;
}

static int ct_parse_format(const char *arg, enum ct_format *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = CT_FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = CT_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

/* Name the option getopt stumbled on: "-x" for short ones, else the word. */
static void ct_bad_option(FILE *err, const char *what, char **argv, int opt)
{
	if (opt)
		fprintf(err, "coretrace record: %s '-%c' (see coretrace record --help)\n",
			what, opt);
	else
		fprintf(err, "coretrace record: %s '%s' (see coretrace record --help)\n",
			what, argv[optind - 1]);
}

int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "duration",	 required_argument, NULL, 'd' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "format",	 required_argument, NULL, 'f' },
		{ "verbose",	 no_argument,	    NULL, 'v' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t bytes;
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->format = CT_FORMAT_TEXT;
	optind = 0;	/* glibc: rescan from the start, tests parse many times */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:d:b:f:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (ct_parse_seconds(optarg, &opts->duration)) {
				fprintf(err, "coretrace record: invalid duration '%s' (want seconds, e.g. 5, 0.5, 200ms)\n",
					optarg);
				return CT_PARSE_ERROR;
			}
			break;
		case 'b':
			if (ct_parse_size(optarg, &bytes) ||
			    ct_ring_size(bytes, &opts->buffer_size)) {
				fprintf(err, "coretrace record: invalid buffer size '%s' (want 4K to 1G, e.g. 256K, 4M)\n",
					optarg);
				return CT_PARSE_ERROR;
			}
			break;
		case 'f':
			if (ct_parse_format(optarg, &opts->format)) {
				fprintf(err, "coretrace record: unknown format '%s' (want text or json)\n",
					optarg);
				return CT_PARSE_ERROR;
			}
			break;
		case 'v':
			opts->verbose++;
			break;
		case 'h':
			ct_record_usage(out);
			return CT_PARSE_EXIT;
		case ':':
			ct_bad_option(err, "option needs a value", argv, optopt);
			return CT_PARSE_ERROR;
		default:
			ct_bad_option(err, "unknown option", argv, optopt);
			return CT_PARSE_ERROR;
		}
	}
	if (optind < argc) {
		fprintf(err, "coretrace record: unexpected argument '%s'\n",
			argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}
