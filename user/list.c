// SPDX-License-Identifier: GPL-2.0
/* `coretrace list` and `coretrace version`. */
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "ctf_read.h"
#include "list.h"
#include "sys.h"

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
	return CT_EXIT_OK;
}

void ct_version(FILE *out)
{
	fprintf(out, "coretrace %s\nrecord ABI %d\nlibbpf %s\n", CT_VERSION,
		CT_ABI_VERSION, libbpf_version_string());
}

struct ct_report_ctx {
	const struct ct_report_opts *opts;
	struct ct_comm_cache comms;
	struct ct_irq_names irqs;
	struct ct_print_ctx pctx;
	char line[1024];
};

static void ct_report_record(const union ct_record *rec, void *data)
{
	struct ct_report_ctx *c = data;
	int n = ct_format(c->opts->format, rec, &c->pctx, c->line,
			  sizeof(c->line));

	if (n > 0) {
		if ((size_t)n >= sizeof(c->line))
			n = sizeof(c->line) - 1;
		fwrite(c->line, 1, (size_t)n, stdout);
		fputc('\n', stdout);
	}
	ct_learn_names(rec, &c->comms, &c->irqs);
}

int ct_report(const struct ct_report_opts *opts)
{
	struct ct_ctf_reader reader;
	struct ct_report_ctx *c = calloc(1, sizeof(*c));
	int err;

	if (!c || ct_comm_cache_init(&c->comms, 65536)) {
		free(c);
		fprintf(stderr, "coretrace: out of memory\n");
		return CT_EXIT_FAILURE;
	}
	c->opts = opts;
	c->pctx.comms = &c->comms;
	c->pctx.irqs = &c->irqs;
	err = ct_ctf_reader_open(&reader, opts->dir);
	if (!err)
		err = ct_ctf_reader_run(&reader, ct_report_record, c);
	fflush(stdout);
	if (err && reader.damaged_streams)
		fprintf(stderr, "coretrace report: %s; %llu records recovered, %d stream file%s damaged\n",
			reader.error, reader.records, reader.damaged_streams,
			reader.damaged_streams == 1 ? "" : "s");
	else if (err)
		fprintf(stderr, "coretrace report: %s\n", reader.error);
	else if (reader.cut)
		fprintf(stderr, "coretrace report: %llu records recovered from %s: the recording was cut short (coretrace record did not end it; up to a second of records before the cut is missing)\n",
			reader.records, opts->dir);
	else
		fprintf(stderr, "coretrace report: %llu records read from %s\n",
			reader.records, opts->dir);
	ct_comm_cache_free(&c->comms);
	free(c);
	return err ? CT_EXIT_USAGE : CT_EXIT_OK;
}
