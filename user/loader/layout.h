/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layouts `coretrace check` compares: a tracepoint's fields as its
 * tracefs format file publishes them, and the field offsets libbpf
 * relocated the BPF programs to, as its log reports them.
 */
#ifndef CORETRACE_LAYOUT_H
#define CORETRACE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>

#define CT_FIELD_NAME_MAX	64
#define CT_MAX_FIELDS		32

struct ct_format_field {
	char name[CT_FIELD_NAME_MAX];	/* "prev_comm", "filename" */
	int offset;
	int size;
	int elems;			/* [N]: N; a scalar: 0 */
	bool data_loc;			/* a __data_loc field */
	bool common;			/* common_* */
	bool is_signed;			/* signed:1 */
	bool pointer;			/* the declaration has a '*' */
};

struct ct_tp_format {
	struct ct_format_field fields[CT_MAX_FIELDS];
	int count;
};

/*
 * Parse a tracefs format file. Lines that are not field lines are
 * ignored; a field line that does not parse makes it fail (-EINVAL), as
 * does a file with no fields. More than CT_MAX_FIELDS fields: -E2BIG.
 */
int ct_format_parse(FILE *f, struct ct_tp_format *fmt);

/*
 * The field a BPF program reads, named as BTF names it ("prev_comm",
 * "__data_loc_filename"), or NULL.
 */
const struct ct_format_field *ct_format_find(const struct ct_tp_format *fmt,
					     const char *btf_name);

/* One CO-RE field relocation as libbpf resolved it. */
struct ct_relo {
	char prog[CT_FIELD_NAME_MAX];		/* handle_sched_switch */
	char type[CT_FIELD_NAME_MAX];		/* trace_event_raw_sched_switch */
	char field[CT_FIELD_NAME_MAX];		/* prev_pid, next_comm[8] */
	char base[CT_FIELD_NAME_MAX];		/* the field: next_comm */
	int index;				/* an array's element, or 0 */
	int local_offset;			/* in the compiled object */
	int target_offset;			/* in the running kernel */
};

/*
 * Parse one line of libbpf's debug log:
 *   prog 'P': relo #N: matching candidate #0 <byte_off> [ID] struct T.F (S @ offset O)
 * into @relo (target_offset = O); F may name an array's element, F[I].
 * Returns 1 when the line is such a line, 0 otherwise.
 */
int ct_relo_parse_line(const char *line, struct ct_relo *relo);

/*
 * When libbpf's @log of a failed load says a CO-RE relocation of program
 * @prog could not be resolved, write one sentence naming the field and
 * why into @buf and return true.
 */
bool ct_core_failure_sentence(const char *log, const char *prog, char *buf,
			      size_t len);

/*
 * Append one libbpf log message to @buf (capacity @cap, @len used), for
 * reading relocations or a failure back; stops quietly when full.
 */
void ct_log_append(char *buf, size_t cap, size_t *len, const char *fmt,
		   va_list args);

/*
 * Is kernel release @release (uname -r: "6.1.0-57-amd64") at least
 * @major.@minor? false for a release that does not start with two numbers.
 */
bool ct_release_at_least(const char *release, unsigned int major,
			 unsigned int minor);

#endif /* CORETRACE_LAYOUT_H */
