// SPDX-License-Identifier: GPL-2.0
/*
 * Opening coretrace's BPF object against its layout source. libbpf
 * relocates the programs' CO-RE field accesses against the kernel's BTF,
 * or against the BTF named by btf_custom_path: a file the user gave, or
 * the record structs built from the format files, handed over as
 * /proc/self/fd/N of a memfd (nothing is written to disk).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "coretrace.skel.h"
#include "loader/objopen.h"
#include "loader/sys.h"

enum ct_layout_source ct_layout_choose(const struct ct_layout_opts *opts)
{
	if (opts && opts->btf_file)
		return CT_LAYOUT_FILE;
	if ((opts && opts->from_formats) || !ct_kernel_has_btf())
		return CT_LAYOUT_FORMATS;
	return CT_LAYOUT_KERNEL;
}

const char *ct_layout_describe(const struct ct_layout *layout, char *buf,
			       size_t len)
{
	switch (layout->source) {
	case CT_LAYOUT_FILE:
		snprintf(buf, len, "BTF file %s", layout->file);
		break;
	case CT_LAYOUT_FORMATS:
		snprintf(buf, len, "tracefs format files%s",
			 ct_kernel_has_btf() ? "" : " (the kernel has no BTF)");
		break;
	default:
		snprintf(buf, len, "kernel BTF (/sys/kernel/btf/vmlinux)");
		break;
	}
	return buf;
}

static int ct_layout_build(struct ct_layout *layout, FILE *err)
{
	const char *events = ct_tracefs_events();
	struct coretrace_bpf *skel;
	int rc;

	if (!events) {
		fprintf(err, "coretrace: the kernel has no BTF and tracefs is not mounted, so no layout can be read (try: mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -ENOENT;
	}
	/* the programs' record struct names are in the object's own BTF */
	skel = coretrace_bpf__open();
	if (!skel) {
		rc = -errno;
		fprintf(err, "coretrace: could not open the BPF object: %s\n", strerror(-rc));
		return rc;
	}
	rc = ct_btf_from_object(skel->obj, events, &layout->gen);
	coretrace_bpf__destroy(skel);
	if (rc) {
		fprintf(err, "coretrace: no tracepoint record could be built from the format files in %s: %s\n",
			events, strerror(-rc));
		return rc;
	}
	layout->fd = ct_btf_to_fd(layout->gen.btf);
	if (layout->fd < 0) {
		fprintf(err, "coretrace: could not hold the BTF built from the format files: %s\n",
			strerror(-layout->fd));
		return layout->fd;
	}
	snprintf(layout->path, sizeof(layout->path), "/proc/self/fd/%d", layout->fd);
	return 0;
}

/* --btf FILE: readable, and BTF (raw, or an ELF file's .BTF section) */
static int ct_layout_check_file(struct ct_layout *layout, const char *file,
				FILE *err)
{
	libbpf_print_fn_t quiet;
	struct btf *btf;
	char why[128];
	int rc;

	if (access(file, R_OK)) {
		rc = -errno;
		fprintf(err, "coretrace: cannot read the BTF file %s: %s\n",
			file, strerror(-rc));
		return rc;
	}
	/* libbpf's own complaint would be a second sentence */
	quiet = libbpf_set_print(NULL);
	btf = btf__parse(file, NULL);
	rc = btf ? 0 : -errno;
	libbpf_set_print(quiet);
	if (!btf) {
		libbpf_strerror(rc, why, sizeof(why));
		fprintf(err, "coretrace: %s is not BTF (raw, or an ELF file with a .BTF section): %s\n",
			file, why);
		return rc;
	}
	btf__free(btf);
	layout->file = file;
	return 0;
}

int ct_layout_prepare(struct ct_layout *layout, const struct ct_layout_opts *opts,
		      FILE *err)
{
	memset(layout, 0, sizeof(*layout));
	layout->fd = -1;
	layout->source = ct_layout_choose(opts);
	switch (layout->source) {
	case CT_LAYOUT_FILE:
		return ct_layout_check_file(layout, opts->btf_file, err);
	case CT_LAYOUT_FORMATS:
		return ct_layout_build(layout, err);
	default:
		return 0;
	}
}

void ct_layout_free(struct ct_layout *layout)
{
	ct_btf_gen_free(&layout->gen);
	if (layout->fd >= 0)
		close(layout->fd);
	layout->fd = -1;
}

struct coretrace_bpf *ct_layout_open(const struct ct_layout *layout)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);

	if (layout->source == CT_LAYOUT_KERNEL)
		return coretrace_bpf__open();
	opts.btf_custom_path = layout->source == CT_LAYOUT_FILE ? layout->file :
			       layout->path;
	return coretrace_bpf__open_opts(&opts);
}

void ct_layout_drop(const struct ct_layout *layout, struct coretrace_bpf *skel,
		    FILE *err)
{
	struct bpf_program *prog;
	int i;

	for (i = 0; layout->source == CT_LAYOUT_FORMATS && i < layout->gen.dropped; i++) {
		prog = bpf_object__find_program_by_name(skel->obj,
							layout->gen.dropped_prog[i]);
		if (!prog || !bpf_program__autoload(prog))
			continue;
		bpf_program__set_autoload(prog, false);
		if (err)
			fprintf(err, "coretrace: %s (%s) left out: %s\n",
				layout->gen.dropped_prog[i],
				bpf_program__section_name(prog) + 3,
				layout->gen.why[i]);
	}
}

struct btf *ct_layout_btf(const struct ct_layout *layout)
{
	switch (layout->source) {
	case CT_LAYOUT_FILE:
		return btf__parse(layout->file, NULL);
	case CT_LAYOUT_FORMATS:
		return layout->path[0] ? btf__parse(layout->path, NULL) : NULL;
	default:
		return btf__load_vmlinux_btf();
	}
}
