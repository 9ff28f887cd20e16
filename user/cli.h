/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing for coretrace, kept free of BPF so it can be tested. */
#ifndef CORETRACE_CLI_H
#define CORETRACE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cgroup.h"
#include "ct_control.h"
#include "events.h"
#include "options.h"

#define CT_DEFAULT_BUFFER_SIZE	(4u << 20)
#define CT_MIN_BUFFER_SIZE	4096u
#define CT_MAX_BUFFER_SIZE	(1u << 30)

/* exit codes */
#define CT_EXIT_OK		0
#define CT_EXIT_FAILURE		1	/* runtime: no privileges, no BTF... */
#define CT_EXIT_USAGE		2	/* bad command line */

#define CT_PID_MAX		CT_PID_LIMIT	/* the kernel's PID_MAX_LIMIT */

_Static_assert(CT_EV_MAX <= 64, "event masks are 64 bits");

/* Where the programs' record layouts come from (--btf, --btf-from-formats) */
struct ct_layout_opts {
	const char *btf_file;	/* a BTF file (raw or ELF), or NULL */
	bool from_formats;	/* build it from the tracefs format files */
};

struct ct_record_opts {
	double duration;	/* seconds, 0: until SIGINT/SIGTERM */
	struct ct_layout_opts layout;
	uint32_t buffer_size;	/* ring buffer bytes (per ring), a power of two */
	enum ct_format format;
	int verbose;
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
	bool per_cpu_rings;	/* --per-cpu-rings */
	bool wakeup_always;	/* --wakeup=always */
	double top_interval;	/* coretrace top: refresh period, 0: record */
	unsigned int top_rows;	/* coretrace top: rows, 0: what fits */
	bool top_by_cgroup;	/* coretrace top --by cgroup */
	bool aggregate;		/* coretrace serve: add up in maps, no records */
	uint32_t agg_cgroups;	/* serve: groups with sums of their own */
};

bool ct_triggers_on(const struct ct_trigger_opts *t);

/* coretrace serve */
#define CT_SERVE_LISTEN		":9476"
#define CT_SERVE_PATH		"/metrics"
#define CT_SERVE_MAX_CGROUPS	256

struct ct_serve_opts {
	const char *listen;		/* --web.listen-address */
	const char *path;		/* --web.telemetry-path */
	unsigned int max_cgroups;	/* --max-cgroups */
	double duration;		/* -d: seconds, 0: until SIGINT/SIGTERM */
	int verbose;
	struct ct_layout_opts layout;
};

struct ct_list_opts {
	int verbose;
};

struct ct_check_opts {
	bool json;
	struct ct_layout_opts layout;
};

/* what `coretrace report` prints */
enum ct_report_view {
	CT_VIEW_RECORDS,	/* every record, as record prints them */
	CT_VIEW_TOP,		/* the powertop-like overview */
	CT_VIEW_LATENCY,	/* perf sched latency's table */
	CT_VIEW_TIMEHIST,	/* perf sched timehist's lines */
};

enum ct_report_out {
	CT_REPORT_TEXT,
	CT_REPORT_JSON,
	CT_REPORT_CSV,		/* --top only */
	CT_REPORT_HTML,		/* --top only */
};

struct ct_report_opts {
	const char *dir;
	enum ct_report_view view;
	enum ct_report_out out;
	unsigned int rows;	/* --top: rows shown, 0 for all */
	bool rows_set;		/* -n was given */
	bool by_cgroup;		/* --by cgroup: --top and --latency per group */
	bool by_set;		/* --by was given */
};

#define CT_REPORT_TOP_ROWS	20	/* --top's rows without -n */

/* "2", "0.5", "1.5s", "200ms", "3m": positive, at most a day */
int ct_parse_seconds(const char *arg, double *seconds);
/* "65536", "64K", "4M", "1G" (binary units) */
int ct_parse_size(const char *arg, uint64_t *bytes);
/* round up to a power of two within the ring buffer's limits */
int ct_ring_size(uint64_t requested, uint32_t *size);
/*
 * "sched_switch,irq:*,timer:hrtimer_expire_entry", "all": the events to
 * trace as a mask of 1 << type. On error, one sentence naming the bad
 * item and the valid ones goes to @err.
 */
int ct_parse_events(const char *arg, uint64_t *mask, FILE *err);
/* "0,2-3": CPUs into @cpus (CT_MAX_CPUS flags) */
int ct_parse_cpus(const char *arg, uint8_t *cpus);
/* a pid or tid: 1 .. CT_PID_MAX */
int ct_parse_pid(const char *arg, uint32_t *pid);
/* "bash" or "kworker*": a task name to match, 1..15 bytes */
int ct_parse_comm(const char *arg, char *comm, uint32_t *len, bool *prefix);
/* every event that has a tracepoint */
uint64_t ct_all_events(void);

/* Parse `record`'s options (argv[0] is "record"). */
int ct_parse_record_args(int argc, char **argv, struct ct_record_opts *opts,
			 FILE *out, FILE *err);

/* Parse `list`'s options (argv[0] is "list"). */
int ct_parse_list_args(int argc, char **argv, struct ct_list_opts *opts,
		       FILE *out, FILE *err);
/* Parse `check`'s options (argv[0] is "check"). */
int ct_parse_check_args(int argc, char **argv, struct ct_check_opts *opts,
			FILE *out, FILE *err);
/* Parse `report`'s options (argv[0] is "report"). */
int ct_parse_report_args(int argc, char **argv, struct ct_report_opts *opts,
			 FILE *out, FILE *err);
/* Parse `version`'s options: only --help. */
int ct_parse_version_args(int argc, char **argv, FILE *out, FILE *err);

/* Parse `top`'s options into a record session that feeds the overview. */
int ct_parse_top_args(int argc, char **argv, struct ct_record_opts *opts,
		      FILE *out, FILE *err);
struct ct_timechart_opts;
struct ct_convert_opts;
/* Parse `convert`'s options. */
int ct_parse_convert_args(int argc, char **argv, struct ct_convert_opts *opts,
			  FILE *out, FILE *err);
/* Parse `timechart`'s options. */
int ct_parse_timechart_args(int argc, char **argv, struct ct_timechart_opts *opts,
			    FILE *out, FILE *err);
/* A decimal count ("20"); 0 or -EINVAL. */
int ct_parse_count(const char *arg, unsigned int *count);

/* Each command's description and options (cli.c) */
extern const struct ct_command ct_record_command, ct_top_command,
	ct_report_command, ct_timechart_command, ct_convert_command,
	ct_list_command, ct_check_command, ct_version_command,
	ct_serve_command;
/*
 * Flushes and closes @f (NULL: stdout, flushed and checked, left open);
 * a write error is one line "WHO: writing WHAT failed: reason" on stderr.
 * 0, or -1 after saying why.
 */
int ct_close_output(FILE *f, const char *who, const char *what);

#endif /* CORETRACE_CLI_H */
