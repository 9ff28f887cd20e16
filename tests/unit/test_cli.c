// SPDX-License-Identifier: GPL-2.0
/* Option parsing: the values users type, and the ones they mistype. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include "views/convert.h"
#include "ct_test.h"
#include "views/timechart.h"
#include "commands/check.h"
#include "commands/common.h"
#include "commands/list.h"
#include "commands/record.h"
#include "commands/serve.h"
#include "commands/top.h"
#include "views/report.h"

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
	CT_CHECK_INT(ct_parse_seconds("250us", &s), 0);
	CT_CHECK(s > 0.000249 && s < 0.000251);
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
	rc = ct_parse_command(&ct_record_command, argc, argv, opts, out, err);
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
	CT_CHECK(o.session.duration == 0);
	CT_CHECK_INT(o.buffer_size, CT_DEFAULT_BUFFER_SIZE);
	CT_CHECK_INT(o.format, CT_FORMAT_TEXT);
	CT_CHECK_INT(o.session.verbose, 0);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "-d", "2", "-b", "256K",
			   "--format", "json", "-vv", NULL), CT_PARSE_OK);
	CT_CHECK(o.session.duration == 2.0);
	CT_CHECK_INT(o.buffer_size, 256u << 10);
	CT_CHECK_INT(o.format, CT_FORMAT_JSON);
	CT_CHECK_INT(o.session.verbose, 2);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "--duration=0.5",
			   "--buffer-size=5000", NULL), CT_PARSE_OK);
	CT_CHECK(o.session.duration == 0.5);
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
	CT_CHECK(o.session.duration == 1.0);
}

/* -g and --call-graph */
static void test_stacks_args(void)
{
	struct ct_record_opts o;
	char err[512];

	CT_CHECK_INT(parse(&o, err, sizeof(err), NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, 0);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-g", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_KERNEL | CT_STACK_USER);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--stacks", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_KERNEL | CT_STACK_USER);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph", "kernel", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_KERNEL);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph=user", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_USER);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph", "fp", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_KERNEL | CT_STACK_USER);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph", "user,kernel", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.stacks, CT_STACK_KERNEL | CT_STACK_USER);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph", "dwarf", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unknown call graph 'dwarf' (want kernel, user, kernel,user or fp; stacks are walked by frame pointers only)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--call-graph", "", NULL), CT_PARSE_ERROR);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-g", "-e", "sched_wakeup", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: stacks are taken at sched_switch and sched_waking, and -e traces neither\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-g", "-e", "sched_waking", NULL), CT_PARSE_OK);
}

