/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-space side of the event table in bpf/ct_abi.h: one descriptor
 * per record type, the decoder that validates raw ring records, and the
 * printers for each output format.
 */
#ifndef CORETRACE_EVENTS_H
#define CORETRACE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "ct_abi.h"
#include "model/comm_cache.h"
#include "model/ksyms.h"
#include "model/stacks.h"
#include "model/usyms.h"

/*
 * A record, in the ring's layout (ct_abi.h): the ring's own bytes when
 * they are valid as they are, or a copy.
 */
union ct_record {
	struct ct_hdr hdr;
	struct ct_comm comm;
	struct ct_irq_name irq_name;
	struct ct_sched_switch sched_switch;
	struct ct_wakeup wakeup;
	struct ct_migrate migrate;
	struct ct_fork fork;
	struct ct_exec exec;
	struct ct_exit exit;
	struct ct_task_rename task_rename;
	struct ct_cpu_idle cpu_idle;
	struct ct_cpu_frequency cpu_frequency;
	struct ct_irq_entry irq_entry;
	struct ct_irq_exit irq_exit;
	struct ct_softirq softirq;
	struct ct_timer_entry timer_entry;
	struct ct_timer_exit timer_exit;
	struct ct_hrtimer_entry hrtimer_entry;
	struct ct_hrtimer_exit hrtimer_exit;
	struct ct_work_start work_start;
	struct ct_work_end work_end;
	struct ct_task_cgroup task_cgroup;
	struct ct_cgroup_name cgroup_name;
	struct ct_callchain callchain;
};

/* A record's timestamp, CLOCK_MONOTONIC ns */
static inline uint64_t ct_ts(const void *record)
{
	const struct ct_hdr *hdr = record;

	return (uint64_t)hdr->ts_high << 32 | hdr->ts_low;
}

static inline void ct_set_ts(void *record, uint64_t ts)
{
	struct ct_hdr *hdr = record;

	hdr->ts_high = (uint32_t)(ts >> 32);
	hdr->ts_low = (uint32_t)ts;
}

/* irq number -> handler name, fed by irq_name records; bounded */
#define CT_IRQ_SLOTS	512

struct ct_irq_names {
	struct {
		uint32_t irq;
		uint32_t used;
		char name[CT_IRQ_NAME_LEN];
	} slot[CT_IRQ_SLOTS];
};

void ct_irq_names_set(struct ct_irq_names *names, uint32_t irq,
		      const char *name);
const char *ct_irq_names_get(const struct ct_irq_names *names, uint32_t irq);

/* the kernel's names of the softirq vectors ("TIMER", "NET_RX"...) */
const char *ct_softirq_name(unsigned int vec);

enum ct_format {
	CT_FORMAT_TEXT,
	CT_FORMAT_JSON,
};

/* What the printers need besides the record itself. */
struct ct_cgroup_names;

struct ct_print_ctx {
	const struct ct_comm_cache *comms;
	struct ct_ksyms *ksyms;			/* may be NULL */
	const struct ct_irq_names *irqs;	/* may be NULL */
	const struct ct_symtab *syms;		/* a capture's names, or NULL */
	const struct ct_cgroup_names *cgroups;	/* groups' paths, or NULL */
	const struct ct_stacks *stacks;		/* call stacks by id, or NULL */
	struct ct_usyms *usyms;			/* user frames' names, or NULL */
};

/*
 * The name of frame @i of stack @s: a kernel function, or a user
 * frame's (its module and offset when it has no name); @buf may be
 * used. Never NULL.
 */
const char *ct_frame_name(const struct ct_print_ctx *pctx,
			  const struct ct_stack *s, unsigned int i,
			  char *buf, size_t len);

/*
 * Is @name a frame every blocked stack or every wakeup goes through
 * (__schedule, schedule, try_to_wake_up...)? perf sched timehist -g
 * hides them; so do the short forms below.
 */
bool ct_frame_is_scheduler(const char *name);

/*
 * Where a stack was, in a few words: its innermost kernel function that
 * is not the scheduler's, and its two innermost user functions, e.g.
 * "do_nanosleep (ct_sleep_nap <- ct_sleep_middle)"; "" when neither
 * stack is known. Bytes that are not printable ASCII, quotes and
 * backslashes show as '?'. Returns @buf.
 */
const char *ct_stack_where(const struct ct_print_ctx *pctx, uint32_t kstack,
			   uint32_t ustack, char *buf, size_t len);

/*
 * A stack on one line, as perf sched timehist -g prints it: at most
 * @max frames, innermost first, " <- " between them, the scheduler's own
 * frames left out; kernel frames, then user frames. "" when neither stack
 * is known. Names are escaped for a terminal. Returns @buf.
 */
