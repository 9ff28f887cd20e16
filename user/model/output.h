/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One shape for every consumer of decoded records, as perf's struct
 * perf_tool: the names records refer to, shared by every command, and an
 * output that a record source (the ring buffers of a live session, the
 * streams of a capture) feeds record by record, ticks after each batch
 * and closes at the end. record's text and JSON lines, its capture and
 * its live overview are outputs; new ones (a flight recorder, rotated
 * chunks) plug in beside them without branches in the session.
 */
#ifndef CT_OUTPUT_H
#define CT_OUTPUT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/comm_cache.h"
#include "model/cgroup.h"
#include "model/events.h"
#include "model/ksyms.h"

/* The names records refer to, learnt from the records themselves. */
struct ct_names {
	struct ct_comm_cache comms;	/* pid -> task name */
	struct ct_irq_names irqs;	/* irq -> handler name */
	struct ct_cgroup_names cgroups;	/* pid -> group -> path */
	struct ct_ksyms ksyms;		/* live: /proc/kallsyms, if loaded */
	struct ct_symtab syms;		/* a capture's function names */
	struct ct_stacks stacks;	/* call stacks by id (record -g) */
	struct ct_usyms *usyms;		/* user frames' names, or NULL */
	struct ct_print_ctx pctx;	/* all of the above, for printers */
};

/* groups the name state remembers (a node with thousands of containers) */
#define CT_CGROUP_GROUPS	2048

/* Empty names; the comm cache holds @capacity tasks. 0 or -ENOMEM. */
int ct_names_init(struct ct_names *n, size_t capacity);
/* Load /proc/kallsyms (or another @f) for function names; 0 or -errno. */
int ct_names_load_ksyms(struct ct_names *n, FILE *f);
void ct_names_free(struct ct_names *n);
/*
 * Name user frames (@live: from the processes themselves, as record
 * does; otherwise from what a capture says and the files here). 0 or
 * -ENOMEM.
 */
int ct_names_name_user_frames(struct ct_names *n, bool live);

/* Learn what @rec names (any record: those that name nothing are skipped) */
static inline void ct_names_learn(struct ct_names *n,
				  const union ct_record *rec)
{
	if (!ct_record_names(rec))
		return;
	ct_learn_names(rec, &n->comms, &n->irqs);
	ct_cgroup_learn(&n->cgroups, rec->hdr.type, rec);
}

struct ct_output;

struct ct_output_ops {
	/* one record, in order; 0 or -errno */
	int (*feed)(struct ct_output *out, const union ct_record *rec);
	/* after a batch, @now_ns monotonic: 0 go on, 1 stop, or -errno */
	int (*tick)(struct ct_output *out, uint64_t now_ns);
	/* records @lost on @cpu in the ring so far (may be NULL) */
	void (*losses)(struct ct_output *out, unsigned int cpu, uint64_t lost);
	/* the end: write what is held, say what was written; 0 or -errno (may be NULL) */
	int (*close)(struct ct_output *out);
	/*
	 * Write out what is held (a flight recorder) from @since_ns on (0:
	 * all of it), because of @reason; 0, or -EOPNOTSUPP for an output
	 * that holds nothing (may be NULL).
	 */
	int (*snapshot)(struct ct_output *out, const char *reason,
			uint64_t since_ns);
	/* learn names from a record before it is fed, not after */
	bool names_first;
};

/* The first member of each output; outputs are allocated with malloc */
struct ct_output {
	const struct ct_output_ops *ops;
	struct ct_names *names;	/* NULL: an output that learns no names */
	bool quiet;		/* the reader went away: end without a summary */
};

/* A record that names something, through @out (output.c) */
int ct_output_feed_naming(struct ct_output *out, const union ct_record *rec);

/*
 * @rec through @out, names learnt from it when the output wants them.
 * Most records name nothing: they cost one test on the way.
 */
static inline int ct_output_feed(struct ct_output *out,
				 const union ct_record *rec)
{
	if (!ct_record_names(rec) || !out->names)
		return out->ops->feed(out, rec);
	return ct_output_feed_naming(out, rec);
}

static inline int ct_output_tick(struct ct_output *out, uint64_t now_ns)
{
	return out->ops->tick ? out->ops->tick(out, now_ns) : 0;
}

static inline void ct_output_losses(struct ct_output *out, unsigned int cpu,
				    uint64_t lost)
{
	if (out->ops->losses)
		out->ops->losses(out, cpu, lost);
}

static inline int ct_output_snapshot(struct ct_output *out, const char *reason,
				     uint64_t since_ns)
{
	return out->ops->snapshot ? out->ops->snapshot(out, reason, since_ns) :
				    -EOPNOTSUPP;
}

/*
 * A capture reader's record callback (ctf_read.h) feeding the output @out.
 * A switch names the task it switches in, which BPF does not announce
 * otherwise (a task still running when the capture ends was named by no
 * other record): readers learn it, after the switch is fed.
 */
static inline void ct_output_reader_cb(const union ct_record *rec, void *p)
{
	struct ct_output *out = p;

	ct_output_feed(out, rec);
	if (rec->hdr.type == CT_EV_SCHED_SWITCH && out->names &&
	    rec->sched_switch.next_pid)
		ct_comm_cache_set(&out->names->comms, rec->sched_switch.next_pid,
				  rec->sched_switch.next_comm);
}

/* Does @out want the ring's losses (ct_output_losses)? */
static inline bool ct_output_counts_losses(const struct ct_output *out)
{
	return out->ops->losses != NULL;
}

/*
 * Ends @out and frees it; *@quiet tells whether the reader went away, so
 * that nothing more is said. 0 or -errno.
 */
static inline int ct_output_close(struct ct_output *out, bool *quiet)
{
	int err = out->ops->close ? out->ops->close(out) : 0;

	*quiet = out->quiet;
	free(out);
	return err;
}

struct ct_analysis;

/* Every record into @an (analysis.h), printed by its caller. NULL: no memory. */
struct ct_output *ct_analysis_output(struct ct_analysis *an,
				     struct ct_names *names);

/*
 * A command's own consumer: @feed(@rec, @ctx) for each record. NULL: no
 * memory.
 */
struct ct_output *ct_callback_output(void (*feed)(const union ct_record *rec,
						  void *ctx),
				     void *ctx, struct ct_names *names);

#endif
