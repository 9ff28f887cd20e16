/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader (loader.c): open, configure, load and attach the BPF
 * programs a recording or serve asks for, and hand over their rings and
 * counters. Every function that fails says why in one sentence on stderr.
 */
#ifndef CORETRACE_LOADER_H
#define CORETRACE_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "ct_control.h"
#include "loader/objopen.h"
#include "model/args.h"
#include "model/cgroup.h"

struct coretrace_bpf;		/* the skeleton (coretrace.skel.h) */

/* What to load, and how: the options of record and top (serve makes one) */
/*
 * What record, top and serve share, defined once and embedded in each
 * one's options; one setter fills it (ct_set_session)
 */
struct ct_session_opts {
	double duration;	/* seconds, 0: until SIGINT/SIGTERM */
	int verbose;
	struct ct_layout_opts layout;
	const char *user;	/* --user: who to run as once attached */
};

struct ct_record_opts {
	struct ct_session_opts session;	/* -d, -v, the layouts */
	uint32_t buffer_size;	/* ring buffer bytes (per ring), a power of two */
	enum ct_format format;
	uint64_t events;	/* 1 << type for each event to trace */
	uint32_t pid;		/* -p: process (tgid), 0 = any */
	uint32_t tid;		/* -t: thread, 0 = any */
	char comm[CT_COMM_LEN];	/* -c: name, "" = any */
	uint32_t comm_len;
	bool comm_prefix;	/* -c NAME*: NAME is a prefix */
	bool cpus_set;		/* -C given */
	uint8_t cpus[CT_MAX_CPUS];
	unsigned int ncgroups;	/* -G */
	bool no_cgroup_names;	/* --no-cgroup-names */
	struct ct_cgroup cgroups[CT_MAX_CGROUPS];
	const char *output_dir;	/* -o: a CTF capture instead of lines */
	uint64_t flight_bytes;	/* --flight-recorder: snapshots of this much */
	uint64_t chunk_bytes;	/* --chunk-size: -o rotated into chunks */
	double chunk_time;	/* --chunk-time, seconds */
	unsigned int max_chunks;	/* --max-chunks: chunks kept, 0 all */
	unsigned int file_mode;	/* --file-mode: bits of the files -o writes */
	struct ct_trigger_opts {
		uint64_t delay_ns;	/* --trigger-delay: 0 off */
		uint32_t pid, tid;	/* --trigger-pid/-tid: its scope */
		uint64_t irq_ns;	/* --trigger-irq: 0 off */
		char exec[CT_COMM_LEN];	/* --trigger-exec NAME: "" off */
		uint32_t exec_len;
		double before;		/* seconds kept before; 0: all held */
		double after;		/* seconds recorded after */
		double cooldown;	/* seconds between two triggers */
		unsigned int max;	/* triggers in a recording, 0: no limit */
	} trigger;
	uint32_t stacks;	/* -g, --call-graph: CT_STACK_* bits */
	bool per_cpu_rings;	/* --per-cpu-rings */
	bool wakeup_always;	/* --wakeup=always */
	double top_interval;	/* coretrace top: refresh period, 0: record */
	unsigned int top_rows;	/* coretrace top: rows, 0: what fits */
	bool top_by_cgroup;	/* coretrace top --by cgroup */
	bool aggregate;		/* coretrace serve: add up in maps, no records */
	uint32_t agg_cgroups;	/* serve: groups with sums of their own */
};

/* Whether any trigger is asked for */
static inline bool ct_triggers_on(const struct ct_trigger_opts *t)
{
	return t->delay_ns || t->irq_ns || t->exec_len;
}

/*
 * Hits the kernel did not run a handler for: a tracepoint that fires while
 * another BPF program runs on the same CPU (an interrupt arriving during a
 * handler, or during a BPF map call of a process there) runs none of its
 * programs (trace_call_bpf). Linux counts such a hit in the programs'
 * recursion_misses from 6.7 on; before, nothing counts it, and how many
 * were missed cannot be told.
 */
#define CT_MISSES_MAJOR		6
#define CT_MISSES_MINOR		7

/*
 * Open, configure and load the programs @opts asks for (serve's with
 * opts->aggregate, the record handlers otherwise) into *@skel; 0, or a
 * negative errno after one sentence on stderr.
 */
int ct_loader_open(const struct ct_record_opts *opts,
		   struct coretrace_bpf **skel);
/* Attach every loaded program, then open the gate (ct_tracing) */
int ct_loader_attach(struct coretrace_bpf *skel);
/*
 * Triggers fire from now on, for what begins from now on (not for what
 * loading did to the machine); returns the time, CLOCK_MONOTONIC ns.
 */
uint64_t ct_loader_arm_triggers(struct coretrace_bpf *skel);
/* A map of the object: what the privilege drop asks the kernel about */
int ct_loader_map_fd(struct coretrace_bpf *skel);
/* Close the gate, then detach: no program records after the first stops */
void ct_loader_detach(struct coretrace_bpf *skel);
void ct_loader_close(struct coretrace_bpf *skel);

/* -G: the groups' threads now, into the map BPF keeps from then on */
int ct_loader_seed_cgroups(struct coretrace_bpf *skel,
			   const struct ct_record_opts *opts);

/* The ring (or one per CPU), each record to @sample(@ctx); NULL: errno */
struct ring_buffer *ct_loader_rings(struct coretrace_bpf *skel,
				    const struct ct_record_opts *opts,
				    ring_buffer_sample_fn sample, void *ctx);

/*
 * ct_stats mapped: a row of CT_STATS_STRIDE counts per CPU, *@ncpus rows,
 * *@bytes to munmap(); NULL with errno set.
 */
const struct ct_counts *ct_loader_counts(struct coretrace_bpf *skel,
					 int *ncpus, size_t *bytes);
/* Does the running kernel count the hits it skips (recursion_misses)? */
bool ct_loader_counts_misses(void);
/* The hits each event's program missed (@misses), and their sum */
unsigned long long ct_loader_misses(struct coretrace_bpf *skel,
				    unsigned long long misses[CT_EV_MAX]);
/*
 * The events the loaded programs trace (not those that only keep names up
 * to date), as "category/name", at most @max into @names; their number
 */
int ct_loader_traced(const struct coretrace_bpf *skel, const char **names,
		     int max);
/* Do the programs announce tasks' groups (the kernel has cgroup v2)? */
bool ct_loader_names_groups(const struct coretrace_bpf *skel);
/* The triggers' counts in BPF; 0 or -errno */
int ct_loader_trigger_state(struct coretrace_bpf *skel,
			    struct ct_trigger_state *st);

#endif /* CORETRACE_LOADER_H */
