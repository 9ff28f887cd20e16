// SPDX-License-Identifier: GPL-2.0
/*
 * Reading coretrace's own CTF captures back: every packet is checked
 * against the file it sits in, every event is rebuilt into a coretrace
 * record and goes through the same decoder as the live path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ctf_read.h"

#define CT_META_MAX	(1u << 20)
#define CT_STREAM_MAX	((size_t)1 << 32)

static int ct_fail(struct ct_ctf_reader *r, const char *file, size_t offset,
		   const char *what)
{
	snprintf(r->error, sizeof(r->error), "%.4000s: offset %zu: %.300s", file,
		 offset, what);
	return -EINVAL;
}

static int ct_read_file(const char *path, unsigned char **data, size_t *len,
			size_t max)
{
	struct stat st;
	FILE *f = fopen(path, "rb");

	*data = NULL;
	*len = 0;
	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || (size_t)st.st_size > max) {
		fclose(f);
		return -EFBIG;
	}
	*data = malloc((size_t)st.st_size + 1);
	if (!*data) {
		fclose(f);
		return -ENOMEM;
	}
	*len = fread(*data, 1, (size_t)st.st_size, f);
	(*data)[*len] = '\0';
	fclose(f);
	return 0;
}

static int ct_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "uuid = \"xxxxxxxx-xxxx-...\"" -> 16 bytes */
static int ct_parse_uuid(const char *text, unsigned char uuid[16])
{
	const char *p = strstr(text, "uuid = \"");
	int i = 0, hi, lo;

	if (!p)
		return -EINVAL;
	for (p += 8; *p && *p != '"' && i < 16; p++) {
		if (*p == '-')
			continue;
		hi = ct_hex(p[0]);
		lo = ct_hex(p[1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		uuid[i++] = (unsigned char)(hi << 4 | lo);
		p++;
	}
	return i == 16 ? 0 : -EINVAL;
}

int ct_ctf_reader_metadata(struct ct_ctf_reader *r, const char *path,
			   const char *text, size_t len)
{
	const char *abi, *format;

	if (len < 12 || strncmp(text, "/* CTF 1.8", 10))
		return ct_fail(r, path, 0, "not CTF 1.8 metadata (no /* CTF 1.8 marker)");
	abi = strstr(text, "coretrace_abi = ");
	if (!abi)
		return ct_fail(r, path, 0, "not a coretrace capture (no coretrace_abi in env)");
	if (atoi(abi + 16) != CT_ABI_VERSION)
		return ct_fail(r, path, (size_t)(abi - text),
			       atoi(abi + 16) > CT_ABI_VERSION ?
			       "record ABI version from the future" :
			       "record ABI version this coretrace does not read");
	format = strstr(text, "coretrace_ctf = ");
	if (!format || atoi(format + 16) != CT_CTF_FORMAT)
		return ct_fail(r, path, format ? (size_t)(format - text) : 0,
			       format && atoi(format + 16) > CT_CTF_FORMAT ?
			       "capture layout from the future" :
			       "capture layout this coretrace does not read (older coretrace)");
	if (ct_parse_uuid(text, r->uuid))
		return ct_fail(r, path, 0, "no trace uuid");
	return 0;
}

int ct_ctf_reader_open(struct ct_ctf_reader *r, const char *dir)
{
	char path[4096];
	unsigned char *meta;
	size_t len;
	int err;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	err = ct_read_file(path, &meta, &len, CT_META_MAX);
	if (err) {
		snprintf(r->error, sizeof(r->error), "%.4000s: %.300s", path,
			 err == -EFBIG ? "too large for a coretrace metadata file"
				       : strerror(-err));
		return err;
	}
	err = ct_ctf_reader_metadata(r, path, (const char *)meta, len);
	free(meta);
	snprintf(path, sizeof(path), "%s/" CT_CTF_CUT_FILE, dir);
	r->cut = !access(path, F_OK);
	return err;
}

static uint64_t ct_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t ct_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The event header at @p: its id and size, the timestamp in @clock. */
static long ct_read_header(const unsigned char *p, size_t len,
			   uint64_t *clock, unsigned int *id)
{
	uint64_t ts;

	if (len >= 1 && p[0] == CT_CTF_ID_EXTENDED) {
		if (len < 10)
			return -1;
		*id = p[1];
		*clock = ct_u64(p + 2);
		return 10;
	}
	if (len < 5)
		return -1;
	*id = p[0];
	/* the low 32 bits: the clock wrapped if they went back */
	ts = (*clock & ~0xffffffffull) | ct_u32(p + 1);
	if (ts < *clock)
		ts += 1ull << 32;
	*clock = ts;
	return 5;
}

/*
 * Rebuild one event at @p (at most @len bytes) into @raw; its size, -1
 * when it runs past @len, -2 for an unknown type, -3 for a bad string.
 */
static long ct_read_event(const unsigned char *p, size_t len, unsigned cpu,
			  uint64_t *clock, union ct_record *raw)
{
	const struct ct_ctf_field *field;
	unsigned char *out = (unsigned char *)raw;
	const unsigned char *nul;
	unsigned int id;
	long head;
	size_t pos, n;

	head = ct_read_header(p, len, clock, &id);
	if (head < 0)
		return head;
	if (id >= CT_EV_MAX)
		return -2;
	memset(raw, 0, sizeof(*raw));
	raw->hdr.type = (uint8_t)id;
	raw->hdr.ts = *clock;
	raw->hdr.cpu = (uint16_t)cpu;
	pos = (size_t)head;
	for (field = ct_ctf_events[id].fields; field->name; field++) {
		if (field->kind == CT_CTF_STRING || field->kind == CT_CTF_COMM) {
			nul = memchr(p + pos, '\0', len - pos);
			if (!nul)
				return -1;
			n = (size_t)(nul - (p + pos));
			if (n >= field->size)
				return -3;
			/* a name on disk only (next_comm) is not in the record */
			if (field->kind == CT_CTF_STRING)
				memcpy(out + field->offset, p + pos, n);
			pos += n + 1;
		} else {
			if (pos + field->size > len)
				return -1;
			memcpy(out + field->offset, p + pos, field->size);
			pos += field->size;
		}
	}
	return (long)pos;
}

int ct_ctf_reader_stream(struct ct_ctf_reader *r, const char *path,
			 const unsigned char *data, size_t len,
			 ct_ctf_record_cb cb, void *ctx)
{
	const size_t head = CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES;
	union ct_record raw, rec;
	size_t off = 0, pos, end;
	uint64_t content, packet, clock;
	unsigned int cpu;
	long n;

	while (off < len) {
		if (len - off < head)
			return ct_fail(r, path, off, "truncated packet header");
		if (ct_u32(data + off) != CT_CTF_MAGIC)
			return ct_fail(r, path, off, "wrong packet magic");
		if (memcmp(data + off + 4, r->uuid, 16))
			return ct_fail(r, path, off, "packet of another trace (uuid differs)");
		content = ct_u64(data + off + 40);
		packet = ct_u64(data + off + 48);
		cpu = ct_u32(data + off + 64);
		if (content % 8 || packet % 8 || content > packet ||
		    content < head * 8)
			return ct_fail(r, path, off, "content size larger than the packet, or not whole bytes");
		if (packet / 8 > len - off)
			return ct_fail(r, path, off, "packet size points past the end of the file");
		r->discarded = ct_u64(data + off + 56);
		clock = ct_u64(data + off + 24);	/* timestamp_begin */
		end = off + (size_t)(content / 8);
		for (pos = off + head; pos < end; pos += (size_t)n) {
			n = ct_read_event(data + pos, end - pos, cpu, &clock, &raw);
			if (n == -2)
				return ct_fail(r, path, pos, "record of an unknown type");
			if (n == -3)
				return ct_fail(r, path, pos, "string longer than its field");
			if (n < 0)
				return ct_fail(r, path, pos, "event runs past its packet's content");
			if (ct_decode(&raw, ct_events[raw.hdr.type].size, &rec))
				return ct_fail(r, path, pos, "record the decoder refuses");
			r->records++;
			cb(&rec, ctx);
		}
		off += (size_t)(packet / 8);
	}
	return 0;
}

/*
 * A damaged stream stops at its first problem, but the other streams are
 * still read: after a crash, everything that reached the disk whole is
 * recovered. The first problem is the one reported.
 */
/* stream_N files, N a CPU number: the streams coretrace writes */
static int ct_is_stream(const struct dirent *entry)
{
	const char *p = entry->d_name;

	if (strncmp(p, "stream_", 7) || !p[7])
		return 0;
	for (p += 7; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int ct_ctf_reader_run(struct ct_ctf_reader *r, ct_ctf_record_cb cb, void *ctx)
{
	struct ct_ctf_reader stream_r;
	struct dirent **names;
	char path[4096];
	unsigned char *data;
	size_t len;
	int i, n, err, first_err = 0;

	/* a CPU without events has no file: stream_1 may be missing */
	n = scandir(r->dir, &names, ct_is_stream, versionsort);
	if (n < 0) {
		snprintf(r->error, sizeof(r->error), "%.4000s: %.300s", r->dir,
			 strerror(errno));
		return -errno;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, names[i]->d_name);
		free(names[i]);
		stream_r = *r;
		err = ct_read_file(path, &data, &len, CT_STREAM_MAX);
		if (err)
			snprintf(stream_r.error, sizeof(stream_r.error),
				 "%.4000s: %.300s", path, strerror(-err));
		else if (!len)
			err = ct_fail(&stream_r, path, 0,
				      "empty stream file (a stream holds at least one packet)");
		else
			err = ct_ctf_reader_stream(&stream_r, path, data, len,
						   cb, ctx);
		free(data);
		r->records = stream_r.records;
		if (err && !first_err) {
			first_err = err;
			memcpy(r->error, stream_r.error, sizeof(r->error));
		}
		r->damaged_streams += err != 0;
	}
	free(names);
	if (!n) {
		snprintf(r->error, sizeof(r->error), "%.4000s: no stream files (stream_0...)",
			 r->dir);
		return -ENOENT;
	}
	return first_err;
}
