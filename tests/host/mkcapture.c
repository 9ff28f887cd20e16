// SPDX-License-Identifier: GPL-2.0
/*
 * mkcapture: write a synthetic coretrace capture, for the host tests and
 * benchmarks (babeltrace2 cross-checks, report and decode throughput).
 * A seeded simulation of CPUS CPUs running a pool of tasks: switches
 * whose prev is the CPU's current task, wakeups, idle, interrupts,
 * softirqs, timers, work items and process events, every record type at
 * least once, on one clock shared by the CPUs. Halfway, the machine goes
 * quiet for 5 s, so every stream needs an extended event header. Its 64
 * timer and work functions are named in the capture (coretrace_ksym).
 * Prints "EVENT COUNT" per CTF event name: the records it fed the writer,
 * counted here, not by the writer. -x names task 1003 with a terminal
 * escape sequence and a newline, as any process can name itself. Each
 * -l CPU:COUNT says CPU lost COUNT records (its packets' events_discarded).
 *
 *   mkcapture [-n RECORDS] [-c CPUS] [-s SEED] [-x] [-l CPU:COUNT]... DIR
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture/ctf.h"

#define MK_TASKS	48
#define MK_IRQS		4

struct mk_state {
	struct ct_ctf ctf;
	struct ct_comm_cache comms;
	uint64_t clock;			/* ns, shared by the CPUs */
	uint32_t *current;		/* per CPU */
	uint64_t left, rng;
	uint64_t fed[CT_EV_MAX];	/* records given to the writer */
	int ncpus;
	bool hostile_name;
};

static uint32_t mk_rand(struct mk_state *m, uint32_t below)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return (uint32_t)(m->rng % below);
}

static uint32_t mk_task(struct mk_state *m)
{
	return 1000 + mk_rand(m, MK_TASKS);
}

/*
 * A record of @type on @cpu, time moving on by up to @step_us
 * microseconds shared among the CPUs (a busy machine: each CPU's events
 * come that often).
 */
static union ct_record *mk_rec(struct mk_state *m, union ct_record *r,
			       int type, int cpu, uint32_t step_us)
{
	memset(r, 0, sizeof(*r));
	m->clock += 1000ull * (1 + mk_rand(m, step_us)) / (uint64_t)m->ncpus;
	ct_set_ts(r, m->clock);
	r->hdr.type = (uint8_t)type;
	r->hdr.cpu = (uint16_t)cpu;
	return r;
}

static void mk_emit(struct mk_state *m, const union ct_record *r)
{
	if (!m->left)
		return;
	if (r->hdr.type == CT_EV_COMM)
		ct_comm_cache_set(&m->comms, r->comm.pid, r->comm.comm);
	ct_ctf_add(&m->ctf, r, 0);
	m->fed[r->hdr.type]++;
	m->left--;
}

/* names for the 64 function addresses mk_function() uses */
static struct ct_ksyms *mk_ksyms(struct ct_ksyms *ks)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int i;

	memset(ks, 0, sizeof(*ks));
	if (!f)
		return NULL;
	for (i = 0; i < 64; i++)
		fprintf(f, "%llx t mk_function_%d\n",
			0xffffffff81000000ull + 16ull * (unsigned int)i, i);
	fclose(f);
	f = fmemopen(text, len, "r");
	if (!f || ct_ksyms_load(ks, f))
		ks = NULL;
	if (f)
		fclose(f);
	free(text);
	return ks;
}

#define MK_GROUPS	4
static const char *const mk_group_paths[MK_GROUPS] = {
	"/", "/system.slice", "/system.slice/db.service", "/user.slice",
};

static uint64_t mk_group_id(int i)
{
	return i ? 4000 + 97 * (uint64_t)i : 1;
}

static void mk_names(struct mk_state *m)
{
	static const char *const irq_names[MK_IRQS] = { "timer", "virtio0", "eth0", "ahci" };
	union ct_record r;
	int i;

	for (i = 0; i < MK_TASKS; i++) {
		mk_rec(m, &r, CT_EV_COMM, 0, 1);
		r.comm.pid = 1000 + (uint32_t)i;
		snprintf(r.comm.comm, sizeof(r.comm.comm), "task-%d", i);
		if (i == 3 && m->hostile_name)
			memcpy(r.comm.comm, "ev\033]0;il\007\n\033[2J", 15);
		mk_emit(m, &r);
	}
	/* cgroup v2 groups (ids as inode numbers are), each task in one */
	for (i = 0; i < MK_GROUPS; i++) {
		mk_rec(m, &r, CT_EV_CGROUP_NAME, 0, 1);
		r.cgroup_name.cgroup_id = mk_group_id(i);
		r.cgroup_name.level = i ? (i == 2 ? 2 : 1) : 0;
		snprintf(r.cgroup_name.path, sizeof(r.cgroup_name.path), "%s",
			 mk_group_paths[i]);
		mk_emit(m, &r);
	}
	for (i = 0; i < MK_TASKS; i++) {
		mk_rec(m, &r, CT_EV_TASK_CGROUP, 0, 1);
		r.task_cgroup.pid = 1000 + (uint32_t)i;
		r.task_cgroup.cgroup_id = mk_group_id(i % MK_GROUPS);
		mk_emit(m, &r);
	}
	for (i = 0; i < MK_IRQS; i++) {
		mk_rec(m, &r, CT_EV_IRQ_NAME, 0, 1);
		r.irq_name.irq = (uint32_t)i + 1;
		snprintf(r.irq_name.name, sizeof(r.irq_name.name), "%s", irq_names[i]);
		mk_emit(m, &r);
	}
}

