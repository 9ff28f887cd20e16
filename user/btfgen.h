/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels without BTF: the record types coretrace's programs read,
 * built from the tracepoints' tracefs format files with libbpf's BTF
 * writing API, for libbpf to relocate the programs against.
 */
#ifndef CORETRACE_BTFGEN_H
#define CORETRACE_BTFGEN_H

#include <stddef.h>
#include "layout.h"

struct btf;

#define CT_BTF_WHY_MAX	256

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

/*
 * A file descriptor holding @btf's raw bytes (a memfd), for libbpf's
 * btf_custom_path as /proc/self/fd/N; -errno on failure.
 */
int ct_btf_to_fd(const struct btf *btf);

#endif
