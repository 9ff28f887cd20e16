// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the capture reader. Each input is tried twice: as
 * a metadata file and as a stream file. As a stream, the first packet's
 * uuid is taken as the trace's, so the fuzzer reaches the events instead
 * of stopping at the uuid check; later packets must still match it.
 * Every record read goes through both printers and the name tables, as
 * `coretrace report` does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "comm_cache.h"
#include "ctf_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ct_comm_cache fuzz_comms;
static struct ct_irq_names fuzz_irqs;
static struct ct_symtab fuzz_syms;

static void fuzz_ksym(void *ctx, uint64_t addr, const char *name)
{
	(void)ctx;
	ct_symtab_set(&fuzz_syms, addr, name);
}

static void fuzz_record(const union ct_record *rec, void *ctx)
{
	struct ct_print_ctx pctx = { &fuzz_comms, NULL, &fuzz_irqs, &fuzz_syms, NULL };
	char line[512];

	(void)ctx;
	ct_format(CT_FORMAT_TEXT, rec, &pctx, line, sizeof(line));
	ct_format(CT_FORMAT_JSON, rec, &pctx, line, sizeof(line));
	ct_learn_names(rec, &fuzz_comms, &fuzz_irqs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ct_ctf_reader r;
	char *text;

	if (!fuzz_comms.mask && ct_comm_cache_init(&fuzz_comms, 1024))
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
	if (size >= 20)
		memcpy(r.uuid, data + 4, 16);
	ct_ctf_reader_stream(&r, "stream_0", data, size, fuzz_record, NULL);
	return 0;
}