static void mk_switch(struct mk_state *m, int cpu)
{
	union ct_record r;
	uint32_t next = mk_rand(m, 4) ? mk_task(m) : 0;
	char name[CT_COMM_LEN + 16];

	mk_rec(m, &r, CT_EV_SCHED_SWITCH, cpu, 200);
	r.sched_switch.prev_pid = m->current[cpu];
	r.sched_switch.next_pid = next;
	/* the kernel's name of the task switched in, as BPF copies it */
	snprintf(r.sched_switch.next_comm, sizeof(r.sched_switch.next_comm),
		 "%s", ct_comm_name(&m->comms, next, (unsigned int)cpu, name,
				    sizeof(name)));
	r.sched_switch.prev_state = (uint16_t)mk_rand(m, 2);
	r.sched_switch.prev_prio = 120;
	r.sched_switch.next_prio = 120;
	mk_emit(m, &r);
	m->current[cpu] = next;
	if (!next) {
		mk_rec(m, &r, CT_EV_CPU_IDLE, cpu, 5);
		r.cpu_idle.state = 1;
		r.cpu_idle.cpu_id = (uint32_t)cpu;
		mk_emit(m, &r);
		mk_rec(m, &r, CT_EV_CPU_IDLE, cpu, 300);
		r.cpu_idle.state = CT_IDLE_EXIT;
		r.cpu_idle.cpu_id = (uint32_t)cpu;
		mk_emit(m, &r);
	}
}

static void mk_wakeup(struct mk_state *m, int cpu)
{
	union ct_record r;
	uint32_t pid = mk_task(m);
	uint16_t target = (uint16_t)mk_rand(m, (uint32_t)m->ncpus);
	int type;

	for (type = CT_EV_SCHED_WAKING; ; type = CT_EV_SCHED_WAKEUP) {
		mk_rec(m, &r, type, cpu, 3);
		r.wakeup.pid = pid;
		r.wakeup.target_cpu = target;
		r.wakeup.prio = 120;
		mk_emit(m, &r);
		if (type == CT_EV_SCHED_WAKEUP)
			break;
	}
}

static void mk_interrupt(struct mk_state *m, int cpu)
{
	union ct_record r;
	uint32_t irq = 1 + mk_rand(m, MK_IRQS), vec = mk_rand(m, 10);

	mk_rec(m, &r, CT_EV_IRQ_HANDLER_ENTRY, cpu, 50);
	r.irq_entry.irq = irq;
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_IRQ_HANDLER_EXIT, cpu, 10);
	r.irq_exit.irq = irq;
	r.irq_exit.ret = 1;
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SOFTIRQ_ENTRY, cpu, 5);
	r.softirq.vec = vec;
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SOFTIRQ_EXIT, cpu, 20);
	r.softirq.vec = vec;
	mk_emit(m, &r);
}

/* a timer, hrtimer or work function that runs and ends */
static void mk_function(struct mk_state *m, int cpu)
{
	static const int types[][2] = {
		{ CT_EV_TIMER_EXPIRE_ENTRY, CT_EV_TIMER_EXPIRE_EXIT },
		{ CT_EV_HRTIMER_EXPIRE_ENTRY, CT_EV_HRTIMER_EXPIRE_EXIT },
		{ CT_EV_WORKQUEUE_EXECUTE_START, CT_EV_WORKQUEUE_EXECUTE_END },
	};
	uint32_t kind = mk_rand(m, 3);
	uint64_t object = 0xffff888000000000ull + 64 * mk_rand(m, 256);
	union ct_record r;

	mk_rec(m, &r, types[kind][0], cpu, 100);
	r.timer_entry.function = 0xffffffff81000000ull + 16 * mk_rand(m, 64);
	r.timer_entry.timer = object;
	mk_emit(m, &r);
	mk_rec(m, &r, types[kind][1], cpu, 20);
	r.timer_exit.timer = object;
	mk_emit(m, &r);
}

