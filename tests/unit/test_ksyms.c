// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms parsing and lookups, with well-formed and hostile input. */
#include <stdlib.h>
#include "ct_test.h"
#include "model/ksyms.h"

static int load(struct ct_ksyms *ks, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = ct_ksyms_load(ks, f);
	fclose(f);
	return rc;
}

static void test_good(void)
{
	struct ct_ksyms ks;

	CT_CHECK_INT(load(&ks,
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t helper\n"
		"ffffffff81000200 D some_data\n"	/* data: skipped */
		"ffffffff81000300 W weak_fn\n"
		"ffffffffc0000000 t mod_fn\t[mymod]\n"
		"ffffffff80ffff00 T before_text\n"), 0);	/* unsorted */
	CT_CHECK_INT(ks.count, 5);
	CT_CHECK_INT(ks.parsed_lines, 6);
	CT_CHECK_INT(ks.skipped_lines, 0);
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000000ull), "_stext");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff810000ffull), "_stext");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000100ull), "helper");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000250ull), "helper");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000350ull), "weak_fn");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffffc0000010ull), "mod_fn");
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff80ffff08ull), "before_text");
	/* again, from the cache */
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000250ull), "helper");
	CT_CHECK(ct_ksyms_lookup(&ks, 0x1000) == NULL);
	CT_CHECK(ct_ksyms_lookup(&ks, 0) == NULL);
	ct_ksyms_free(&ks);
}

static void test_hostile(void)
{
	struct ct_ksyms ks;
	char *big;
	size_t i;

	/* kptr_restrict: every address reads 0, nothing is usable */
	CT_CHECK_INT(load(&ks, "0000000000000000 T _stext\n"
			       "0000000000000000 t helper\n"), 0);
	CT_CHECK_INT(ks.count, 0);
	CT_CHECK(ct_ksyms_lookup(&ks, 0xffffffff81000000ull) == NULL);
	ct_ksyms_free(&ks);

	CT_CHECK_INT(load(&ks,
		"\n"
		"garbage\n"
		"ffffffff81000000\n"
		"ffffffff81000000 T\n"
		"ffffffff81000000 TT name\n"
		"zzzz T name\n"
		"99999999999999999999 T overflow\n"
		"ffffffff81000000 T ok_fn\n"
		"ffffffff81000010 T \n"), 0);
	CT_CHECK_INT(ks.count, 1);
	CT_CHECK_INT(ks.skipped_lines, 8);
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000010ull), "ok_fn");
	ct_ksyms_free(&ks);

	/* an over-long line is skipped whole, the next one still parses */
	big = malloc(5000);
	CT_CHECK(big != NULL);
	strcpy(big, "ffffffff81000000 T ");
	for (i = strlen(big); i < 4000; i++)
		big[i] = 'a';
	strcpy(big + 4000, "\nffffffff81000100 T after_long\n");
	CT_CHECK_INT(load(&ks, big), 0);
	CT_CHECK_INT(ks.count, 1);
	CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000100ull), "after_long");
	ct_ksyms_free(&ks);
	free(big);

	CT_CHECK_INT(load(&ks, ""), 0);
	CT_CHECK_INT(ks.count, 0);
	CT_CHECK(ct_ksyms_lookup(&ks, 0xffffffff81000100ull) == NULL);
	ct_ksyms_free(&ks);
}

/* Many symbols: every lookup lands on the right one. */
static void test_many(void)
{
	struct ct_ksyms ks;
	char *text, *p;
	unsigned long wrong = 0;
	int i;

	text = malloc(64 * 20000 + 1);
	CT_CHECK(text != NULL);
	p = text;
	for (i = 19999; i >= 0; i--)
		p += sprintf(p, "%016llx T fn_%d\n",
			     0xffffffff81000000ull + (unsigned long long)i * 64, i);
	CT_CHECK_INT(load(&ks, text), 0);
	CT_CHECK_INT(ks.count, 20000);
	for (i = 0; i < 20000; i += 7) {
		char want[32];
		const char *got = ct_ksyms_lookup(&ks,
			0xffffffff81000000ull + (unsigned long long)i * 64 + 63);

		snprintf(want, sizeof(want), "fn_%d", i);
		if (!got || strcmp(got, want))
			wrong++;
	}
	CT_CHECK_INT(wrong, 0);
	ct_ksyms_free(&ks);
	free(text);
}

/*
 * A section's label at its first function's address (__sched_text_start
 * and __schedule on a kernel whose .sched.text begins with it): the
 * function is named, whichever line comes first
 */
static void test_labels(void)
{
	static const char *const texts[] = {
		"ffffffff81000000 T __sched_text_start\n"
		"ffffffff81000000 t __schedule\nffffffff81000200 T schedule\n",
		"ffffffff81000000 t __schedule\n"
		"ffffffff81000000 T __sched_text_start\nffffffff81000200 T schedule\n",
		"ffffffff81000000 T _stext\nffffffff81000000 T __start_x\n"
		"ffffffff81000000 T startup_64\n",
	};
	static const char *const want[] = { "__schedule", "__schedule",
					    "startup_64" };
	struct ct_ksyms ks;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		CT_CHECK_INT(load(&ks, texts[i]), 0);
		CT_CHECK_STR(ct_ksyms_lookup(&ks, 0xffffffff81000044ull), want[i]);
		ct_ksyms_free(&ks);
	}
}

void test_ksyms(void)
{
	test_good();
	test_hostile();
	test_many();
	test_labels();
}
