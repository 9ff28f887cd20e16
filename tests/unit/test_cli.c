// SPDX-License-Identifier: GPL-2.0
/* Option parsing: the values users type, and the ones they mistype. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include "ct_test.h"
#include "cli.h"

static void test_seconds(void)
{
	static const char *const bad[] = {
		"", "abc", "-1", "0", "0ms", "5x", "5 s", "nan", "inf",
		"86401", "1e9", "2mss", "s",
	};
	double s = 0;
	size_t i;

	CT_CHECK_INT(ct_parse_seconds("2", &s), 0);
	CT_CHECK(s == 2.0);
	CT_CHECK_INT(ct_parse_seconds("0.5", &s), 0);
	CT_CHECK(s == 0.5);
	CT_CHECK_INT(ct_parse_seconds("1.5s", &s), 0);
	CT_CHECK(s == 1.5);
	CT_CHECK_INT(ct_parse_seconds("200ms", &s), 0);
	CT_CHECK(s > 0.1999 && s < 0.2001);
	CT_CHECK_INT(ct_parse_seconds("3m", &s), 0);
	CT_CHECK(s == 180.0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = -7;
		CT_CHECK(ct_parse_seconds(bad[i], &s) != 0);
		CT_CHECK(s == -7);	/* untouched on error */
	}
	CT_CHECK(ct_parse_seconds(NULL, &s) != 0);
}

static void test_sizes(void)
{
	static const char *const bad[] = {
		"", "K", "-1", "+4", "4T", "4MX", "4 M", "4KK",
		"99999999999999999999", "18446744073709551615G", "0x10",
	};
	uint64_t bytes = 0;
	uint32_t ring = 0;
	size_t i;

	CT_CHECK_INT(ct_parse_size("4096", &bytes), 0);
	CT_CHECK_INT(bytes, 4096);
	CT_CHECK_INT(ct_parse_size("64K", &bytes), 0);
	CT_CHECK_INT(bytes, 65536);
	CT_CHECK_INT(ct_parse_size("4M", &bytes), 0);
	CT_CHECK_INT(bytes, 4u << 20);
	CT_CHECK_INT(ct_parse_size("4MiB", &bytes), 0);
	CT_CHECK_INT(bytes, 4u << 20);
	CT_CHECK_INT(ct_parse_size("1g", &bytes), 0);
	CT_CHECK_INT(bytes, 1u << 30);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CT_CHECK(ct_parse_size(bad[i], &bytes) != 0);

	CT_CHECK_INT(ct_ring_size(1, &ring), 0);
	CT_CHECK_INT(ring, 4096);
	CT_CHECK_INT(ct_ring_size(5000, &ring), 0);
	CT_CHECK_INT(ring, 8192);
	CT_CHECK_INT(ct_ring_size(1u << 30, &ring), 0);
	CT_CHECK_INT(ring, 1u << 30);
	CT_CHECK(ct_ring_size(0, &ring) != 0);
	CT_CHECK(ct_ring_size((1u << 30) + 1, &ring) != 0);
}

/* Parse a NULL-terminated argument list; capture what was printed. */
static int parse(struct ct_record_opts *opts, char *errbuf, size_t errlen,
		 const char *first, ...)
{
	char *argv[16];
	char *outbuf = NULL;
	size_t outlen = 0;
	FILE *out, *err;
	va_list ap;
	int argc = 0, rc;
	const char *arg;

	argv[argc++] = (char *)"record";
	va_start(ap, first);
	for (arg = first; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = (char *)arg;
	va_end(ap);
	argv[argc] = NULL;

	memset(errbuf, 0, errlen);
	err = fmemopen(errbuf, errlen - 1, "w");
	out = open_memstream(&outbuf, &outlen);
	rc = ct_parse_record_args(argc, argv, opts, out, err);
	fclose(err);
	fclose(out);
	free(outbuf);
	return rc;
}

static void test_record_args(void)
{
	struct ct_record_opts o;
	char err[512];

	CT_CHECK_INT(parse(&o, err, sizeof(err), NULL), CT_PARSE_OK);
	CT_CHECK(o.duration == 0);
	CT_CHECK_INT(o.buffer_size, CT_DEFAULT_BUFFER_SIZE);
	CT_CHECK_INT(o.format, CT_FORMAT_TEXT);
	CT_CHECK_INT(o.verbose, 0);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "-d", "2", "-b", "256K",
			   "--format", "json", "-vv", NULL), CT_PARSE_OK);
	CT_CHECK(o.duration == 2.0);
	CT_CHECK_INT(o.buffer_size, 256u << 10);
	CT_CHECK_INT(o.format, CT_FORMAT_JSON);
	CT_CHECK_INT(o.verbose, 2);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "--duration=0.5",
			   "--buffer-size=5000", NULL), CT_PARSE_OK);
	CT_CHECK(o.duration == 0.5);
	CT_CHECK_INT(o.buffer_size, 8192);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "--help", NULL), CT_PARSE_EXIT);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "--bogus", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unknown option '--bogus' (see coretrace record --help)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-x", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unknown option '-x' (see coretrace record --help)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-d", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: option needs a value '-d' (see coretrace record --help)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--duration", NULL), CT_PARSE_ERROR);
	CT_CHECK(strstr(err, "needs a value") != NULL);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-d", "soon", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: invalid duration 'soon' (want seconds, e.g. 5, 0.5, 200ms)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-b", "2G", NULL), CT_PARSE_ERROR);
	CT_CHECK(strstr(err, "invalid buffer size '2G'") != NULL);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-f", "xml", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unknown format 'xml' (want text or json)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "extra", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unexpected argument 'extra'\n");
	/* the parser can be run again after an error */
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-d", "1", NULL), CT_PARSE_OK);
	CT_CHECK(o.duration == 1.0);
}

void test_cli(void)
{
	test_seconds();
	test_sizes();
	test_record_args();
}
