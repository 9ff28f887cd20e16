// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loader/layout.h"

/*
 * "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;"
 * "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;"
 */
static int ct_format_parse_field(const char *line, struct ct_format_field *f)
{
	const char *decl = strstr(line, "field:"), *semi, *name, *p;
	size_t len;

	if (!decl)
		return -EINVAL;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return -EINVAL;
	/* the name is the last word of the declaration, without [N] */
	p = semi;
	if (p > decl && p[-1] == ']')
		while (p > decl && *p != '[')
			p--;
	name = p;
	while (name > decl && name[-1] != ' ' && name[-1] != '*')
		name--;
	len = (size_t)(p - name);
	if (len == 0 || len >= CT_FIELD_NAME_MAX)
		return -EINVAL;
	memcpy(f->name, name, len);
	f->name[len] = '\0';
	f->data_loc = strncmp(decl, "__data_loc", 10) == 0;
	f->common = strncmp(f->name, "common_", 7) == 0;
	f->pointer = memchr(decl, '*', (size_t)(name - decl)) != NULL;
	f->elems = 0;
	if (*p == '[' && !f->data_loc &&
	    (sscanf(p, "[%d]", &f->elems) != 1 || f->elems <= 0))
		return -EINVAL;
	p = strstr(semi, "offset:");
	if (!p || sscanf(p, "offset:%d;", &f->offset) != 1 || f->offset < 0)
		return -EINVAL;
	p = strstr(p, "size:");
	if (!p || sscanf(p, "size:%d;", &f->size) != 1 || f->size <= 0)
		return -EINVAL;
	/* older kernels print no signed: a field without it is unsigned */
	p = strstr(p, "signed:");
	f->is_signed = p && !strncmp(p, "signed:1;", 9);
	return 0;
}

int ct_format_parse(FILE *f, struct ct_tp_format *fmt)
{
	char line[512];
	int err;

	memset(fmt, 0, sizeof(*fmt));
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "field:"))
			continue;
		if (fmt->count == CT_MAX_FIELDS)
			return -E2BIG;
		err = ct_format_parse_field(line, &fmt->fields[fmt->count]);
		if (err)
			return err;
		fmt->count++;
	}
	return fmt->count ? 0 : -EINVAL;
}

const struct ct_format_field *ct_format_find(const struct ct_tp_format *fmt,
					     const char *btf_name)
{
	bool data_loc = strncmp(btf_name, "__data_loc_", 11) == 0;
	const char *name = data_loc ? btf_name + 11 : btf_name;
	int i;

	for (i = 0; i < fmt->count; i++)
		if (fmt->fields[i].data_loc == data_loc &&
		    !strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

/* copy the word at @s up to a char of @stops into @dst; returns its end */
static const char *ct_copy_word(const char *s, const char *stops, char *dst)
{
	size_t len = strcspn(s, stops);

	if (len == 0 || len >= CT_FIELD_NAME_MAX)
		return NULL;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return s + len;
}

int ct_relo_parse_line(const char *line, struct ct_relo *relo)
{
	const char *p = strstr(line, "prog '"), *q, *idx;

	memset(relo, 0, sizeof(*relo));
	if (!p || !strstr(line, ": matching candidate #"))
		return 0;
	p = ct_copy_word(p + 6, "'", relo->prog);
	if (!p)
		return 0;
	q = strstr(p, "<byte_off>");
	if (!q || !(q = strstr(q, "] struct ")))
		return 0;
	q = ct_copy_word(q + 9, ".", relo->type);
	if (!q || *q != '.')
		return 0;
	q = ct_copy_word(q + 1, " (", relo->field);
	if (!q || !(q = strstr(q, "@ offset ")))
		return 0;
	/* an element of an array field: next_comm[8] */
	if (!ct_copy_word(relo->field, "[", relo->base))
		return 0;
	idx = strchr(relo->field, '[');
	if (idx && (sscanf(idx, "[%d]", &relo->index) != 1 || relo->index < 0))
		return 0;
	if (sscanf(q, "@ offset %d)", &relo->target_offset) != 1 ||
	    relo->target_offset < 0)
		return 0;
	relo->local_offset = -1;
	return 1;
}

bool ct_core_failure_sentence(const char *log, const char *prog, char *buf,
			      size_t len)
{
	const char *hit = log ? strstr(log, "failed to resolve CO-RE relocation") : NULL;
	const char *spec, *end;
	size_t spec_len;

	if (!hit)
		return false;
	spec = strstr(hit, "] struct ");
	if (!spec)
		return false;
	spec += 9;
	end = spec + strcspn(spec, " (\n");
	spec_len = (size_t)(end - spec);
	if (spec_len == 0 || !memchr(spec, '.', spec_len))
		return false;
	snprintf(buf, len,
		 "%s reads %.*s, which this kernel does not have: its CO-RE relocation found no such field (guard it with bpf_core_field_exists)",
		 prog, (int)spec_len, spec);
	return true;
}

void ct_log_append(char *buf, size_t cap, size_t *len, const char *fmt,
		   va_list args)
{
	size_t room = cap > *len ? cap - *len : 0;
	va_list copy;
	int n;

	if (room <= 1)
		return;
	va_copy(copy, args);
	n = vsnprintf(buf + *len, room, fmt, copy);
	va_end(copy);
	if (n > 0)
		*len += (size_t)n < room ? (size_t)n : room - 1;
}

/* the number at *@p (digits only, at most 9 of them), and past it */
static bool ct_release_number(const char **p, unsigned int *value)
{
	unsigned int n = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 9) {
		n = n * 10 + (unsigned int)(**p - '0');
		(*p)++;
		digits++;
	}
	*value = n;
	return digits > 0 && !(**p >= '0' && **p <= '9');
}

bool ct_release_at_least(const char *release, unsigned int major,
			 unsigned int minor)
{
	unsigned int have_major, have_minor;
	const char *p = release;

	if (!p || !ct_release_number(&p, &have_major) || *p++ != '.' ||
	    !ct_release_number(&p, &have_minor))
		return false;
	return have_major > major ||
	       (have_major == major && have_minor >= minor);
}
