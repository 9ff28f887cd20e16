/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyses behind `coretrace top` and `coretrace report`: fed one
 * decoded record at a time, the same way live and from a capture. State
 * is per task, CPU, interrupt and function, in tables sized once at the
 * start: memory does not grow with the number of records.
 */
#ifndef CORETRACE_ANALYSIS_H
#define CORETRACE_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include "model/events.h"

#define CT_AN_CSTATES		10	/* C-state indexes 0..9 */
/*
 * Distinct frequencies kept per CPU, in order of appearance: cpufreq
 * drivers report tens; past this many, the rest add up in one row, khz
 * CT_AN_FREQ_OTHER (bounded work per record on a hostile capture).
 */
#define CT_AN_FREQS		1024
#define CT_AN_FREQ_OTHER	UINT32_MAX
#define CT_AN_SOFTIRQS		10
#define CT_AN_IRQS		256
#define CT_AN_FUNCS		4096	/* per kind of function */
#define CT_AN_GROUPS		1024	/* cgroups, a power of two */

/* the functions the analyses count: timers, hrtimers, work items */
enum ct_an_func_kind {
	CT_AN_TIMER,
	CT_AN_HRTIMER,
	CT_AN_WORK,
	CT_AN_FUNC_KINDS,
};

/*
 * A cgroup: what its tasks did while they were in it. A task whose group
 * was never announced is in none; when its group is first announced,
 * what it did so far is credited to that group (a task announced at its
 * first switch-out has been in its group since it was forked).
 */
struct ct_an_group {
	uint64_t id;
	bool used;
	uint32_t tasks;		/* tasks that were in it */
	/* this window */
	uint64_t runtime_ns, switches, wakeups;
	/* whole run */
	uint64_t total_runtime_ns, total_switches, total_wakeups;
	uint64_t delay_sum_ns, delay_max_ns, delay_max_at, delays;
	uint32_t delay_max_tid;
};

/* record -g: where a task left the CPU, and who woke it from where */
struct ct_an_stacks {
	uint32_t kstack, ustack;		/* its stack when it left */
	uint32_t waker, waker_kstack, waker_ustack;
	bool woken;				/* the waker's are known */
};

struct ct_an_task {
	uint32_t tid;
	bool used;
	bool running;		/* on a CPU now */
	bool woken;		/* a wakeup waits for a switch-in */
	/* this window */
	uint64_t runtime_ns;
	uint64_t switches;	/* times switched in */
	uint64_t wakeups;	/* times woken (sched_wakeup, _new) */
	/* whole run: scheduling delay, wakeup to switch-in */
	uint64_t delay_sum_ns, delay_max_ns, delay_max_at, delays;
	uint64_t total_runtime_ns, total_switches, total_wakeups;
	/* state */
	uint64_t woken_at, in_at, out_at;
	uint64_t run_delay_ns, run_wait_ns;	/* of the current run */
	uint64_t group;		/* cgroup id, once a task_cgroup named it */
	struct ct_an_group *grp;	/* @group's figures, NULL before */
	struct ct_an_stacks wait_stacks;	/* of its wait now, or last */
	struct ct_an_stacks max_stacks;		/* of its longest delay */
};

struct ct_an_freq {
	uint32_t khz;
	uint64_t ns;
};

struct ct_an_cpu {
	bool seen;
	uint64_t lost;		/* records the capture says it lost here */
	uint32_t current;	/* tid on the CPU */
	bool has_current;
	uint64_t current_since;
	uint32_t idle;		/* C-state, CT_IDLE_EXIT when busy */
	uint64_t idle_since;
	uint64_t cstate_ns[CT_AN_CSTATES];
	uint64_t busy_ns;	/* not in a C-state */
	uint32_t khz;		/* 0 until a cpu_frequency record */
	uint64_t khz_since;
	struct ct_an_freq *freqs;	/* nfreqs of them, grown as seen */
	uint32_t nfreqs, freqs_cap;
	bool in_irq, in_softirq;
	uint32_t irq, softirq;
	uint64_t irq_since, softirq_since;
};

/* a timer or work function running now, for the object it runs for */
#define CT_AN_RUNNING		64

struct ct_an_running {
	uint64_t object;	/* the timer, hrtimer or work item */
	uint64_t function;
	uint64_t since;
	enum ct_an_func_kind kind;
	bool used;
};

/* an interrupt, a softirq vector or a timer/work function */
struct ct_an_source {
	uint64_t key;		/* irq number, vector, or function address */
	bool used;
	uint64_t events;
	uint64_t busy_ns;
};

struct ct_analysis {
	struct ct_an_task *tasks;
	uint32_t task_mask;		/* capacity - 1 */
	uint64_t tasks_dropped;		/* not tracked: the table was full */
	struct ct_an_group *groups;	/* CT_AN_GROUPS of them */
	uint64_t groups_dropped;	/* task moves into groups not tracked */
	struct ct_an_cpu *cpus;
	int ncpus;
	struct ct_an_source irqs[CT_AN_IRQS];
	struct ct_an_source softirqs[CT_AN_SOFTIRQS];
	/* timers, hrtimers and work items, keyed by function address */
	struct ct_an_source funcs[CT_AN_FUNC_KINDS][CT_AN_FUNCS];
	struct ct_an_running running[CT_AN_RUNNING];
	uint64_t functions_untimed;	/* entries with no room to be timed */
	uint64_t window_start, last_ts;
	uint64_t last_switch;		/* task states are known up to here */
	uint64_t records;
	uint64_t lost;			/* records lost, all CPUs */
	/* called when a task leaves a CPU, before its state moves on */
	void (*run_end)(void *ctx, const struct ct_an_task *task,
			unsigned int cpu, uint64_t ts);
	void *run_end_ctx;
};

/* Tables for @ncpus CPUs and about @tasks tasks; 0 or -ENOMEM. */
int ct_analysis_init(struct ct_analysis *a, int ncpus, uint32_t tasks);
void ct_analysis_free(struct ct_analysis *a);

/* One record, in time order per CPU. */
void ct_analysis_feed(struct ct_analysis *a, const union ct_record *rec);

/*
 * Credit what is still going on (running tasks, idle states, frequencies,
 * interrupts) up to @now, so a window's figures are complete.
 */
void ct_analysis_settle(struct ct_analysis *a, uint64_t now);
/* Start a new window at @now: the per-window counters go back to zero. */
void ct_analysis_new_window(struct ct_analysis *a, uint64_t now);

/* The task's slot, or NULL. */
const struct ct_an_task *ct_analysis_task(const struct ct_analysis *a,
					  uint32_t tid);

/* @t's figures so far added to @g's (not its task count) */
void ct_analysis_group_add(struct ct_an_group *g, const struct ct_an_task *t);

/* The group's slot, or NULL. */
const struct ct_an_group *ct_analysis_group(const struct ct_analysis *a,
					    uint64_t id);

#endif /* CORETRACE_ANALYSIS_H */
