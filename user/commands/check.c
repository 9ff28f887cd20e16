// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace check`: will coretrace work on this kernel? Each program is
 * loaded on its own; for each we report whether its tracepoint exists,
 * whether the verifier accepted it, its verified instruction count, JIT
 * size and load time, and for every field it reads: the offset libbpf
 * relocated it to (from libbpf's own log), the offset and size in the
 * kernel's BTF, and the offset and size in the tracefs format file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "coretrace.skel.h"
#include "ct_serve.h"
#include "base/clock.h"
#include "commands/check.h"
#include "commands/common.h"
#include "loader/layout.h"
#include "loader/objopen.h"
#include "loader/sys.h"

#define CT_LOG_MAX	(4u << 20)

struct ct_check_field {
	struct ct_relo relo;
	int btf_offset, btf_size;	/* -1: not in BTF */
	int fmt_offset, fmt_size;	/* -1: not in the format file */
	int elem_size;			/* an array's element's, or 0 */
	bool ok;
};

struct ct_check_prog {
	const struct ct_event_desc *desc;
	char name[64];		/* the program: handle_<event> or serve_<event> */
	bool present, loaded;
	int err;
	char reason[256];
	unsigned int verified_insns, jited_len;
	double load_ms;
	struct ct_check_field fields[CT_MAX_FIELDS];
	int nfields;
};

/* libbpf's log of one load, kept to read the relocations back */
static char *ct_log;
static size_t ct_log_len;

static int ct_capture_log(enum libbpf_print_level level, const char *fmt,
			  va_list args)
{
	(void)level;
	if (ct_log)
		ct_log_append(ct_log, CT_LOG_MAX, &ct_log_len, fmt, args);
	return 0;
}


/* The field's offset and size in the running kernel's BTF. */
static void ct_btf_field(const struct btf *btf, struct ct_check_field *f)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	f->btf_offset = f->btf_size = -1;
	f->elem_size = 0;
	id = btf__find_by_name_kind(btf, f->relo.type, BTF_KIND_STRUCT);
	if (id < 0)
		return;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), f->relo.base))
			continue;
		f->btf_offset = (int)(btf_member_bit_offset(t, i) / 8);
		f->btf_size = (int)btf__resolve_size(btf, m->type);
		id = btf__resolve_type(btf, m->type);
		t = id < 0 ? NULL : btf__type_by_id(btf, id);
		if (t && btf_is_array(t))
			f->elem_size = (int)btf__resolve_size(btf,
							      btf_array(t)->type);
		return;
	}
}

static void ct_format_field(const struct ct_tp_format *fmt, bool have_fmt,
			    struct ct_check_field *f)
{
	const struct ct_format_field *ff = have_fmt ?
		ct_format_find(fmt, f->relo.base) : NULL;

	f->fmt_offset = ff ? ff->offset : -1;
	f->fmt_size = ff ? ff->size : -1;
}

