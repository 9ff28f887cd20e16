/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal test runner: CT_CHECK* count and report, and the runner's
 * last line is "N passed, N failed", which CI reads.
 */
#ifndef CORETRACE_CT_TEST_H
#define CORETRACE_CT_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern unsigned long ct_tests_passed, ct_tests_failed;

void ct_check_report(int ok, const char *file, int line, const char *expr,
		     const char *detail);

#define CT_CHECK(cond)							\
	ct_check_report(!!(cond), __FILE__, __LINE__, #cond, NULL)

#define CT_CHECK_INT(actual, expected)					\
	do {								\
		long long ct_a_ = (long long)(actual);			\
		long long ct_e_ = (long long)(expected);		\
		char ct_d_[96];						\
		snprintf(ct_d_, sizeof(ct_d_), "expected %lld, saw %lld", \
			 ct_e_, ct_a_);					\
		ct_check_report(ct_a_ == ct_e_, __FILE__, __LINE__,	\
				#actual, ct_d_);			\
	} while (0)

#define CT_CHECK_STR(actual, expected)					\
	do {								\
		const char *ct_a_ = (actual);				\
		const char *ct_e_ = (expected);				\
		char ct_d_[1024];					\
		snprintf(ct_d_, sizeof(ct_d_),				\
			 "expected \"%.480s\", saw \"%.480s\"", ct_e_,		\
			 ct_a_ ? ct_a_ : "(null)");			\
		ct_check_report(ct_a_ && !strcmp(ct_a_, ct_e_),	\
				__FILE__, __LINE__, #actual, ct_d_);	\
	} while (0)

/* each test file exposes one suite */
void test_events(void);
void test_cli(void);
void test_comm_cache(void);
void test_printers(void);
void test_ksyms(void);
struct ct_tp_format;
/* a tracefs format file's text parsed (ct_format_parse), or -99 */
int ct_test_parse_format(const char *text, struct ct_tp_format *fmt);
/* @text into the file @path (checked) */
void ct_test_write_file(const char *path, const char *text);

void test_layout(void);
void test_btfgen(void);
void test_ctf(void);
void test_ctf_read(void);
void test_analysis(void);
void test_output(void);
void test_serve(void);
void test_pktring(void);
void test_recorder(void);
/* test_recorder.c's: a switch on @cpu at @ts (42 -> 43) */
union ct_record;
union ct_record ct_test_rec_switch(uint16_t cpu, uint64_t ts);
/* @n switches on 2 CPUs from @ts, 1 us apart, ticking every 1000 */
struct ct_output;
uint64_t ct_test_feed_switches(struct ct_output *out, uint64_t ts, int n);
void test_outdir(void);
void test_cgroup(void);
void test_stacks(void);

#endif /* CORETRACE_CT_TEST_H */