/* --flight-recorder, the chunk options and the triggers */
static void test_always_on_args(void)
{
	static const struct {
		const char *args[6];
		const char *said;
	} bad[] = {
		{ { "--flight-recorder", "64M" }, "need -o DIR" },
		{ { "-o", "d", "--flight-recorder", "100K" }, "invalid flight recorder size '100K' (want 256K to 1T" },
		{ { "-o", "d", "--flight-recorder", "2T" }, "invalid flight recorder size" },
		{ { "-o", "d", "--chunk-size", "junk" }, "invalid chunk size 'junk'" },
		{ { "-o", "d", "--chunk-time", "0" }, "invalid chunk time '0'" },
		{ { "-o", "d", "--max-chunks", "3" }, "--max-chunks needs --chunk-size or --chunk-time" },
		{ { "-o", "d", "--chunk-size", "1M", "--max-chunks", "0" }, "invalid chunk count '0'" },
		{ { "-o", "d", "--flight-recorder", "1M", "--chunk-size", "1M" }, "it does not take the chunk options" },
		{ { "--trigger-delay", "5ms" }, "a trigger takes a snapshot of a flight recorder" },
		{ { "-o", "d", "--chunk-size", "1M", "--trigger-exec", "x" }, "a trigger takes a snapshot of a flight recorder" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-pid", "5" }, "--trigger-pid and --trigger-tid narrow --trigger-delay" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-delay", "0.5us" }, "invalid trigger delay '0.5us' (want a time from 1us to 1h" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-irq", "2h" }, "invalid trigger interrupt time '2h'" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-exec", "sh*" }, "invalid program name 'sh*'" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-exec", "a-name-of-16-chr" }, "invalid program name" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-after", "-1" }, "invalid time after the trigger '-1'" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-max", "x" }, "invalid trigger count 'x'" },
		{ { "-o", "d", "--flight-recorder", "1M", "--trigger-tid", "0" }, "invalid trigger tid '0'" },
	};
	struct ct_record_opts o;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *const *a = bad[i].args;

		CT_CHECK_INT(parse(&o, err, sizeof(err), a[0], a[1], a[2], a[3],
				   a[4], a[5], NULL), CT_PARSE_ERROR);
		ct_check_report(strstr(err, bad[i].said) != NULL, __FILE__, __LINE__,
				bad[i].said, err);
		/* one sentence */
		CT_CHECK(strchr(err, '\n') == err + strlen(err) - 1);
	}
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-o", "d", "--flight-recorder",
			   "64M", NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.flight_bytes, 64ull << 20);
	/* the triggers' defaults */
	CT_CHECK(!ct_triggers_on(&o.trigger));
	CT_CHECK(o.trigger.after == 1.0 && o.trigger.cooldown == 10.0);
	CT_CHECK_INT(o.trigger.max, 10);
	CT_CHECK(o.trigger.before == 0);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-o", "d", "--flight-recorder",
			   "1M", "--trigger-delay=20ms", "--trigger-pid=42",
			   "--trigger-irq=250us", "--trigger-exec=ct-target",
			   "--trigger-before=5", "--trigger-after=0",
			   "--trigger-cooldown=2m", "--trigger-max=0", NULL),
		     CT_PARSE_OK);
	CT_CHECK(ct_triggers_on(&o.trigger));
	CT_CHECK_INT(o.trigger.delay_ns, 20000000);
	CT_CHECK_INT(o.trigger.pid, 42);
	CT_CHECK_INT(o.trigger.irq_ns, 250000);
	CT_CHECK_STR(o.trigger.exec, "ct-target");
	CT_CHECK_INT(o.trigger.exec_len, 9);
	CT_CHECK(o.trigger.before == 5.0 && o.trigger.after == 0);
	CT_CHECK(o.trigger.cooldown == 120.0);
	CT_CHECK_INT(o.trigger.max, 0);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-o", "d", "--chunk-size", "256K",
			   "--chunk-time", "10m", "--max-chunks", "3", NULL),
		     CT_PARSE_OK);
	CT_CHECK_INT(o.chunk_bytes, 256 << 10);
	CT_CHECK(o.chunk_time == 600.0);
	CT_CHECK_INT(o.max_chunks, 3);
}

static void test_events_arg(void)
{
	char err[2048];
	uint64_t mask = 0;
	FILE *f;

#define EV(x) (1ull << (x))
	f = fmemopen(err, sizeof(err), "w");
	CT_CHECK_INT(ct_parse_events("sched_switch", &mask, f), 0);
	CT_CHECK_INT(mask, EV(CT_EV_SCHED_SWITCH));
	CT_CHECK_INT(ct_parse_events("sched:sched_switch,irq:*", &mask, f), 0);
	CT_CHECK_INT(mask, EV(CT_EV_SCHED_SWITCH) | EV(CT_EV_IRQ_HANDLER_ENTRY) |
		     EV(CT_EV_IRQ_HANDLER_EXIT) | EV(CT_EV_SOFTIRQ_ENTRY) |
		     EV(CT_EV_SOFTIRQ_EXIT));
	CT_CHECK_INT(ct_parse_events("power:*,timer:hrtimer_expire_entry", &mask, f), 0);
	CT_CHECK_INT(mask, EV(CT_EV_CPU_IDLE) | EV(CT_EV_CPU_FREQUENCY) |
		     EV(CT_EV_HRTIMER_EXPIRE_ENTRY));
	CT_CHECK_INT(ct_parse_events("all", &mask, f), 0);
	CT_CHECK_INT(mask, ct_all_events());
	CT_CHECK_INT(ct_parse_events("*", &mask, f), 0);
	CT_CHECK_INT(mask, ct_all_events());
	/* name announcements are not events one can pick */
	CT_CHECK(!(ct_all_events() & EV(CT_EV_COMM)));
	CT_CHECK(!(ct_all_events() & EV(CT_EV_IRQ_NAME)));
	fclose(f);
#undef EV

	static const char *const bad[] = {
		"", "bogus", "comm", "irq_name", "sched:", ":*", "sched:bogus",
		"bogus:*", "sched_switch,", ",sched_switch", "sched_switch,,irq:*",
		"sched_switc", "sched:sched_switch:x", "SCHED_SWITCH",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(err, 0, sizeof(err));
		f = fmemopen(err, sizeof(err) - 1, "w");
		mask = 42;
		CT_CHECK(ct_parse_events(bad[i], &mask, f) != 0);
		fclose(f);
		CT_CHECK_INT(mask, 42);
		/* one sentence that lists what is valid */
		CT_CHECK(strstr(err, "valid events are all, GROUP:* and") != NULL);
		CT_CHECK(strstr(err, "workqueue:workqueue_execute_end\n") != NULL);
		CT_CHECK_INT(strchr(err, '\n') - err, strlen(err) - 1);
	}
}

