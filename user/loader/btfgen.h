/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels without BTF: the record types coretrace's programs read,
 * built from the tracepoints' tracefs format files with libbpf's BTF
 * writing API, for libbpf to relocate the programs against.
 */
#ifndef CORETRACE_BTFGEN_H
#define CORETRACE_BTFGEN_H

#include <stddef.h>
#include "loader/layout.h"

struct btf;

#define CT_BTF_WHY_MAX	640

/*
 * Add struct @name (e.g. "trace_event_raw_sched_switch") to @btf with
 * every field of @fmt at the offset and size the format file states: an
 * integer of its size and signedness, an array of them, a pointer, or a
 * __data_loc field as the u32 "__data_loc_NAME" the kernel's own BTF has.
 * Returns the struct's type id, or -errno with one sentence in @why
 * naming the field that cannot be expressed.
 */
int ct_btf_add_record(struct btf *btf, const char *name,
		      const struct ct_tp_format *fmt, char *why, size_t why_len);

struct bpf_object;

#define CT_BTF_MAX_DROPPED	48

/* What ct_btf_from_object() built, and the programs it could not serve */
struct ct_btf_gen {
	struct btf *btf;
	int structs;				/* record types built */
	int dropped;
	char dropped_prog[CT_BTF_MAX_DROPPED][CT_FIELD_NAME_MAX];
	char why[CT_BTF_MAX_DROPPED][CT_BTF_WHY_MAX];
};

/*
 * For every tracepoint program of @obj (section tp/CATEGORY/NAME) the
 * record struct its context argument points to, built from
 * @events_dir/CATEGORY/NAME/format. A program whose format file is
 * missing or unreadable, or has a field BTF cannot describe, is listed in
 * @gen->dropped with one sentence; the others are served. 0 or -errno
 * (no program could be served, or out of memory).
 */
int ct_btf_from_object(struct bpf_object *obj, const char *events_dir,
		       struct ct_btf_gen *gen);
void ct_btf_gen_free(struct ct_btf_gen *gen);

/*
 * A file descriptor holding @btf's raw bytes (a memfd), for libbpf's
 * btf_custom_path as /proc/self/fd/N; -errno on failure.
 */
int ct_btf_to_fd(const struct btf *btf);

#endif