/* Read the relocations of @prog_name back from the captured log. */
static void ct_collect_fields(struct ct_check_prog *p, const char *prog_name,
			      const struct btf *btf, const struct ct_tp_format *fmt,
			      bool have_fmt)
{
	char *line, *save = NULL;
	int i;

	for (line = strtok_r(ct_log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct ct_check_field f;

		if (!ct_relo_parse_line(line, &f.relo) ||
		    strcmp(f.relo.prog, prog_name))
			continue;
		for (i = 0; i < p->nfields; i++)
			if (!strcmp(p->fields[i].relo.field, f.relo.field))
				break;
		if (i < p->nfields || p->nfields == CT_MAX_FIELDS)
			continue;	/* the same field read twice */
		ct_btf_field(btf, &f);
		ct_format_field(fmt, have_fmt, &f);
		/* an element: the field's offset and the element's place */
		f.ok = f.relo.target_offset ==
			       f.btf_offset + f.relo.index * f.elem_size &&
		       (f.relo.index == 0 || f.elem_size > 0) &&
		       f.btf_offset == f.fmt_offset && f.btf_size == f.fmt_size;
		p->fields[p->nfields++] = f;
	}
}

/* One sentence on why a load failed, from libbpf's log. */
static void ct_failure_reason(struct ct_check_prog *p, const char *prog_name)
{
	if (ct_core_failure_sentence(ct_log, prog_name, p->reason,
				     sizeof(p->reason)))
		return;
	snprintf(p->reason, sizeof(p->reason),
		 "%s was rejected: %s (coretrace record -vv shows the verifier log)",
		 prog_name, strerror(-p->err));
}

/* The sentence the layout gave for leaving @name out, or NULL */
static const char *ct_layout_left_out(const struct ct_layout *layout,
				      const char *name)
{
	int i;

	for (i = 0; layout->source == CT_LAYOUT_FORMATS && i < layout->gen.dropped; i++)
		if (!strcmp(layout->gen.dropped_prog[i], name))
			return layout->gen.why[i];
	return NULL;
}

/* Load program @family<@d's name> alone and read what it was relocated to */
static int ct_check_one(struct ct_check_prog *p, const struct ct_event_desc *d,
			const char *family, const struct btf *btf,
			const char *events, const struct ct_layout *layout)
{
	const char *left_out;
	struct coretrace_bpf *skel;
	struct bpf_program *prog, *wanted = NULL;
	struct bpf_prog_info info;
	__u32 info_len = sizeof(info);
	struct ct_tp_format fmt;
	char name[64], path[512];
	uint64_t t0;
	bool have_fmt = false;
	FILE *f;

	p->desc = d;
	snprintf(p->name, sizeof(p->name), "%s%s", family, d->name);
	snprintf(name, sizeof(name), "%s", p->name);
	p->present = events && ct_tracepoint_exists(events, d->tp_category,
						    d->tp_name);
	if (!p->present)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/%s/format", events, d->tp_category,
		 d->tp_name);
	f = fopen(path, "r");
	if (f) {
		have_fmt = ct_format_parse(f, &fmt) == 0;
		fclose(f);
	}
	left_out = ct_layout_left_out(layout, name);
	if (left_out) {
		p->err = -ENOENT;
		snprintf(p->reason, sizeof(p->reason), "left out: %s", left_out);
		return 0;
	}
	skel = ct_layout_open(layout);
	if (!skel)
		return -errno;
	bpf_object__for_each_program(prog, skel->obj) {
		bool mine = !strcmp(bpf_program__name(prog), name);

		bpf_program__set_autoload(prog, mine);
		if (mine)
			wanted = prog;
	}
	bpf_map__set_max_entries(skel->maps.ct_ring, 4096);
	/* record -g's programs, with kernel and user stacks (their most) */
	if (!strcmp(family, "stack_"))
		skel->rodata->ct_stacks = CT_STACK_KERNEL | CT_STACK_USER;
	/* as record sets it: groups are named where the kernel moves tasks */
	skel->rodata->ct_cgroup_records = events &&
		ct_tracepoint_exists(events, ct_cgroup_progs[0].tp_category,
				     ct_cgroup_progs[0].tp_name);
	ct_log_len = 0;
	ct_log[0] = '\0';
	t0 = ct_mono_ns();
	p->err = wanted ? coretrace_bpf__load(skel) : -ENOENT;
	p->load_ms = (double)(ct_mono_ns() - t0) / 1e6;
	p->loaded = p->err == 0;
	if (p->loaded) {
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(wanted), &info,
					    &info_len)) {
			p->verified_insns = info.verified_insns;
			p->jited_len = info.jited_prog_len;
		}
	} else {
		ct_failure_reason(p, name);
	}
	ct_collect_fields(p, name, btf, &fmt, have_fmt);
	coretrace_bpf__destroy(skel);
	return 0;
}

static void ct_print_text(const struct ct_check_prog *progs, int n,
			  const char *source, FILE *out)
{
	int i, j;

	fprintf(out, "coretrace check: record layouts from %s\n", source);
	fprintf(out, "%-31s %-34s %-7s %-8s %6s %6s %8s\n", "PROGRAM",
		"TRACEPOINT", "PRESENT", "VERIFIER", "INSNS", "JIT", "LOAD_MS");
	for (i = 0; i < n; i++) {
		const struct ct_check_prog *p = &progs[i];
		char tp[64];

		snprintf(tp, sizeof(tp), "%s:%s", p->desc->tp_category,
			 p->desc->tp_name);
		fprintf(out, "%-31s %-34s %-7s %-8s %6u %6u %8.1f\n",
			p->name, tp, p->present ? "yes" : "no",
			!p->present ? "-" : p->loaded ? "ok" : "REJECTED",
			p->verified_insns, p->jited_len, p->load_ms);
		for (j = 0; j < p->nfields; j++) {
			const struct ct_check_field *f = &p->fields[j];

			fprintf(out, "    %-22s relocated %3d  btf %3d/%-2d  format %3d/%-2d  %s\n",
				f->relo.field, f->relo.target_offset,
				f->btf_offset, f->btf_size, f->fmt_offset,
				f->fmt_size, f->ok ? "ok" : "MISMATCH");
		}
	}
}