/* fork, exec, rename, migrate, exit of a short-lived child */
static void mk_process(struct mk_state *m, int cpu)
{
	uint32_t parent = mk_task(m), child = 5000 + mk_rand(m, 30000);
	union ct_record r;

	mk_rec(m, &r, CT_EV_SCHED_PROCESS_FORK, cpu, 100);
	r.fork.parent_pid = parent;
	r.fork.child_pid = child;
	snprintf(r.fork.child_comm, sizeof(r.fork.child_comm), "task-%u", parent - 1000);
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SCHED_WAKEUP_NEW, cpu, 5);
	r.wakeup.pid = child;
	r.wakeup.prio = 120;
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SCHED_PROCESS_EXEC, cpu, 100);
	r.exec.pid = child;
	r.exec.old_pid = child;
	strcpy(r.exec.filename, "/usr/bin/true");
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_TASK_RENAME, cpu, 5);
	r.task_rename.pid = child;
	strcpy(r.task_rename.newcomm, "true");
	mk_emit(m, &r);
	/* moved to another group (as by cgroup.procs) */
	mk_rec(m, &r, CT_EV_TASK_CGROUP, cpu, 5);
	r.task_cgroup.pid = child;
	r.task_cgroup.cgroup_id = mk_group_id((int)mk_rand(m, MK_GROUPS));
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SCHED_MIGRATE_TASK, cpu, 5);
	r.migrate.pid = child;
	r.migrate.orig_cpu = (uint16_t)cpu;
	r.migrate.dest_cpu = (uint16_t)((cpu + 1) % m->ncpus);
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_SCHED_PROCESS_EXIT, cpu, 100);
	r.exit.pid = child;
	r.exit.prio = 120;
	mk_emit(m, &r);
	mk_rec(m, &r, CT_EV_CPU_FREQUENCY, cpu, 5);
	r.cpu_frequency.state = 1000000 + 100000 * mk_rand(m, 20);
	r.cpu_frequency.cpu_id = (uint32_t)cpu;
	mk_emit(m, &r);
}

static void mk_run(struct mk_state *m, uint64_t records)
{
	uint64_t half = records / 2;
	int cpu, step;

	mk_names(m);
	while (m->left) {
		cpu = (int)mk_rand(m, (uint32_t)m->ncpus);
		if (m->left <= half) {
			m->clock += 5000000000ull;	/* 5 s without events */
			half = 0;
		}
		step = (int)mk_rand(m, 100);
		if (step < 45)
			mk_switch(m, cpu);
		else if (step < 75)
			mk_wakeup(m, cpu);
		else if (step < 90)
			mk_interrupt(m, cpu);
		else if (step < 98)
			mk_function(m, cpu);
		else
			mk_process(m, cpu);
	}
}

int main(int argc, char **argv)
{
	struct ct_ctf_env env = { "6.1.0-synthetic", "mkcapture", 0 };
	struct mk_state m = { .ncpus = 4, .rng = 88172645463325252ull };
	uint64_t records = 100000;
	struct ct_ksyms ksyms;
	uint64_t lost[64] = { 0 };
	unsigned int lost_cpu;
	char *end;
	int opt, i;

	while ((opt = getopt(argc, argv, "n:c:s:xl:")) != -1) {
		switch (opt) {
		case 'n':
			records = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			m.ncpus = atoi(optarg);
			break;
		case 's':
			m.rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'x':
			m.hostile_name = true;
			break;
		case 'l':
			lost_cpu = (unsigned int)strtoul(optarg, &end, 10);
			if (*end != ':' || lost_cpu >= 64)
				goto usage;
			lost[lost_cpu] = strtoull(end + 1, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || m.ncpus < 2 || m.ncpus > 1024 || records < 1000)
		goto usage;
	m.current = calloc((size_t)m.ncpus, sizeof(*m.current));
	if (!m.current || ct_comm_cache_init(&m.comms, 4096))
		return 1;
	m.clock = 1000000000ull;
	if (ct_ctf_open(&m.ctf, argv[optind], m.ncpus, &env, NULL)) {
		perror(argv[optind]);
		return 1;
	}
	m.ctf.ksyms = mk_ksyms(&ksyms);
	m.left = records;
	mk_run(&m, records);
	for (i = 0; i < CT_EV_MAX; i++)
		printf("%s %llu\n", ct_events[i].ctf_name,
		       (unsigned long long)m.fed[i]);
	printf("coretrace_ksym %llu\n", (unsigned long long)m.ctf.ksym_events);
	for (i = 0; i < m.ncpus && i < 64; i++)
		if (lost[i])
			ct_ctf_set_discarded(&m.ctf, i, lost[i]);
	if (ct_ctf_close(&m.ctf)) {
		fprintf(stderr, "mkcapture: writing %s failed\n", argv[optind]);
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: mkcapture [-n RECORDS>=1000] [-c CPUS>=2] [-s SEED] [-x] [-l CPU<64:COUNT]... DIR\n");
	return 2;
}
