/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coretrace's BPF object, opened against the layout the programs are
 * relocated to: the running kernel's BTF, a BTF file (--btf FILE), or
 * BTF built from the tracepoints' format files (--btf-from-formats, and
 * by itself on a kernel without BTF).
 */
#ifndef CORETRACE_OBJOPEN_H
#define CORETRACE_OBJOPEN_H

#include <stdbool.h>
#include <stdio.h>
#include "loader/btfgen.h"

struct coretrace_bpf;
struct btf;

/* Where the programs' record layouts come from (--btf, --btf-from-formats) */
struct ct_layout_opts {
	const char *btf_file;	/* a BTF file (raw or ELF), or NULL */
	bool from_formats;	/* build it from the tracefs format files */
};

enum ct_layout_source {
	CT_LAYOUT_KERNEL,	/* /sys/kernel/btf/vmlinux */
	CT_LAYOUT_FILE,		/* --btf FILE */
	CT_LAYOUT_FORMATS,	/* tracefs format files */
};

struct ct_layout {
	enum ct_layout_source source;
	const char *file;		/* CT_LAYOUT_FILE's */
	struct ct_btf_gen gen;		/* CT_LAYOUT_FORMATS's */
	int fd;				/* the built BTF, or -1 */
	char path[64];			/* /proc/self/fd/N of @fd */
};

/* Where the layout will come from, for @opts on this machine */
enum ct_layout_source ct_layout_choose(const struct ct_layout_opts *opts);
/* "kernel BTF", "BTF file FILE", "tracefs format files" */
const char *ct_layout_describe(const struct ct_layout *layout, char *buf,
			       size_t len);

/*
 * Decide the layout and prepare it (build the BTF from the format files
 * when that is the source). 0, or -errno after one sentence on @err.
 */
int ct_layout_prepare(struct ct_layout *layout, const struct ct_layout_opts *opts,
		      FILE *err);
void ct_layout_free(struct ct_layout *layout);

/* The object opened against @layout (NULL, errno set, on failure) */
struct coretrace_bpf *ct_layout_open(const struct ct_layout *layout);

/*
 * Programs the format files cannot serve: not loaded, each said in one
 * sentence on @err (when not NULL). Call after choosing the programs.
 */
void ct_layout_drop(const struct ct_layout *layout, struct coretrace_bpf *skel,
		    FILE *err);

/* The BTF the layout's offsets come from (for check), or NULL */
struct btf *ct_layout_btf(const struct ct_layout *layout);

#endif