/* @s as a JSON string, with the escaping the event printers use */
static void ct_json_escaped(FILE *out, const char *s)
{
	char text[1024];
	struct ct_buf b = { text, sizeof(text), 0 };

	ct_buf_json_str(&b, s, sizeof(text) / 8);
	fputs(text, out);
}

static void ct_print_json(const struct ct_check_prog *progs, int n, int bad,
			  const char *source, FILE *out)
{
	int i, j;

	fprintf(out, "{\"ok\":%s,\"problems\":%d,\"layout_source\":", bad ? "false" : "true", bad);
	ct_json_escaped(out, source);
	fputs(",\"programs\":[", out);
	for (i = 0; i < n; i++) {
		const struct ct_check_prog *p = &progs[i];

		fprintf(out, "%s{\"program\":\"%s\",\"tracepoint\":\"%s:%s\","
			"\"present\":%s,\"loaded\":%s,\"verified_insns\":%u,"
			"\"jited_bytes\":%u,\"load_ms\":%.3f,\"error\":",
			i ? "," : "", p->name, p->desc->tp_category,
			p->desc->tp_name, p->present ? "true" : "false",
			p->loaded ? "true" : "false", p->verified_insns,
			p->jited_len, p->load_ms);
		if (p->reason[0])
			ct_json_escaped(out, p->reason);
		else
			fputs("null", out);
		fputs(",\"fields\":[", out);
		for (j = 0; j < p->nfields; j++) {
			const struct ct_check_field *f = &p->fields[j];

			fprintf(out, "%s{\"struct\":\"%s\",\"field\":\"%s\","
				"\"relocated_offset\":%d,\"btf_offset\":%d,"
				"\"btf_size\":%d,\"format_offset\":%d,"
				"\"format_size\":%d,\"ok\":%s}",
				j ? "," : "", f->relo.type, f->relo.field,
				f->relo.target_offset, f->btf_offset,
				f->btf_size, f->fmt_offset, f->fmt_size,
				f->ok ? "true" : "false");
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

/* Problems: a rejected program, a mismatching field, a program with none. */
static int ct_count_problems(const struct ct_check_prog *progs, int n,
			     FILE *err)
{
	int i, j, bad = 0;

	for (i = 0; i < n; i++) {
		const struct ct_check_prog *p = &progs[i];

		if (!p->present)
			continue;
		if (!p->loaded) {
			fprintf(err, "coretrace check: %s\n", p->reason);
			bad++;
			continue;
		}
		if (!p->nfields) {
			fprintf(err, "coretrace check: %s: no field relocations found in libbpf's log\n",
				p->name);
			bad++;
		}
		for (j = 0; j < p->nfields; j++) {
			const struct ct_check_field *f = &p->fields[j];

			if (f->ok)
				continue;
			fprintf(err, "coretrace check: %s: %s.%s: relocated to %d, BTF says %d (size %d), the format file says %d (size %d)\n",
				p->name, f->relo.type, f->relo.field,
				f->relo.target_offset, f->btf_offset,
				f->btf_size, f->fmt_offset, f->fmt_size);
			bad++;
		}
	}
	return bad;
}

int ct_check(const struct ct_check_opts *opts)
{
	struct ct_check_prog progs[2 * CT_EV_MAX + CT_CGROUP_PROGS + 2];
	const char *events = ct_tracefs_events();
	struct ct_layout layout;
	char source[PATH_MAX + 32];
	struct btf *btf;
	int i, n = 0, bad, err = 0;

	if (!ct_can_trace()) {
		fprintf(stderr, "coretrace: checking needs root or the CAP_BPF and CAP_PERFMON capabilities; run it with sudo\n");
		return CT_EXIT_FAILURE;
	}
	if (ct_layout_prepare(&layout, &opts->layout, stderr)) {
		ct_layout_free(&layout);
		return CT_EXIT_FAILURE;
	}
	btf = ct_layout_btf(&layout);
	if (!btf) {
		fprintf(stderr, "coretrace: could not read the layout from %s\n",
			ct_layout_describe(&layout, source, sizeof(source)));
		ct_layout_free(&layout);
		return CT_EXIT_FAILURE;
	}
	if (!events)
		fprintf(stderr, "coretrace: tracefs is not mounted (try: mount -t tracefs nodev /sys/kernel/tracing)\n");
	ct_log = malloc(CT_LOG_MAX);
	if (!ct_log) {
		btf__free(btf);
		ct_layout_free(&layout);
		return CT_EXIT_FAILURE;
	}
	libbpf_set_print(ct_capture_log);
	memset(progs, 0, sizeof(progs));
	for (i = 0; i < CT_EV_MAX && !err; i++) {
		if (!ct_events[i].tp_name[0])
			continue;
		err = ct_check_one(&progs[n++], &ct_events[i], "handle_", btf,
				   events, &layout);
	}
	/* the programs that name cgroups */
	for (i = 0; i < CT_CGROUP_PROGS && !err; i++)
		err = ct_check_one(&progs[n++], &ct_cgroup_progs[i], "handle_",
				   btf, events, &layout);
	/* record -g's, on the switch and the wakeup beside the handlers */
	if (!err)
		err = ct_check_one(&progs[n++], &ct_events[CT_EV_SCHED_SWITCH],
				   "stack_", btf, events, &layout);
	if (!err)
		err = ct_check_one(&progs[n++], &ct_events[CT_EV_SCHED_WAKING],
				   "stack_", btf, events, &layout);
	/* and serve's, which add up instead of writing records */
	for (i = 0; i < CT_EV_MAX && !err; i++)
		if (CT_SERVE_EVENTS & (1ull << i))
			err = ct_check_one(&progs[n++], &ct_events[i], "serve_",
					   btf, events, &layout);
	libbpf_set_print(NULL);
	free(ct_log);
	ct_log = NULL;
	btf__free(btf);
	ct_layout_describe(&layout, source, sizeof(source));
	ct_layout_free(&layout);
	if (err) {
		fprintf(stderr, "coretrace check: could not open the BPF object: %s\n",
			strerror(-err));
		return CT_EXIT_FAILURE;
	}
	bad = ct_count_problems(progs, n, stderr);
	if (!events)
		bad++;
	if (opts->json)
		ct_print_json(progs, n, bad, source, stdout);
	else
		ct_print_text(progs, n, source, stdout);
	if (!opts->json)
		printf("coretrace check: %s (%d problem%s)\n",
		       bad ? "PROBLEMS FOUND" : "every program loads and every field agrees",
		       bad, bad == 1 ? "" : "s");
	return bad ? CT_EXIT_FAILURE : CT_EXIT_OK;
}

/* --- its options */

enum {
	CT_OPT_JSON = CT_OPT_COMMON_END,
};

static int ct_set_check(int id, const char *arg, void *p, FILE *err,
			const char *cmd)
{
	struct ct_check_opts *opts = p;

	if (id != CT_OPT_JSON)
		return ct_layout_option(id, arg, &opts->layout, err, cmd);
	opts->json = true;
	return 0;
}

static const struct ct_opt ct_check_opts_table[] = {
	{ CT_OPT_JSON, "json", NULL, "the same as one JSON document", ct_set_check },
	CT_LAYOUT_OPTS(ct_set_check),
	{ 0 },
};

static const struct ct_opt_group ct_check_groups[] = {
	{ NULL, ct_check_opts_table, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_check_command = {
	.name = "check",
	.summary = "will coretrace work here? load every program, compare\n"
		   "every field it reads with BTF and the tracefs format",
	.usage = "[--json]",
	.description =
		"Load each BPF program on its own and report, for each: its\n"
		"tracepoint and whether this kernel has it, whether the verifier\n"
		"accepted it, the instructions it verified, its JIT-ed size and its\n"
		"load time; and for every field it reads: the offset libbpf\n"
		"relocated it to, its offset and size in the kernel's BTF, and its\n"
		"offset and size in the tracefs format file. Any disagreement or\n"
		"rejected program is named on stderr and makes the exit status 1.\n",
	.groups = ct_check_groups,
	.opts_size = sizeof(struct ct_check_opts),
};
