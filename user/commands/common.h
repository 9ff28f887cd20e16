/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options several commands share (common.c): their ids, the groups
 * record and top both list, and the session options serve takes too.
 */
#ifndef CORETRACE_COMMON_H
#define CORETRACE_COMMON_H

#include <stdio.h>
#include "base/options.h"
#include "loader/loader.h"
#include "model/args.h"

/* the long options' ids, one list: groups are shared between commands */
enum {
	CT_OPT_PER_CPU_RINGS = 256,
	CT_OPT_WAKEUP,
	CT_OPT_FLIGHT,
	CT_OPT_CHUNK_SIZE,
	CT_OPT_CHUNK_TIME,
	CT_OPT_MAX_CHUNKS,
	CT_OPT_TRIG_DELAY,
	CT_OPT_TRIG_PID,
	CT_OPT_TRIG_TID,
	CT_OPT_TRIG_IRQ,
	CT_OPT_TRIG_EXEC,
	CT_OPT_TRIG_BEFORE,
	CT_OPT_TRIG_AFTER,
	CT_OPT_TRIG_COOLDOWN,
	CT_OPT_TRIG_MAX,
	CT_OPT_BY,
	CT_OPT_NO_CGROUP_NAMES,
	CT_OPT_PERFETTO,
	CT_OPT_JSON,
	CT_OPT_CSV,
	CT_OPT_HTML,
	CT_OPT_TOP,
	CT_OPT_LATENCY,
	CT_OPT_TIMEHIST,
	CT_OPT_BTF,
	CT_OPT_BTF_FORMATS,
	CT_OPT_LISTEN,
	CT_OPT_METRICS_PATH,
	CT_OPT_MAX_CGROUPS,
};

#define CT_LAYOUT_OPTS(setter)						\
	{ CT_OPT_BTF, "btf", "FILE", "relocate the programs against this BTF (raw,\n" \
	  "or an ELF file's .BTF; e.g. from pahole or\n"			\
	  "BTFHub) instead of the kernel's", setter },			\
	{ CT_OPT_BTF_FORMATS, "btf-from-formats", NULL,			\
	  "build the records' BTF from the tracepoints'\n"		\
	  "tracefs format files (what a kernel without\n"		\
	  "BTF gets by itself)", setter }

#define CT_TRACE_NOTE							\
	"An event is about the task(s) it names (both sides of a switch, the\n" \
	"woken task, the parent and the child of a fork); interrupt, timer,\n" \
	"work and power events are about the task they interrupted.\n"

/* What to trace and which tasks: record's and top's (ct_set_trace) */
extern const struct ct_opt ct_trace_table[];
/* How long, how big, how loud: record's and top's too (ct_set_trace) */
extern const struct ct_opt ct_session_table[];

/* --btf, --btf-from-formats into @opts; 0, or -1 after one sentence */
int ct_layout_option(int id, const char *arg, struct ct_layout_opts *opts,
		     FILE *err, const char *cmd);
/* -d, -v and the layouts, into the struct ct_session_opts @p begins with */
int ct_set_session(int id, const char *arg, void *p, FILE *err,
		   const char *cmd);
/* what to trace and the session, into the struct ct_record_opts @p */
int ct_set_trace(int id, const char *arg, void *p, FILE *err, const char *cmd);

#endif /* CORETRACE_COMMON_H */
