// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "ct_test.h"
#include "loader/layout.h"

unsigned long ct_tests_passed, ct_tests_failed;

void ct_check_report(int ok, const char *file, int line, const char *expr,
		     const char *detail)
{
	if (ok) {
		ct_tests_passed++;
		return;
	}
	ct_tests_failed++;
	printf("FAIL %s:%d: %s%s%s\n", file, line, expr, detail ? ": " : "",
	       detail ? detail : "");
}

int ct_test_parse_format(const char *text, struct ct_tp_format *fmt)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -99;
	rc = ct_format_parse(f, fmt);
	fclose(f);
	return rc;
}

void ct_test_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CT_CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} suites[] = {
		{ "events", test_events },
		{ "cli", test_cli },
		{ "comm_cache", test_comm_cache },
		{ "printers", test_printers },
		{ "ksyms", test_ksyms },
		{ "layout", test_layout },
		{ "btfgen", test_btfgen },
		{ "ctf", test_ctf },
		{ "ctf_read", test_ctf_read },
		{ "analysis", test_analysis },
		{ "output", test_output },
		{ "pktring", test_pktring },
		{ "recorder", test_recorder },
		{ "outdir", test_outdir },
		{ "cgroup", test_cgroup },
		{ "serve", test_serve },
		{ "stacks", test_stacks },
	};
	size_t i;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		unsigned long before = ct_tests_failed;

		suites[i].run();
		printf("suite %-12s %s\n", suites[i].name,
		       ct_tests_failed == before ? "ok" : "FAILED");
	}
	printf("%lu passed, %lu failed\n", ct_tests_passed, ct_tests_failed);
	return ct_tests_failed ? 1 : 0;
}
