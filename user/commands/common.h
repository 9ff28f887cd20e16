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

/*
 * The long options' ids of the shared groups; a command's own start at
 * CT_OPT_COMMON_END, so that they never meet the shared ones
 */
enum {
	CT_OPT_BTF = 256,
	CT_OPT_BTF_FORMATS,
	CT_OPT_NO_CGROUP_NAMES,
	CT_OPT_USER,
	CT_OPT_CALL_GRAPH,
	CT_OPT_COMMON_END,
};

/* --user: record's, top's and serve's */
#define CT_USER_OPT(setter)						\
	{ CT_OPT_USER, "user", "USER", "once the programs are attached, run as USER\n" \
	  "(from root; a capture's directory is then its);\n"		\
	  "every capability is given up in any case", setter }

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
/* -d, -v and the layouts, into the struct ct_session_opts @p */
int ct_set_session(int id, const char *arg, void *p, FILE *err,
		   const char *cmd);
/* what to trace and the session, into the struct ct_record_opts @p */
int ct_set_trace(int id, const char *arg, void *p, FILE *err, const char *cmd);
/* -g needs the events it takes stacks at; 0, or -1 after one sentence */
int ct_check_stacks(const struct ct_record_opts *opts, FILE *err,
		    const char *cmd);

#endif /* CORETRACE_COMMON_H */
