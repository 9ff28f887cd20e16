// SPDX-License-Identifier: GPL-2.0
/*
 * Values every command's options take (durations, sizes, events, CPUs,
 * pids, task names), and the check of a command's output on close.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/args.h"

int ct_parse_seconds(const char *arg, double *seconds)
{
	double value, scale = 1.0;
	char *end;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		scale = 0.001;
	else if (!strcmp(end, "us"))
		scale = 0.000001;
	else if (!strcmp(end, "m"))
		scale = 60.0;
	else if (*end && strcmp(end, "s"))
		return -EINVAL;
	value *= scale;
	if (!isfinite(value) || value <= 0.0 || value > 86400.0)
		return -ERANGE;
	*seconds = value;
	return 0;
}

int ct_parse_size(const char *arg, uint64_t *bytes)
{
	unsigned long long value;
	unsigned int shift = 0;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	value = strtoull(arg, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -EINVAL;
	if (value > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes = (uint64_t)value << shift;
	return 0;
}

int ct_ring_size(uint64_t requested, uint32_t *size)
{
	uint64_t ring = CT_MIN_BUFFER_SIZE;

	if (requested == 0 || requested > CT_MAX_BUFFER_SIZE)
		return -ERANGE;
	while (ring < requested)
		ring <<= 1;
	*size = (uint32_t)ring;
	return 0;
}

uint64_t ct_all_events(void)
{
	uint64_t mask = 0;
	int i;

	for (i = 0; i < CT_EV_MAX; i++)
		if (ct_events[i].tp_name[0])
			mask |= 1ull << i;
	return mask;
}

/* one item of -e: "name", "group:name", "group:*", "*" or "all" */
static uint64_t ct_match_event(const char *item, size_t len)
{
	const char *colon = memchr(item, ':', len);
	uint64_t mask = 0;
	int i;

	if ((len == 1 && item[0] == '*') || (len == 3 && !strncmp(item, "all", 3)))
		return ct_all_events();
	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *d = &ct_events[i];
		size_t cat_len;

		if (!d->tp_name[0])
			continue;
		if (!colon) {
			if (strlen(d->name) == len && !strncmp(d->name, item, len))
				mask |= 1ull << i;
			continue;
		}
		cat_len = (size_t)(colon - item);
		if (strlen(d->tp_category) != cat_len ||
		    strncmp(d->tp_category, item, cat_len))
			continue;
		if ((len - cat_len - 1 == 1 && colon[1] == '*') ||
		    (strlen(d->tp_name) == len - cat_len - 1 &&
		     !strncmp(d->tp_name, colon + 1, len - cat_len - 1)))
			mask |= 1ull << i;
	}
	return mask;
}

static void ct_list_valid_events(FILE *err)
{
	const char *sep = "";
	int i;

	fputs("valid events are all, GROUP:* and", err);
	for (i = 0; i < CT_EV_MAX; i++) {
		if (!ct_events[i].tp_name[0])
			continue;
		fprintf(err, "%s %s:%s", sep, ct_events[i].tp_category,
			ct_events[i].tp_name);
		sep = ",";
	}
	fputs("\n", err);
}

int ct_parse_events(const char *arg, uint64_t *mask, FILE *err)
{
	uint64_t result = 0, one;
	const char *p = arg;

	if (!arg || !*arg) {
		fputs("coretrace record: -e needs at least one event; ", err);
		ct_list_valid_events(err);
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		one = len ? ct_match_event(p, len) : 0;
		if (!one) {
			fprintf(err, "coretrace record: unknown event '%.*s'; ",
				(int)len, p);
			ct_list_valid_events(err);
			return -EINVAL;
		}
		result |= one;
		p += len;
		if (!*p)
			break;
		p++;	/* a comma: another item must follow */
	}
	*mask = result;
	return 0;
}

static int ct_parse_uint(const char **p, unsigned long *value)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*value = strtoul(*p, &end, 10);
	if (errno)
		return -ERANGE;
	*p = end;
	return 0;
}

int ct_parse_count(const char *arg, unsigned int *count)
{
	unsigned long value;
	const char *p = arg;

	if (!arg || ct_parse_uint(&p, &value) || *p || value > UINT_MAX)
		return -EINVAL;
	*count = (unsigned int)value;
	return 0;
}

int ct_parse_file_mode(const char *arg, unsigned int *mode)
{
	unsigned int value = 0;
	const char *p;

	if (!arg || !*arg || strlen(arg) > 4)
		return -EINVAL;
	for (p = arg; *p; p++) {
		if (*p < '0' || *p > '7')
			return -EINVAL;
		value = value * 8 + (unsigned int)(*p - '0');
	}
	/*
	 * no execute, set-id or sticky bit (a capture is data), and no one
	 * but the owner writes: its directories would let them plant links
	 */
	if (value & ~0644u)
		return -EINVAL;
	*mode = value;
	return 0;
}

int ct_parse_cpus(const char *arg, uint8_t *cpus)
{
	uint8_t parsed[CT_MAX_CPUS] = { 0 };
	unsigned long first, last, cpu;
	const char *p = arg;

	if (!arg || !*arg)
		return -EINVAL;
	for (;;) {
		if (ct_parse_uint(&p, &first))
			return -EINVAL;
		last = first;
		if (*p == '-') {
			p++;
			if (ct_parse_uint(&p, &last) || last < first)
				return -EINVAL;
		}
		if (last >= CT_MAX_CPUS)
			return -ERANGE;
		for (cpu = first; cpu <= last; cpu++)
			parsed[cpu] = 1;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	memcpy(cpus, parsed, sizeof(parsed));
	return 0;
}

int ct_parse_pid(const char *arg, uint32_t *pid)
{
	const char *p = arg;
	unsigned long value;

	if (!arg || ct_parse_uint(&p, &value) || *p)
		return -EINVAL;
	if (value == 0 || value > CT_PID_MAX)
		return -ERANGE;
	*pid = (uint32_t)value;
	return 0;
}

int ct_parse_comm(const char *arg, char *comm, uint32_t *len, bool *prefix)
{
	size_t n = arg ? strlen(arg) : 0;
	bool is_prefix = n > 0 && arg[n - 1] == '*';

	if (is_prefix)
		n--;
	if (n == 0 || n >= CT_COMM_LEN || memchr(arg, '*', n))
		return -EINVAL;
	memset(comm, 0, CT_COMM_LEN);
	memcpy(comm, arg, n);
	*len = (uint32_t)n;
	*prefix = is_prefix;
	return 0;
}


int ct_close_output(FILE *f, const char *who, const char *what)
{
	FILE *out = f ? f : stdout;
	int failed, err;

	errno = 0;
	failed = fflush(out) || ferror(out);
	err = errno;
	if (f && fclose(f) && !failed) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return 0;
	fprintf(stderr, "%s: writing %s failed: %s\n", who, what,
		err ? strerror(err) : "an earlier write failed");
	return -1;
}

/* --by task|cgroup: what the rows of an overview are */
int ct_parse_by(const char *arg, bool *by_cgroup, FILE *err,
		       const char *cmd)
{
	if (!strcmp(arg, "task") || !strcmp(arg, "cgroup")) {
		*by_cgroup = arg[0] == 'c';
		return 0;
	}
	fprintf(err, "coretrace %s: --by wants task or cgroup, not '%s'\n",
		cmd, arg);
	return -1;
}