static void test_filters_args(void)
{
	static const char *const bad_cpus[] = {
		"", ",", "0,", ",0", "a", "1-", "-1", "3-1", "1024", "0-1024",
		"1,,2", "0x1", "1 2",
	};
	static const char *const bad_pids[] = {
		"", "0", "-1", "abc", "12x", "4194305", "99999999999999999999",
	};
	uint8_t cpus[CT_MAX_CPUS];
	char comm[CT_COMM_LEN];
	uint32_t pid = 0, len = 0;
	bool prefix = false;
	size_t i;

	CT_CHECK_INT(ct_parse_cpus("0,2-3,1023", cpus), 0);
	CT_CHECK(cpus[0] && !cpus[1] && cpus[2] && cpus[3] && !cpus[4]);
	CT_CHECK(cpus[1023] && !cpus[1022]);
	for (i = 0; i < sizeof(bad_cpus) / sizeof(bad_cpus[0]); i++) {
		memset(cpus, 7, sizeof(cpus));
		CT_CHECK(ct_parse_cpus(bad_cpus[i], cpus) != 0);
		CT_CHECK_INT(cpus[0], 7);	/* untouched on error */
	}

	CT_CHECK_INT(ct_parse_pid("1", &pid), 0);
	CT_CHECK_INT(pid, 1);
	CT_CHECK_INT(ct_parse_pid("4194304", &pid), 0);
	CT_CHECK_INT(pid, 4194304);
	for (i = 0; i < sizeof(bad_pids) / sizeof(bad_pids[0]); i++)
		CT_CHECK(ct_parse_pid(bad_pids[i], &pid) != 0);

	CT_CHECK_INT(ct_parse_comm("bash", comm, &len, &prefix), 0);
	CT_CHECK_STR(comm, "bash");
	CT_CHECK_INT(len, 4);
	CT_CHECK(!prefix);
	CT_CHECK_INT(ct_parse_comm("kworker*", comm, &len, &prefix), 0);
	CT_CHECK_STR(comm, "kworker");
	CT_CHECK_INT(len, 7);
	CT_CHECK(prefix);
	CT_CHECK_INT(ct_parse_comm("123456789012345", comm, &len, &prefix), 0);
	CT_CHECK(ct_parse_comm("1234567890123456", comm, &len, &prefix) != 0);
	CT_CHECK(ct_parse_comm("", comm, &len, &prefix) != 0);
	CT_CHECK(ct_parse_comm("*", comm, &len, &prefix) != 0);
	CT_CHECK(ct_parse_comm("a*b", comm, &len, &prefix) != 0);
	CT_CHECK(ct_parse_comm("a**", comm, &len, &prefix) != 0);
}

