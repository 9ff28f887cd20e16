// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the capture reader. Each input is tried twice: as
 * a metadata file and as a stream file. As a stream, the first packet's
 * uuid is taken as the trace's, so the fuzzer reaches the events instead
 * of stopping at the uuid check; later packets must still match it.
 * Every record read goes through both printers, the name tables and the
 * analyses (groups included), as `coretrace report` does; the analyses
 * and tables live across inputs (bounded, as in a long report), and the
 * views by cgroup are read after each input that named a group. Call
 * stacks and user frames' names go to their tables, and off-CPU time by
 * stack is counted and printed after each input, as report --offcpu does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/analysis.h"
#include "model/cgroup.h"
#include "model/comm_cache.h"
#include "model/offcpu.h"
#include "capture/ctf_read.h"
#include "views/top.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ct_comm_cache fuzz_comms;
static struct ct_irq_names fuzz_irqs;
static struct ct_symtab fuzz_syms;
static struct ct_cgroup_names fuzz_groups;
static struct ct_analysis fuzz_an;
static bool fuzz_saw_group;
static struct ct_stacks fuzz_stacks;
static struct ct_usyms *fuzz_usyms;
static struct ct_offcpu fuzz_offcpu;

static void fuzz_ksym(void *ctx, uint64_t addr, const char *name)
{
	(void)ctx;
	ct_symtab_set(&fuzz_syms, addr, name);
}

static void fuzz_record(const union ct_record *rec, void *ctx)
{
	struct ct_print_ctx pctx = { &fuzz_comms, NULL, &fuzz_irqs, &fuzz_syms,
				     &fuzz_groups, &fuzz_stacks, fuzz_usyms };
	char line[16384];

	(void)ctx;
	ct_format(CT_FORMAT_TEXT, rec, &pctx, line, sizeof(line));
	ct_format(CT_FORMAT_JSON, rec, &pctx, line, sizeof(line));
	ct_learn_names(rec, &fuzz_comms, &fuzz_irqs);
	ct_cgroup_learn(&fuzz_groups, rec->hdr.type, rec);
	ct_analysis_feed(&fuzz_an, rec);
	ct_offcpu_feed(&fuzz_offcpu, rec);
	fuzz_saw_group |= rec->hdr.type == CT_EV_TASK_CGROUP ||
			  rec->hdr.type == CT_EV_CGROUP_NAME;
}

/* what the views by cgroup read after a capture */
static void fuzz_views(void)
{
	static struct ct_an_group rows[CT_GROUP_ROWS];
	struct ct_print_ctx pctx = { &fuzz_comms, NULL, &fuzz_irqs, &fuzz_syms,
				     &fuzz_groups, &fuzz_stacks, fuzz_usyms };
	static uint64_t printed_ns;
	char buf[64];
	size_t n, i;
	FILE *null;

	/* off-CPU time by stack, printed when an input added some */
	if (fuzz_offcpu.total_ns != printed_ns) {
		printed_ns = fuzz_offcpu.total_ns;
		null = fopen("/dev/null", "w");
		if (!null ||
		    ct_offcpu_print(&fuzz_offcpu, null, &pctx, CT_OFFCPU_FOLDED) ||
		    ct_offcpu_print(&fuzz_offcpu, null, &pctx, CT_OFFCPU_JSON))
			abort();
		fclose(null);
	}

	if (!fuzz_saw_group)
		return;
	fuzz_saw_group = false;
	ct_analysis_settle(&fuzz_an, fuzz_an.last_ts);
	n = ct_group_rows(&fuzz_an, false, rows, CT_GROUP_ROWS);
	for (i = 0; i < n; i++)
		if (!ct_group_name(&pctx, rows[i].id, buf, sizeof(buf)))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ct_ctf_reader r;
	char *text;

	if (!fuzz_comms.mask && (ct_comm_cache_init(&fuzz_comms, 1024) ||
				 ct_cgroup_names_init(&fuzz_groups, 1024, 64) ||
				 ct_analysis_init(&fuzz_an, 8, 256) ||
				 ct_offcpu_init(&fuzz_offcpu, &fuzz_comms) ||
				 !(fuzz_usyms = ct_usyms_new(false))))
		abort();
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&r, 0, sizeof(r));
	ct_ctf_reader_metadata(&r, "metadata", text, size);
	free(text);

	memset(&r, 0, sizeof(r));
	r.on_ksym = fuzz_ksym;
	r.stacks = &fuzz_stacks;
	r.usyms = fuzz_usyms;
	if (size >= 20)
		memcpy(r.uuid, data + 4, 16);
	ct_ctf_reader_stream(&r, "stream_0", data, size, fuzz_record, NULL);
	fuzz_views();
	return 0;
}
