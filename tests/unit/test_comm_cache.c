// SPDX-License-Identifier: GPL-2.0
/* The pid -> comm cache: lookups, replacement, and staying bounded. */
#include <stdio.h>
#include "ct_test.h"
#include "model/comm_cache.h"

static void test_basic(void)
{
	struct ct_comm_cache cache;
	char buf[32];

	CT_CHECK_INT(ct_comm_cache_init(&cache, 100), 0);
	CT_CHECK_INT(cache.mask, 127);
	CT_CHECK(ct_comm_cache_get(&cache, 1) == NULL);
	ct_comm_cache_set(&cache, 1, "init");
	ct_comm_cache_set(&cache, 42, "bash");
	CT_CHECK_STR(ct_comm_cache_get(&cache, 1), "init");
	CT_CHECK_STR(ct_comm_cache_get(&cache, 42), "bash");
	ct_comm_cache_set(&cache, 42, "make");	/* exec: a new name */
	CT_CHECK_STR(ct_comm_cache_get(&cache, 42), "make");
	CT_CHECK(ct_comm_cache_get(&cache, 43) == NULL);

	/* 16 bytes without a NUL are cut to 15 */
	ct_comm_cache_set(&cache, 7, "0123456789abcdefXYZ");
	CT_CHECK_STR(ct_comm_cache_get(&cache, 7), "0123456789abcde");

	CT_CHECK_STR(ct_comm_name(&cache, 0, 3, buf, sizeof(buf)), "swapper/3");
	CT_CHECK_STR(ct_comm_name(&cache, 0, 0, buf, sizeof(buf)), "swapper/0");
	CT_CHECK_STR(ct_comm_name(&cache, 0, 407, buf, sizeof(buf)), "swapper/407");
	CT_CHECK_STR(ct_comm_name(&cache, 0, 4294967295u, buf, sizeof(buf)),
		     "swapper/4294967295");
	/* no room for the number: the name alone, the buffer untouched */
	strcpy(buf, "x");
	CT_CHECK_STR(ct_comm_name(&cache, 0, 12, buf, 10), "swapper");
	CT_CHECK_STR(buf, "x");
	CT_CHECK_STR(ct_comm_name(&cache, 42, 3, buf, sizeof(buf)), "make");
	CT_CHECK_STR(ct_comm_name(&cache, 99, 3, buf, sizeof(buf)), "<...>");
	CT_CHECK_STR(ct_comm_name(NULL, 99, 3, buf, sizeof(buf)), "<...>");
	ct_comm_cache_free(&cache);
	CT_CHECK(cache.slots == NULL);
}

/* Far more pids than slots: recent names stay, nothing overflows. */
static void test_churn(void)
{
	struct ct_comm_cache cache;
	char name[CT_COMM_LEN];
	uint32_t pid, found = 0, wrong = 0;

	CT_CHECK_INT(ct_comm_cache_init(&cache, 16), 0);
	for (pid = 1; pid <= 100000; pid++) {
		snprintf(name, sizeof(name), "t%u", pid);
		ct_comm_cache_set(&cache, pid, name);
		/* the name just set is always found */
		if (!ct_comm_cache_get(&cache, pid))
			wrong++;
	}
	CT_CHECK_INT(wrong, 0);
	for (pid = 1; pid <= 100000; pid++) {
		const char *comm = ct_comm_cache_get(&cache, pid);

		if (!comm)
			continue;
		found++;
		snprintf(name, sizeof(name), "t%u", pid);
		if (strcmp(comm, name))
			wrong++;
	}
	CT_CHECK(found > 0 && found <= 16);
	CT_CHECK_INT(wrong, 0);
	ct_comm_cache_free(&cache);
}

void test_comm_cache(void)
{
	test_basic();
	test_churn();
}