static void test_record_filters(void)
{
	struct ct_record_opts o;
	char err[2048];

	CT_CHECK_INT(parse(&o, err, sizeof(err), "-p", "100", "-t", "101",
			   "-c", "ct-p*", "-C", "0-1", "-e", "sched:*",
			   "--per-cpu-rings", "--wakeup", "always", NULL),
		     CT_PARSE_OK);
	CT_CHECK_INT(o.pid, 100);
	CT_CHECK_INT(o.tid, 101);
	CT_CHECK_STR(o.comm, "ct-p");
	CT_CHECK(o.comm_prefix);
	CT_CHECK(o.cpus_set && o.cpus[0] && o.cpus[1] && !o.cpus[2]);
	CT_CHECK(o.per_cpu_rings && o.wakeup_always);
	CT_CHECK(!(o.events & (1ull << CT_EV_CPU_IDLE)));
	CT_CHECK(o.events & (1ull << CT_EV_SCHED_PROCESS_EXEC));

	CT_CHECK_INT(parse(&o, err, sizeof(err), NULL), CT_PARSE_OK);
	CT_CHECK_INT(o.events, ct_all_events());
	CT_CHECK(!o.cpus_set && !o.pid && !o.tid && !o.comm_len);
	CT_CHECK(!o.per_cpu_rings && !o.wakeup_always);

	CT_CHECK_INT(parse(&o, err, sizeof(err), "-e", "nope", NULL), CT_PARSE_ERROR);
	CT_CHECK(strstr(err, "unknown event 'nope'; valid events") != NULL);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-p", "0", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: invalid pid '0' (want a number from 1 to 4194304)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-C", "9999", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: invalid CPU list '9999' (want e.g. 0 or 0,2-3, CPUs below 1024)\n");
	CT_CHECK_INT(parse(&o, err, sizeof(err), "-c", "averyveryverylongname", NULL), CT_PARSE_ERROR);
	CT_CHECK(strstr(err, "invalid task name") != NULL);
	CT_CHECK_INT(parse(&o, err, sizeof(err), "--wakeup", "never", NULL), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: unknown wakeup mode 'never' (want batch or always)\n");
}

static void test_other_commands(void)
{
	struct ct_list_opts lo;
	char none;
	char *argv[4], err[256];
	FILE *out = fopen("/dev/null", "w"), *errf;

	argv[0] = (char *)"list";
	argv[1] = (char *)"-v";
	argv[2] = NULL;
	CT_CHECK_INT(ct_parse_command(&ct_list_command, 2, argv, &lo, out, stderr), CT_PARSE_OK);
	CT_CHECK_INT(lo.verbose, 1);
	argv[1] = (char *)"--help";
	CT_CHECK_INT(ct_parse_command(&ct_list_command, 2, argv, &lo, out, stderr), CT_PARSE_EXIT);
	argv[1] = (char *)"--nope";
	memset(err, 0, sizeof(err));
	errf = fmemopen(err, sizeof(err) - 1, "w");
	CT_CHECK_INT(ct_parse_command(&ct_list_command, 2, argv, &lo, out, errf), CT_PARSE_ERROR);
	fclose(errf);
	CT_CHECK_STR(err, "coretrace list: unknown option '--nope' (see coretrace list --help)\n");

	argv[0] = (char *)"version";
	CT_CHECK_INT(ct_parse_command(&ct_version_command, 1, argv, &none, out, stderr), CT_PARSE_OK);
	argv[1] = (char *)"-h";
	CT_CHECK_INT(ct_parse_command(&ct_version_command, 2, argv, &none, out, stderr), CT_PARSE_EXIT);
	argv[1] = (char *)"extra";
	memset(err, 0, sizeof(err));
	errf = fmemopen(err, sizeof(err) - 1, "w");
	CT_CHECK_INT(ct_parse_command(&ct_version_command, 2, argv, &none, out, errf), CT_PARSE_ERROR);
	fclose(errf);
	CT_CHECK_STR(err, "coretrace version: unexpected argument 'extra'\n");
	fclose(out);
}

/* report's views and formats; @args space-separated, "DIR" last */
static int parse_report(const char *args, struct ct_report_opts *ro,
			char *err, size_t len)
{
	char copy[256], *argv[16], *tok;
	FILE *out = fopen("/dev/null", "w"), *errf;
	int argc = 0, rc;

	snprintf(copy, sizeof(copy), "report %s", args);
	for (tok = strtok(copy, " "); tok && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(err, 0, len);
	errf = fmemopen(err, len - 1, "w");
	rc = ct_parse_command(&ct_report_command, argc, argv, ro, out, errf);
	fclose(errf);
	fclose(out);
	return rc;
}

static void test_report_args(void)
{
	struct ct_report_opts ro;
	char err[256];

	CT_CHECK_INT(parse_report("cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.view, CT_VIEW_RECORDS);
	CT_CHECK_INT(ro.out, CT_REPORT_TEXT);
	CT_CHECK_STR(ro.dir, "cap");
	CT_CHECK_INT(parse_report("--top --html -n 20 cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.view, CT_VIEW_TOP);
	CT_CHECK_INT(ro.out, CT_REPORT_HTML);
	CT_CHECK_INT(ro.rows, 20);
	CT_CHECK_INT(parse_report("--latency --json cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.view, CT_VIEW_LATENCY);
	CT_CHECK_INT(ro.out, CT_REPORT_JSON);
	CT_CHECK_INT(parse_report("--timehist -f json cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.view, CT_VIEW_TIMEHIST);
	CT_CHECK_INT(ro.out, CT_REPORT_JSON);
	CT_CHECK_INT(parse_report("--top --format csv cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.out, CT_REPORT_CSV);
	CT_CHECK_INT(parse_report("--latency --csv cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: csv and html are for --top\n");
	CT_CHECK_INT(parse_report("--top --by cgroup --csv cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.by_cgroup);
	CT_CHECK_INT(parse_report("--by=cgroup --latency cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.by_cgroup && ro.view == CT_VIEW_LATENCY);
	CT_CHECK_INT(parse_report("--top --by task cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(!ro.by_cgroup);
	CT_CHECK_INT(parse_report("--timehist --by cgroup cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: --by is for --top and --latency\n");
	CT_CHECK_INT(parse_report("--by cgroup cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: --by is for --top and --latency\n");
	CT_CHECK_INT(parse_report("--top --by container cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: --by wants task or cgroup, not 'container'\n");
	CT_CHECK_INT(parse_report("--top -n ten cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: -n wants a number of rows, not 'ten'\n");
	CT_CHECK_INT(parse_report("-f xml cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: unknown format 'xml' (want text, json, csv or html)\n");
	CT_CHECK_INT(parse_report("--top", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_INT(parse_report("--bogus cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: unknown option '--bogus' (see coretrace report --help)\n");
	/* options named as typed */
	CT_CHECK_INT(parse_report("--top=1 cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: option takes no value '--top' (see coretrace report --help)\n");
	CT_CHECK_INT(parse_report("--top -xZ cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: unknown option '-x' (see coretrace report --help)\n");
	CT_CHECK_INT(parse_report("cap --rows", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: option needs a value '--rows' (see coretrace report --help)\n");
	/* one view; -n only with --top, 20 rows without it */
	CT_CHECK_INT(parse_report("--top --latency cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: --top and --latency are two views: pick one\n");
	CT_CHECK_INT(parse_report("--timehist --top cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: --timehist and --top are two views: pick one\n");
	CT_CHECK_INT(parse_report("--top --top cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(parse_report("-n 5 cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace report: -n is for --top\n");
	CT_CHECK_INT(parse_report("--latency -n 5 cap", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_INT(parse_report("--top cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.rows, CT_REPORT_TOP_ROWS);
	CT_CHECK_INT(parse_report("--top -n 0 cap", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_INT(ro.rows, 0);
}

/*
 * Split "@cmd @args" into argv (static storage: the parsers keep pointers
 * into it, and each test reads them before the next split).
 */
static int split_args(const char *cmd, const char *args, char **argv)
{
	static char copy[256];
	char *tok;
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s %s", cmd, args);
	for (tok = strtok(copy, " "); tok && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

#define PARSE_WITH(command, cmd, args, opts, err, len)			\
	({								\
		char *argv_[16];					\
		FILE *out_ = fopen("/dev/null", "w"), *errf_;		\
		int argc_ = split_args(cmd, args, argv_), rc_;		\
									\
		memset(err, 0, len);					\
		errf_ = fmemopen(err, len - 1, "w");			\
		rc_ = ct_parse_command(&command, argc_, argv_, opts, out_,	\
				       errf_);				\
		fclose(errf_);						\
		fclose(out_);						\
		rc_;							\
	})

static void test_view_args(void)
{
	struct ct_record_opts ro;
	struct ct_timechart_opts to;
	struct ct_convert_opts co;
	char err[256];

	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "-i 0.5 -n 10 -C 0 -d 3", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.top_interval == 0.5);
	CT_CHECK_INT(ro.top_rows, 10);
	CT_CHECK(ro.cpus_set && ro.cpus[0] && !ro.cpus[1]);
	CT_CHECK(ro.session.duration == 3.0);
	CT_CHECK_INT(ro.events, ct_all_events());
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.top_interval == 2.0);		/* powertop's default is 20 s; ours 2 */
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "-i 0.01", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace top: invalid interval '0.01' (want seconds, at least 0.1)\n");
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "-o dir", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace top: unknown option '-o' (see coretrace top --help)\n");
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "-C 9999", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK(strncmp(err, "coretrace top: invalid CPU list '9999'", 38) == 0);
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "extra", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "--by cgroup", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.top_by_cgroup);
	CT_CHECK(!ro.no_cgroup_names);
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "--no-cgroup-names", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.no_cgroup_names);
	CT_CHECK_INT(PARSE_WITH(ct_record_command, "record", "--no-cgroup-names -o d", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(ro.no_cgroup_names);
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "--by cgroup --by task", &ro, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(!ro.top_by_cgroup);
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "--by pod", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace top: --by wants task or cgroup, not 'pod'\n");
	CT_CHECK_INT(PARSE_WITH(ct_top_command, "top", "--by", &ro, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace top: option needs a value '--by' (see coretrace top --help)\n");

	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap -o x.svg -n 5 -w 800", &to, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_STR(to.dir, "cap");
	CT_CHECK_STR(to.output, "x.svg");
	CT_CHECK_INT(to.tasks, 5);
	CT_CHECK_INT(to.width, 800);
	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap", &to, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace timechart: want a capture directory and -o FILE.svg (see coretrace timechart --help)\n");
	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap -o x.svg -w 50", &to, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace timechart: invalid width '50' (want 100 to 100000 pixels)\n");
	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap -o x.svg -n lots", &to, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap -o x.svg --by cgroup", &to, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK(to.by_cgroup);
	CT_CHECK_INT(PARSE_WITH(ct_timechart_command, "timechart", "cap -o x.svg --by cpu", &to, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace timechart: --by wants task or cgroup, not 'cpu'\n");

	CT_CHECK_INT(PARSE_WITH(ct_convert_command, "convert", "cap --perfetto t.json", &co, err, sizeof(err)), CT_PARSE_OK);
	CT_CHECK_STR(co.dir, "cap");
	CT_CHECK_STR(co.perfetto, "t.json");
	CT_CHECK_INT(PARSE_WITH(ct_convert_command, "convert", "cap --perfetto", &co, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace convert: option needs a value '--perfetto' (see coretrace convert --help)\n");
	CT_CHECK_INT(PARSE_WITH(ct_convert_command, "convert", "cap", &co, err, sizeof(err)), CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace convert: want a capture directory and --perfetto FILE.json\n");
	CT_CHECK_INT(PARSE_WITH(ct_convert_command, "convert", "cap --json t.json", &co, err, sizeof(err)), CT_PARSE_ERROR);
}

/*
 * The help of every command is made from its table: each option is in
 * it, with its argument, and every long option of the table parses (so
 * neither can drift from the other); record and top share what to trace.
 */
static void test_option_tables(void)
{
	static const struct ct_command *const cmds[] = {
		&ct_record_command, &ct_top_command, &ct_report_command,
		&ct_timechart_command, &ct_convert_command, &ct_list_command,
		&ct_check_command, &ct_version_command,
	};
	const struct ct_opt_group *g, *rg;
	const struct ct_opt *o;
	char *text, want[96];
	size_t i, len, options = 0;
	FILE *f;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		text = NULL;
		f = open_memstream(&text, &len);
		ct_command_help(cmds[i], f);
		fclose(f);
		snprintf(want, sizeof(want), "usage: coretrace %s", cmds[i]->name);
		CT_CHECK(!strncmp(text, want, strlen(want)));
		CT_CHECK(strstr(text, "  -h, --help ") != NULL);
		for (g = cmds[i]->groups; g->opts; g++) {
			for (o = g->opts; o->id; o++, options++) {
				snprintf(want, sizeof(want), "--%s%s%s", o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
				CT_CHECK(strstr(text, want) != NULL);
				if (o->id < 256) {
					snprintf(want, sizeof(want), "  -%c, --%s",
						 o->id, o->name);
					CT_CHECK(strstr(text, want) != NULL);
				}
				CT_CHECK(o->help && o->help[0] && o->set);
			}
		}
		free(text);
	}
	CT_CHECK(options > 50);
	/* the trace options are one table, in both commands */
	for (g = ct_top_command.groups; g->opts; g++)
		for (rg = ct_record_command.groups; rg->opts; rg++)
			if (g->opts == rg->opts)
				options = 0;
	CT_CHECK_INT(options, 0);
	text = NULL;
	f = open_memstream(&text, &len);
	ct_commands_help(cmds, 2, f);
	fclose(f);
	CT_CHECK(strstr(text, "  record     trace events") != NULL);
	CT_CHECK(strstr(text, "  top        a live overview") != NULL);
	CT_CHECK(strstr(text, "  report ") == NULL);
	free(text);
}

void test_cli(void)
{
	test_option_tables();
	test_events_arg();
	test_filters_args();
	test_record_filters();
	test_other_commands();
	test_seconds();
	test_sizes();
	test_record_args();
	test_stacks_args();
	test_always_on_args();
	test_report_args();
	test_view_args();
}
