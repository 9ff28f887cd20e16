// SPDX-License-Identifier: GPL-2.0
/* `coretrace list` and `coretrace version`. */
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "model/args.h"
#include "commands/list.h"
#include "loader/objopen.h"
#include "loader/sys.h"

/* where record and check take the record layouts from on this machine */
static const char *ct_layout_here(void)
{
	static char text[96];
	struct ct_layout layout = { .source = ct_layout_choose(NULL) };

	return ct_layout_describe(&layout, text, sizeof(text));
}

/* bytes a record takes in the BPF ring: 8-byte header, 8-byte aligned */
static unsigned int ct_ring_bytes(size_t size)
{
	return (unsigned int)((size + 8 + 7) & ~(size_t)7);
}

int ct_list(const struct ct_list_opts *opts, FILE *out)
{
	const char *events = ct_tracefs_events();
	int i;

	if (opts->verbose)
		fprintf(out, "%-24s %-34s %-7s %6s %6s\n", "EVENT", "TRACEPOINT",
			"KERNEL", "RECORD", "RING");
	else
		fprintf(out, "%-24s %-34s %s\n", "EVENT", "TRACEPOINT", "KERNEL");
	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *d = &ct_events[i];
		char tp[64];
		const char *have;

		if (!d->tp_name[0]) {
			if (!opts->verbose)
				continue;
			snprintf(tp, sizeof(tp), "(name announcement)");
			have = "-";
		} else {
			snprintf(tp, sizeof(tp), "%s:%s", d->tp_category,
				 d->tp_name);
			have = !events ? "?" :
			       ct_tracepoint_exists(events, d->tp_category,
						    d->tp_name) ? "yes" : "no";
		}
		if (opts->verbose)
			fprintf(out, "%-24s %-34s %-7s %6zu %6u\n", d->name, tp,
				have, d->size, ct_ring_bytes(d->size));
		else
			fprintf(out, "%-24s %-34s %s\n", d->name, tp, have);
	}
	if (!events)
		fprintf(out, "(KERNEL is ? when tracefs cannot be read: mount it, or run as root)\n");
	if (opts->verbose)
		fprintf(out, "(RECORD: bytes of coretrace's record; RING: bytes it takes in the BPF ring buffer, with the ring's 8-byte header)\n");
	fprintf(out, "record layouts from %s\n", ct_layout_here());
	return CT_EXIT_OK;
}

void ct_version(FILE *out)
{
	fprintf(out, "coretrace %s\nrecord ABI %d\nlibbpf %s\nrecord layouts from %s\n",
		CT_VERSION, CT_ABI_VERSION, libbpf_version_string(),
		ct_layout_here());
}

/* --- its options */

static int ct_set_list(int id, const char *arg, void *p, FILE *err,
		       const char *cmd)
{
	struct ct_list_opts *opts = p;

	(void)id;
	(void)arg;
	(void)err;
	(void)cmd;
	opts->verbose++;
	return 0;
}

static const struct ct_opt ct_list_opts_table[] = {
	{ 'v', "verbose", NULL, "each record's size too, in the record and in\n"
	  "the ring buffer (with the ring's 8-byte header)", ct_set_list },
	{ 0 },
};

static const struct ct_opt_group ct_list_groups[] = {
	{ NULL, ct_list_opts_table, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_list_command = {
	.name = "list",
	.summary = "list the events, whether this kernel has them, their size",
	.usage = "[-v]",
	.description =
		"List every event coretrace can trace, its tracepoint, and whether\n"
		"the running kernel has it.\n",
	.groups = ct_list_groups,
	.opts_size = sizeof(struct ct_list_opts),
};

static const struct ct_opt_group ct_no_groups[] = {
	{ NULL, NULL, NULL },
};

const struct ct_command ct_version_command = {
	.name = "version",
	.summary = "print the version, record ABI and libbpf versions",
	.usage = "",
	.description =
		"Print coretrace's version, its record ABI version (captures carry\n"
		"it) and the version of libbpf it was built with.\n",
	.groups = ct_no_groups,
	.opts_size = 0,
};