const char *ct_stack_line(const struct ct_print_ctx *pctx, uint32_t kstack,
			  uint32_t ustack, unsigned int max, char *buf,
			  size_t len);

/*
 * A stack's frames as a JSON array of names into @b: "[]" for id 0,
 * null for a stack whose frames are not known
 */
struct ct_buf;
void ct_json_stack_frames(struct ct_buf *b, const struct ct_print_ctx *pctx,
			  uint32_t id);

/* A function's name: the kernel's symbols, a capture's, or NULL. */
const char *ct_function_name(const struct ct_print_ctx *pctx, uint64_t addr);

/*
 * An output line being built. pos counts every byte asked for, even past
 * len, so pos >= len afterwards means the line did not fit.
 */
struct ct_buf {
	char *p;
	size_t len;
	size_t pos;
};

void ct_buf_printf(struct ct_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ct_buf_json_str(struct ct_buf *b, const char *s, size_t max);
size_t ct_text_escape(char *dst, size_t cap, const char *src, size_t n);
bool ct_text_needs_escape(const char *s, size_t n);
void ct_put_text_line(FILE *out, const char *line, size_t n);

/* One field of a record, from its row in ct_abi.h */
struct ct_field {
	const char *ctf_name;		/* "_prev_tid" */
	const char *json_name;		/* "prev_pid"; NULL: not in JSON */
	const char *companion;		/* JSON key of its name, or NULL */
	uint16_t offset;		/* in the record */
	uint16_t size;			/* bytes; a string's: its array's */
	enum ct_field_kind kind;
};

struct ct_event_desc {
	enum ct_event_type type;
	const char *name;		/* in outputs; BPF program "handle_<name>" */
	const char *ctf_name;		/* the event's name in a capture */
	const char *tp_category;	/* "" for records BPF emits on its own */
	const char *tp_name;
	size_t size;			/* bytes of the record struct */
	/*
	 * Bytes of the record up to its string, or all of them: from
	 * CT_EVENT_START on, the capture event's fixed part.
	 */
	uint16_t fixed_end;
	uint16_t string_max;		/* its string's array, 0: none */
	uint16_t kfunc_offset;		/* a kernel function's field, 0: none */
	unsigned int flags;		/* CT_EVF_* */
	const struct ct_field *fields;
	unsigned int nfields;
	/* append the event's line (text); NULL: none */
	void (*print_text)(struct ct_buf *b, const union ct_record *rec,
			   const struct ct_print_ctx *pctx);
};

extern const struct ct_event_desc ct_events[CT_EV_MAX];

/* The kernel function a timer or work record names (its KFUNC field) */
static inline uint64_t ct_rec_function(const union ct_record *rec)
{
	uint64_t addr;

	memcpy(&addr, (const unsigned char *)rec +
	       ct_events[rec->hdr.type].kfunc_offset, sizeof(addr));
	return addr;
}

/*
 * The programs that watch cgroup v2 for the records that name groups
 * (task_cgroup, cgroup_name) instead of tracing an event of their own,
 * program "handle_<name>" on tracepoint tp_category:tp_name. The first,
 * the moves, is the one the others and -G need.
 */
#define CT_CGROUP_PROGS	3
extern const struct ct_event_desc ct_cgroup_progs[CT_CGROUP_PROGS];

/* Descriptor by output name, or NULL. */
const struct ct_event_desc *ct_event_by_name(const char *name);

enum ct_decode_error {
	CT_DECODE_OK = 0,
	CT_DECODE_SHORT = -1,		/* shorter than a record header */
	CT_DECODE_UNKNOWN_TYPE = -2,	/* type not in this ABI version */
	CT_DECODE_TRUNCATED = -3,	/* shorter than its type's record */
};

/*
 * Is @len bytes at @data one whole record of a known type? 0 or a
 * ct_decode_error. A valid record is read where it is: every reader
 * bounds its strings by their arrays (ct_rec_string()).
 */
int ct_check_record(const void *data, size_t len);

/*
 * Validate @len bytes at @data as one record and copy it into @out,
 * its string NUL-terminated whatever the input held. Bytes past the
 * record's size are ignored.
 */
int ct_decode(const void *data, size_t len, union ct_record *out);

const char *ct_decode_strerror(int err);

/*
 * Format @rec as one line (no newline) into @buf: text as ftrace prints
 * it, or JSON with every field of the table. Returns the length of the
 * line, 0 when the record has no output of its own (comm records), or a
 * value >= @len when @buf was too small (as snprintf does).
 */
int ct_format(enum ct_format fmt, const union ct_record *rec,
	      const struct ct_print_ctx *pctx, char *buf, size_t len);

/*
 * The records that name something (a task, an irq, a cgroup; CT_EVF_NAMES
 * in the table): the only ones name tables learn from. One bit per type,
 * so that the reader of a ring tests every other record with one shift.
 */
#define CT_X_NAMES_BIT(id, name, ctf, cat, tp, rec, flags)	\
	| ((flags) & CT_EVF_NAMES ? 1ull << (id) : 0)
#define CT_NAME_RECORDS	(0 CT_EVENT_TABLE(CT_X_NAMES_BIT))

/*
 * Bytes of record @rec up to its string, or all of them (the fields have
 * no holes): a constant expression, for tables and static checks.
 */
#define CT_X_FIXED_SIZE(R, kind, type, member, array, ctf, json, comp)	\
	+ (CT_FK_##kind == CT_FK_STRING ? 0 : sizeof(type array))
#define CT_RECORD_FIXED_END(rec)	\
	(CT_HDR_SIZE CT_FIELDS_##rec(CT_X_FIXED_SIZE, rec))

/* The records that name a kernel function (a KFUNC field), likewise */
#define CT_X_KFUNC_FIELD(R, kind, type, member, array, ctf, json, comp)	\
	|| CT_FK_##kind == CT_FK_KFUNC
#define CT_X_KFUNC_BIT(id, name, ctf, cat, tp, rec, flags)	\
	| ((0 CT_FIELDS_##rec(CT_X_KFUNC_FIELD, rec)) ? 1ull << (id) : 0)
#define CT_FUNCTION_RECORDS	(0 CT_EVENT_TABLE(CT_X_KFUNC_BIT))

static inline bool ct_type_names_function(unsigned int type)
{
	return (CT_FUNCTION_RECORDS >> (type & 63)) & 1;
}

/*
 * The records a capture cannot take by copying their bytes and a name of
 * at most CT_COMM_LEN: those naming a kernel function (its name goes
 * first), those naming call stacks (their frames go first) and those
 * with a longer string (a path, a group's). ctf.c builds
 * its per-type fast path table from CT_RECORD_SLOW_CAPTURE; the mask asks
 * the same of one type (the unit tests hold it to the event table).
 */
#define CT_X_STRING_SIZE(R, kind, type, member, array, ctf, json, comp)	\
	+ (CT_FK_##kind == CT_FK_STRING ? sizeof(type array) : 0)
#define CT_RECORD_STRING_SIZE(rec)	\
	(0 CT_FIELDS_##rec(CT_X_STRING_SIZE, rec))
#define CT_X_STACK_FIELD(R, kind, type, member, array, ctf, json, comp)	\
	|| CT_FK_##kind == CT_FK_STACK
#define CT_RECORD_SLOW_CAPTURE(rec)					\
	((0 CT_FIELDS_##rec(CT_X_KFUNC_FIELD, rec)) ||			\
	 (0 CT_FIELDS_##rec(CT_X_STACK_FIELD, rec)) ||			\
	 (CT_RECORD_STRING_SIZE(rec) != 0 &&				\
	  CT_RECORD_STRING_SIZE(rec) != CT_COMM_LEN))
#define CT_X_SLOW_CAPTURE_BIT(id, name, ctf, cat, tp, rec, flags)	\
	| (CT_RECORD_SLOW_CAPTURE(rec) ? 1ull << (id) : 0)
#define CT_SLOW_CAPTURE_RECORDS	(0 CT_EVENT_TABLE(CT_X_SLOW_CAPTURE_BIT))

static inline bool ct_type_slow_capture(unsigned int type)
{
	return (CT_SLOW_CAPTURE_RECORDS >> (type & 63)) & 1;
}

_Static_assert(CT_EV_MAX <= 64, "CT_NAME_RECORDS has a bit per record type");

static inline bool ct_record_names(const union ct_record *rec)
{
	return (CT_NAME_RECORDS >> (rec->hdr.type & 63)) & 1;
}

/*
 * Feed the name tables from @rec (comm, irq_name, fork, task_rename).
 * Call after printing @rec, so a rename line still shows the old name.
 */
void ct_learn_names(const union ct_record *rec, struct ct_comm_cache *comms,
		    struct ct_irq_names *irqs);

/* sched_switch prev_state as ftrace prints it ("S", "R+", "D|K"...). */
const char *ct_task_state_str(unsigned int state, char *buf, size_t len);

#endif /* CORETRACE_EVENTS_H */
