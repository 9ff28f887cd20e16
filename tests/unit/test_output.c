// SPDX-License-Identifier: GPL-2.0
/* The shared names and record's outputs (user/output.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ct_test.h"
#include "capture/ctf_read.h"
#include "model/output.h"
#include "capture/capture_output.h"
#include "views/lines.h"

static char why[CT_OUTDIR_WHY];	/* a refused directory's sentence */

/* an output that notes whether pid 42's name was known when fed */
struct probe {
	struct ct_output out;
	int fed;
	bool named_when_fed;
};

static int probe_feed(struct ct_output *out, const union ct_record *rec)
{
	struct probe *p = (struct probe *)out;

	(void)rec;
	p->fed++;
	p->named_when_fed = ct_comm_cache_get(&out->names->comms, 42) != NULL;
	return 0;
}

static int probe_close(struct ct_output *out)
{
	(void)out;
	return 0;
}

static union ct_record comm_record(uint32_t pid, const char *name)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.comm.type = CT_EV_COMM;
	r.comm.pid = pid;
	snprintf(r.comm.comm, sizeof(r.comm.comm), "%s", name);
	return r;
}

static union ct_record switch_record(uint16_t cpu, uint64_t ts)
{
	union ct_record r;

	memset(&r, 0, sizeof(r));
	r.sched_switch.type = CT_EV_SCHED_SWITCH;
	r.sched_switch.cpu = cpu;
	ct_set_ts(&r.sched_switch, ts);
	r.sched_switch.prev_pid = 42;
	r.sched_switch.next_pid = 43;
	return r;
}

/* names are learnt before or after the feed, as the output asks */
static void test_names_order(void)
{
	static const struct ct_output_ops after = {
		.feed = probe_feed,	/* no close: optional */
	};
	static const struct ct_output_ops before = {
		.feed = probe_feed, .close = probe_close, .names_first = true,
	};
	const struct ct_output_ops *ops[] = { &after, &before };
	union ct_record r = comm_record(42, "ct-named");
	struct ct_names names;
	struct probe *p;
	bool quiet = true;
	int i;

	for (i = 0; i < 2; i++) {
		CT_CHECK_INT(ct_names_init(&names, 64), 0);
		p = calloc(1, sizeof(*p));
		CT_CHECK(p != NULL);
		p->out.ops = ops[i];
		p->out.names = &names;
		CT_CHECK_INT(ct_output_feed(&p->out, &r), 0);
		CT_CHECK_INT(p->fed, 1);
		CT_CHECK_INT(p->named_when_fed, i == 1);
		CT_CHECK(ct_comm_cache_get(&names.comms, 42) != NULL);
		CT_CHECK_INT(ct_output_tick(&p->out, 1), 0);	/* no tick op */
		CT_CHECK(!ct_output_counts_losses(&p->out));
		CT_CHECK_INT(ct_output_close(&p->out, &quiet), 0);
		CT_CHECK(!quiet);
		ct_names_free(&names);
	}
}

/* did the tables learn anything from a record whose every field is 5s? */
static bool learnt_fives(const struct ct_names *names)
{
	const uint32_t five = 0x05050505;

	return ct_comm_cache_get(&names->comms, five) ||
	       ct_irq_names_get(&names->irqs, five) ||
	       ct_cgroup_task(&names->cgroups, five) ||
	       ct_cgroup_path(&names->cgroups, 0x0505050505050505ull);
}

/*
 * CT_NAME_RECORDS, the shortcut of every feed, is exactly the set of
 * records the name tables learn from: each type is given to the learners
 * themselves, a record of 5s naming pid, irq and group 0x05050505...
 */
static void test_name_records(void)
{
	struct ct_names names;
	union ct_record rec;
	int type, naming = 0;

	for (type = 0; type < CT_EV_MAX; type++) {
		CT_CHECK_INT(ct_names_init(&names, 64), 0);
		memset(&rec, 5, sizeof(rec));
		rec.hdr.type = (uint8_t)type;
		rec.hdr.flags = 0;
		ct_learn_names(&rec, &names.comms, &names.irqs);
		ct_cgroup_learn(&names.cgroups, type, &rec);
		if (learnt_fives(&names) != ct_record_names(&rec))
			fprintf(stderr, "record type %d (%s): learnt %d, CT_NAME_RECORDS %d\n",
				type, ct_events[type].name, learnt_fives(&names),
				ct_record_names(&rec));
		CT_CHECK_INT(learnt_fives(&names), ct_record_names(&rec));
		naming += ct_record_names(&rec);
		ct_names_free(&names);
	}
	CT_CHECK_INT(naming, 6);	/* comm, rename, fork, irq, task and group */
}

