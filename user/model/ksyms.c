// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "base/htab.h"
#include "model/ksyms.h"

#define CT_KSYM_CACHE_SLOTS	4096
#define CT_KSYM_NAME_MAX	256

/*
 * A label the linker script puts at a section's edge (__sched_text_start,
 * _stext, __start_x): no function, though it shares its first one's
 * address
 */
static bool ct_ksym_is_marker(const char *name)
{
	size_t len = strlen(name);

	return !strcmp(name, "_stext") || !strcmp(name, "_text") ||
	       !strcmp(name, "_etext") || !strcmp(name, "_sinittext") ||
	       !strcmp(name, "_einittext") || !strncmp(name, "__start_", 8) ||
	       !strncmp(name, "__stop_", 7) ||
	       (len > 11 && !strcmp(name + len - 11, "_text_start")) ||
	       (len > 9 && !strcmp(name + len - 9, "_text_end"));
}

/* names, for the tie-break of ct_ksym_cmp (qsort's context) */
static const char *ct_ksym_names;

/* by address; at one address the label first, the function last (found) */
static int ct_ksym_cmp(const void *a, const void *b)
{
	const struct ct_ksym *x = a, *y = b;
	const char *nx, *ny;
	int mx, my;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	nx = ct_ksym_names + x->name_off;
	ny = ct_ksym_names + y->name_off;
	mx = ct_ksym_is_marker(nx);
	my = ct_ksym_is_marker(ny);
	if (mx != my)
		return my - mx;
	return strcmp(ny, nx);
}

static int ct_ksyms_grow(struct ct_ksyms *ks, size_t *cap, size_t *names_cap,
			 size_t name_len)
{
	if (ks->count == *cap) {
		size_t n = *cap ? *cap * 2 : 4096;
		void *p = realloc(ks->syms, n * sizeof(*ks->syms));

		if (!p)
			return -ENOMEM;
		ks->syms = p;
		*cap = n;
	}
	while (ks->names_len + name_len + 1 > *names_cap) {
		size_t n = *names_cap ? *names_cap * 2 : 65536;
		void *p = realloc(ks->names, n);

		if (!p)
			return -ENOMEM;
		ks->names = p;
		*names_cap = n;
	}
	return 0;
}

/* One line: "ffffffff81000000 T _stext" (a module name may follow). */
static int ct_ksyms_parse_line(const char *line, uint64_t *addr, char *type,
			       const char **name, size_t *name_len)
{
	const char *p = line;
	char *end;

	errno = 0;
	*addr = strtoull(p, &end, 16);
	if (errno || end == p || *end != ' ')
		return -1;
	p = end + 1;
	if (!*p || p[1] != ' ')
		return -1;
	*type = *p;
	p += 2;
	*name_len = strcspn(p, " \t\n");
	if (*name_len == 0 || *name_len >= CT_KSYM_NAME_MAX)
		return -1;
	*name = p;
	return 0;
}

int ct_ksyms_load(struct ct_ksyms *ks, FILE *f)
{
	size_t cap = 0, names_cap = 0, name_len;
	char line[512];
	const char *name;
	uint64_t addr;
	char type;

	memset(ks, 0, sizeof(*ks));
	ks->cache = calloc(CT_KSYM_CACHE_SLOTS, sizeof(*ks->cache));
	if (!ks->cache)
		return -ENOMEM;
	ks->cache_mask = CT_KSYM_CACHE_SLOTS - 1;
	while (fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n') && !feof(f)) {
			int c;

			/* an over-long line: skip the rest of it */
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			ks->skipped_lines++;
			continue;
		}
		if (ct_ksyms_parse_line(line, &addr, &type, &name, &name_len)) {
			ks->skipped_lines++;
			continue;
		}
		ks->parsed_lines++;
		if (!strchr("tTwW", type) || addr == 0)
			continue;
		if (ct_ksyms_grow(ks, &cap, &names_cap, name_len)) {
			ct_ksyms_free(ks);
			return -ENOMEM;
		}
		ks->syms[ks->count].addr = addr;
		ks->syms[ks->count].name_off = (uint32_t)ks->names_len;
		memcpy(ks->names + ks->names_len, name, name_len);
		ks->names[ks->names_len + name_len] = '\0';
		ks->names_len += name_len + 1;
		ks->count++;
	}
	if (ks->count) {
		ct_ksym_names = ks->names;
		qsort(ks->syms, ks->count, sizeof(*ks->syms), ct_ksym_cmp);
		ct_ksym_names = NULL;
	}
	return 0;
}

void ct_ksyms_free(struct ct_ksyms *ks)
{
	free(ks->syms);
	free(ks->names);
	free(ks->cache);
	memset(ks, 0, sizeof(*ks));
}

static const char *ct_ksyms_search(const struct ct_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->count;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	return ks->names + ks->syms[lo - 1].name_off;
}

const char *ct_ksyms_lookup(struct ct_ksyms *ks, uint64_t addr)
{
	struct ct_ksym_cache_slot *slot;

	if (!ks->count || !addr || !ks->cache)
		return NULL;
	/* direct-mapped: a name looked up again replaces the one at home */
	slot = &ks->cache[ct_probe_home(addr, ks->cache_mask)];
	if (slot->addr != addr) {
		slot->addr = addr;
		slot->name = ct_ksyms_search(ks, addr);
	}
	return slot->name;
}

void ct_symtab_set(struct ct_symtab *t, uint64_t addr, const char *name)
{
	struct ct_probe probe = ct_probe(addr, CT_SYMTAB_SLOTS - 1,
					 CT_SYMTAB_SLOTS);
	uint32_t at;

	if (!addr)
		return;
	while (ct_probe_next(&probe, &at)) {
		if (!t->slot[at].addr || t->slot[at].addr == addr) {
			t->slot[at].addr = addr;
			snprintf(t->slot[at].name, sizeof(t->slot[at].name), "%s",
				 name);
			return;
		}
	}
}

const char *ct_symtab_get(const struct ct_symtab *t, uint64_t addr)
{
	struct ct_probe probe = ct_probe(addr, CT_SYMTAB_SLOTS - 1,
					 CT_SYMTAB_SLOTS);
	uint32_t at;

	while (addr && ct_probe_next(&probe, &at)) {
		if (!t->slot[at].addr)
			return NULL;
		if (t->slot[at].addr == addr)
			return t->slot[at].name;
	}
	return NULL;
}
