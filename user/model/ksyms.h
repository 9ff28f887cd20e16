/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from /proc/kallsyms, to name the functions timers and
 * work items run. Loaded once at start; each address is resolved once
 * and the answer cached, so decoding a record never searches twice.
 */
#ifndef CORETRACE_KSYMS_H
#define CORETRACE_KSYMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ct_ksym {
	uint64_t addr;
	uint32_t name_off;	/* into ct_ksyms.names */
};

struct ct_ksym_cache_slot {
	uint64_t addr;		/* 0: empty */
	const char *name;
};

struct ct_ksyms {
	struct ct_ksym *syms;
	size_t count;
	char *names;
	size_t names_len;
	struct ct_ksym_cache_slot *cache;
	uint32_t cache_mask;
	unsigned long parsed_lines, skipped_lines;
};

/*
 * Parse kallsyms text ("ADDR TYPE NAME [MODULE]" lines) from @f. Keeps
 * text symbols (t/T/w/W); lines that do not parse are counted and
 * skipped. Returns 0, or -ENOMEM.
 */
int ct_ksyms_load(struct ct_ksyms *ks, FILE *f);
void ct_ksyms_free(struct ct_ksyms *ks);

/*
 * The symbol containing @addr, or NULL when there is none (no symbols, or
 * all addresses read as 0 because kptr_restrict hides them).
 */
const char *ct_ksyms_lookup(struct ct_ksyms *ks, uint64_t addr);

/*
 * Function names a capture carries (coretrace_ksym events): exact
 * addresses, a fixed table; when it is full, later names are dropped.
 */
#define CT_SYMTAB_SLOTS		16384	/* functions, and frames of stacks */
#define CT_SYMTAB_NAME		96

struct ct_symtab {
	struct {
		uint64_t addr;		/* 0: empty */
		char name[CT_SYMTAB_NAME];
	} slot[CT_SYMTAB_SLOTS];
};

void ct_symtab_set(struct ct_symtab *t, uint64_t addr, const char *name);
const char *ct_symtab_get(const struct ct_symtab *t, uint64_t addr);

#endif /* CORETRACE_KSYMS_H */