/* lines: written, a full disk stops the session loudly, a closed pipe quietly */
static void test_lines(void)
{
	union ct_record r = switch_record(1, 2000003000);
	struct ct_names names;
	struct ct_output *out;
	char buf[512];
	bool quiet = true;
	FILE *f;
	int fds[2];
	size_t n;

	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	f = tmpfile();
	CT_CHECK(f != NULL);
	out = ct_lines_output(f, CT_FORMAT_JSON, &names, "unit");
	CT_CHECK(out != NULL);
	CT_CHECK_INT(ct_output_feed(out, &r), 0);
	CT_CHECK_INT(ct_output_tick(out, 1), 0);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	CT_CHECK(!quiet);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	CT_CHECK(strstr(buf, "\"event\":\"sched_switch\"") != NULL);
	CT_CHECK(n > 0 && buf[n - 1] == '\n');
	fclose(f);

	f = fopen("/dev/full", "w");
	CT_CHECK(f != NULL);
	if (f) {
		out = ct_lines_output(f, CT_FORMAT_TEXT, &names, "unit");
		CT_CHECK_INT(ct_output_feed(out, &r), 0);
		CT_CHECK_INT(ct_output_tick(out, 1), 1);	/* says so, stops */
		CT_CHECK_INT(ct_output_close(out, &quiet), -EIO);
		CT_CHECK(!quiet);
		fclose(f);
	}

	signal(SIGPIPE, SIG_IGN);
	CT_CHECK_INT(pipe(fds), 0);
	close(fds[0]);
	f = fdopen(fds[1], "w");
	CT_CHECK(f != NULL);
	out = ct_lines_output(f, CT_FORMAT_TEXT, &names, "unit");
	CT_CHECK_INT(ct_output_feed(out, &r), 0);
	CT_CHECK_INT(ct_output_tick(out, 1), 1);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	CT_CHECK(quiet);				/* the reader went away */
	fclose(f);
	signal(SIGPIPE, SIG_DFL);
	ct_names_free(&names);
}

static void count_record(const union ct_record *rec, void *ctx)
{
	(void)rec;
	(*(int *)ctx)++;
}

/* a capture: what was fed, and the ring's losses, read back */
static void test_capture(void)
{
	char dir[] = "/tmp/ct-unit-output-XXXXXX", cmd[300];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_names names;
	struct ct_ctf_reader reader;
	struct ct_output *out;
	union ct_record r;
	bool quiet = true;
	int err = 0, i, count = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	out = ct_capture_output(dir, 2, &env, NULL, &names, 1000, &err, why);
	CT_CHECK(out != NULL);
	CT_CHECK_INT(err, 0);
	if (!out)
		return;
	CT_CHECK(ct_output_counts_losses(out));
	r = comm_record(43, "ct-next");
	CT_CHECK_INT(ct_output_feed(out, &r), 0);
	for (i = 0; i < 10; i++) {
		r = switch_record((uint16_t)(i % 2), 5000 + (uint64_t)i);
		CT_CHECK_INT(ct_output_feed(out, &r), 0);
	}
	CT_CHECK_INT(ct_output_tick(out, 2000), 0);
	ct_output_losses(out, 1, 7);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	CT_CHECK(!quiet);
	CT_CHECK_INT(ct_ctf_reader_open(&reader, dir), 0);
	CT_CHECK_INT(ct_ctf_reader_run(&reader, count_record, &count), 0);
	CT_CHECK_INT(count, 11);
	CT_CHECK_INT(reader.records, 11);
	CT_CHECK_INT(reader.lost[1], 7);
	CT_CHECK_INT(reader.lost_total, 7);
	snprintf(cmd, sizeof(cmd), "grep -q ct-next %s/stream_0 && rm -rf %s", dir, dir);
	CT_CHECK_INT(system(cmd), 0);

	/* a directory that cannot be made: no output, the reason */
	out = ct_capture_output("/proc/ct-no-such/dir", 2, &env, NULL, &names, 1, &err, why);
	CT_CHECK(out == NULL);
	CT_CHECK(err < 0);
	ct_names_free(&names);
}

void test_output(void)
{
	test_names_order();
	test_name_records();
	test_lines();
	test_capture();
}
