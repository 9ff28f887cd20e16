// SPDX-License-Identifier: GPL-2.0
/*
 * Reading coretrace's own CTF captures back: every packet is checked
 * against the file it sits in, every event is rebuilt into a coretrace
 * record and goes through the same decoder as the live path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/ctf_read.h"

#define CT_META_MAX	(1u << 20)

static int ct_fail(struct ct_ctf_reader *r, const char *file, size_t offset,
		   const char *what)
{
	snprintf(r->error, sizeof(r->error), "%.4000s: offset %zu: %.300s", file,
		 offset, what);
	return -EINVAL;
}

/*
 * Opens @path for reading only if it is a regular file: a FIFO would block
 * the open (O_NONBLOCK keeps it from doing so), a directory or a device is
 * no part of a capture. Returns the descriptor or -errno; -EFTYPE_CT for a
 * file of the wrong kind, which ct_kind_error() names.
 */
#define EFTYPE_CT	(-1000)

static int ct_open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return EFTYPE_CT;
	}
	/* reads of a regular file do not block: back to blocking mode */
	fcntl(fd, F_SETFL, 0);
	return fd;
}

/* What a file of the wrong kind is, for the one sentence that says so. */
static const char *ct_kind_error(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory, not a file";
	if (S_ISFIFO(mode))
		return "a FIFO, not a regular file";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device, not a regular file";
	if (S_ISSOCK(mode))
		return "a socket, not a regular file";
	return "not a regular file";
}

static int ct_read_file(const char *path, unsigned char **data, size_t *len,
			size_t max, struct stat *st)
{
	ssize_t n;
	int fd;

	*data = NULL;
	*len = 0;
	fd = ct_open_regular(path, st);
	if (fd < 0)
		return fd;
	if ((size_t)st->st_size > max) {
		close(fd);
		return -EFBIG;
	}
	*data = malloc((size_t)st->st_size + 1);
	if (!*data) {
		close(fd);
		return -ENOMEM;
	}
	while (*len < (size_t)st->st_size) {
		n = read(fd, *data + *len, (size_t)st->st_size - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	(*data)[*len] = '\0';
	close(fd);
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

/*
 * A capture's metadata is the text this coretrace writes, byte for byte:
 * only the env's kernel_release and hostname strings and the clock's
 * offset to real time vary, and the reader writes the text again with the
 * capture's own values and compares. A difference is named by the part of
 * the text it is in.
 */
static const struct {
	const char *from;
	const char *what;
} ct_metadata_parts[] = {
	{ "/* CTF 1.8", "types and trace packet header" },
	{ "env {\n", "env" },
	{ "clock {\n", "clock" },
	{ "stream {\n", "stream and event declarations" },
};

#define CT_METADATA_PARTS \
	(int)(sizeof(ct_metadata_parts) / sizeof(ct_metadata_parts[0]))

/* The name of the part of @want (the writer's text) that holds byte @at */
static const char *ct_metadata_part(const char *want, size_t at)
{
	const char *what = ct_metadata_parts[0].what, *p;
	int i;

	for (i = 1; i < CT_METADATA_PARTS; i++) {
		p = strstr(want, ct_metadata_parts[i].from);
		if (p && (size_t)(p - want) <= at)
			what = ct_metadata_parts[i].what;
	}
	return what;
}

/*
 * The string after @key (a TSDL literal the writer wrote: printable ASCII
 * without quote or backslash) into @buf; -1 when there is none.
 */
static int ct_metadata_string(const char *text, const char *key, char *buf,
			      size_t len)
{
	const char *p = strstr(text, key);
	size_t n = 0;

	if (!p)
		return -1;
	for (p += strlen(key); *p != '"'; p++) {
		if (*p < 0x20 || *p > 0x7e || *p == '\\' || n + 1 >= len)
			return -1;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	return 0;
}

static int ct_metadata_env(const char *text, struct ct_ctf_env *env,
			   char *release, char *host, size_t len)
{
	const char *p = strstr(text, "\toffset_s = ");
	long long seconds, ns;
	char *end;

	if (ct_metadata_string(text, "\tkernel_release = \"", release, len) ||
	    ct_metadata_string(text, "\thostname = \"", host, len) || !p)
		return -1;
	seconds = strtoll(p + 12, &end, 10);
	if (strncmp(end, ";\n\toffset = ", 12))
		return -1;
	ns = strtoll(end + 12, &end, 10);
	if (*end != ';' || seconds > INT64_MAX / 1000000000 - 1 ||
	    seconds < INT64_MIN / 1000000000 + 1)
		return -1;
	env->kernel_release = release;
	env->hostname = host;
	env->clock_offset_ns = seconds * 1000000000 + ns;
	return 0;
}

/* The unsigned number after @key, a line of the env; -1 when there is none */
static int ct_metadata_u64(const char *text, const char *key, uint64_t *value)
{
	const char *p = strstr(text, key);
	unsigned long long v;
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno || *end != ';')
		return -1;
	*value = v;
	return 0;
}

/*
 * What an always-on recording's part says of itself (ctf.c writes it in
 * the env); the whole text is then compared with what the writer makes of
 * these values, so only their presence and form are checked here. 0 for a
 * plain capture, 1 for a part, -1 when the values are not well formed.
 */
static int ct_metadata_part_env(struct ct_ctf_reader *r, const char *text)
{
	struct ct_ctf_part *part = &r->part;
	uint64_t index;

	if (!strstr(text, "\tcoretrace_part = \""))
		return 0;
	if (ct_metadata_string(text, "\tcoretrace_part = \"", r->part_kind,
			       sizeof(r->part_kind)) ||
	    ct_metadata_u64(text, "\tcoretrace_part_index = ", &index) ||
	    index > UINT32_MAX ||
	    ct_metadata_u64(text, "\tcoretrace_overwritten_packets = ",
			    &part->overwritten_packets) ||
	    ct_metadata_u64(text, "\tcoretrace_overwritten_records = ",
			    &part->overwritten_records))
		return -1;
	part->kind = r->part_kind;
	part->index = (uint32_t)index;
	if (strstr(text, "\tcoretrace_reason = \"")) {
		if (ct_metadata_string(text, "\tcoretrace_reason = \"",
				       r->part_reason, sizeof(r->part_reason)))
			return -1;
		part->reason = r->part_reason;
	}
	if (strstr(text, "\tcoretrace_span_begin_ns = ") &&
	    (ct_metadata_u64(text, "\tcoretrace_span_begin_ns = ",
			     &part->span_begin_ns) ||
	     ct_metadata_u64(text, "\tcoretrace_span_end_ns = ",
			     &part->span_end_ns) || !part->span_end_ns))
		return -1;
	r->is_part = true;
	return 1;
}

static int ct_metadata_layout(struct ct_ctf_reader *r, const char *path,
			      const char *text, size_t len)
{
	char release[256], host[256], what[200];
	struct ct_ctf_env env;
	char *want = NULL;
	size_t want_len = 0, k;
	FILE *f;
	int part;

	if (strlen(text) != len)
		return ct_fail(r, path, strlen(text), "NUL byte in the metadata");
	if (ct_metadata_env(text, &env, release, host, sizeof(release)))
		return ct_fail(r, path, 0, "env or clock values not written the way coretrace writes them (kernel_release, hostname, offset_s, offset)");
	part = ct_metadata_part_env(r, text);
	if (part < 0)
		return ct_fail(r, path, 0, "env values of a snapshot or chunk not written the way coretrace writes them (coretrace_part, _index, _reason, _span_*, _overwritten_*)");
	f = open_memstream(&want, &want_len);
	if (!f)
		return ct_fail(r, path, 0, "out of memory");
	if (ct_ctf_write_part_metadata(f, r->uuid, &env, part ? &r->part : NULL) ||
	    fclose(f)) {
		free(want);
		return ct_fail(r, path, 0, "out of memory");
	}
	for (k = 0; k < len && k < want_len && text[k] == want[k]; k++)
		;
	if (k < len || k < want_len) {
		snprintf(what, sizeof(what), "%s differ from the ones this coretrace writes",
			 ct_metadata_part(want, k));
		free(want);
		return ct_fail(r, path, k, what);
	}
	free(want);
	return 0;
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
	return ct_metadata_layout(r, path, text, len);
}

static bool ct_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* True when a file of directory @dir is the file @target. */
static bool ct_dir_holds(const char *dir, const struct stat *target)
{
	char path[4096];
	struct dirent *e;
	struct stat st;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		found = !stat(path, &st) && ct_same_file(&st, target);
	}
	closedir(d);
	return found;
}

/* N of "@prefix-N", N all digits; -1 when @name is not one */
static long ct_part_number(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	const char *p;

	if (strncmp(name, prefix, len) || name[len] != '-' || !name[len + 1])
		return -1;
	for (p = name + len + 1; *p; p++)
		if (*p < '0' || *p > '9' || p - name > 20)
			return -1;
	return atol(name + len + 1);
}

/* True when directory @path is a chunk-N of the rotated recording @cap */
static bool ct_in_chunk(const char *path, const struct stat *cap)
{
	char up[4200];
	struct stat st;
	const char *base = strrchr(path, '/');

	if (ct_part_number(base ? base + 1 : path, "chunk") < 0)
		return false;
	snprintf(up, sizeof(up), "%s/..", path);
	return !stat(up, &st) && ct_same_file(&st, cap);
}

FILE *ct_output_open(const char *out, char *why, size_t len)
{
	struct stat st;
	FILE *f = NULL;
	int fd, err = 0;

	/* O_NONBLOCK: a FIFO planted there must not hold us at open */
	fd = open(out, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		err = errno;
		if (err == ELOOP)
			snprintf(why, len, "%.4000s: is a symbolic link; coretrace does not write through links",
				 out);
		else if (!lstat(out, &st) && !S_ISREG(st.st_mode))
			snprintf(why, len, "%.4000s: is not a regular file", out);
		else
			snprintf(why, len, "cannot write %.4000s: %s", out,
				 strerror(err));
		errno = err;
		return NULL;
	}
	if (fstat(fd, &st))
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if (st.st_nlink > 1 || st.st_uid != geteuid())
		err = EPERM;	/* a hard link, or someone else's: not truncated */
	else if (ftruncate(fd, 0) || fcntl(fd, F_SETFL, 0) < 0)
		err = errno;
	if (!err)
		f = fdopen(fd, "w");
	if (!f) {
		err = err ? err : errno;
		if (err == EINVAL)
			snprintf(why, len, "%.4000s: is not a regular file", out);
		else if (err == EPERM && st.st_nlink > 1)
			snprintf(why, len, "%.4000s: has %lu hard links; coretrace does not overwrite a file other names share",
				 out, (unsigned long)st.st_nlink);
		else if (err == EPERM)
			snprintf(why, len, "%.4000s: belongs to uid %u, not to the user coretrace runs as (uid %u); remove it or name another file",
				 out, (unsigned int)st.st_uid, (unsigned int)geteuid());
		else
			snprintf(why, len, "cannot write %.4000s: %s", out,
				 strerror(err));
		close(fd);
		errno = err;
	}
	return f;
}

int ct_output_check(const char *out, const char *dir, char *why, size_t len)
{
	char parent[4096];
	struct stat cap, st;
	char *slash;

	if (!*out) {
		snprintf(why, len, "the output file's name is empty");
		return -EINVAL;
	}
	if (stat(dir, &cap))
		return 0;	/* the reader says what is wrong with it */
	if (!stat(out, &st)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, len, "%.4000s: is a directory; name a file to write", out);
			return -EISDIR;
		}
		if (ct_dir_holds(dir, &st)) {
			snprintf(why, len, "%.4000s: is a file of the capture being read (%.300s); writing it would destroy the capture",
				 out, dir);
			return -EEXIST;
		}
	}
	if (snprintf(parent, sizeof(parent), "%s", out) >= (int)sizeof(parent)) {
		snprintf(why, len, "%.300s...: path longer than %zu bytes", out, sizeof(parent) - 1);
		return -ENAMETOOLONG;
	}
	slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (!stat(parent, &st) && (ct_same_file(&st, &cap) || ct_in_chunk(parent, &cap))) {
		snprintf(why, len, "%.4000s: is inside the capture being read (%.300s), where CTF readers take every file for a stream; write it elsewhere",
			 out, dir);
		return -EEXIST;
	}
	return 0;
}

static int ct_is_chunk(const struct dirent *entry)
{
	return ct_part_number(entry->d_name, "chunk") >= 0;
}

static int ct_is_snapshot(const struct dirent *entry)
{
	return ct_part_number(entry->d_name, "snapshot") >= 0;
}

/* How many entries of @dir @filter takes, or -1 */
static int ct_count_entries(const char *dir, int (*filter)(const struct dirent *))
{
	struct dirent **names;
	int i, n = scandir(dir, &names, filter, NULL);

	for (i = 0; i < n; i++)
		free(names[i]);
	if (n >= 0)
		free(names);
	return n;
}

/* The metadata file at @path read and checked; 0 or -errno (r->error says) */
static int ct_check_metadata_file(struct ct_ctf_reader *r, const char *path)
{
	unsigned char *meta;
	struct stat st;
	size_t len;
	int err = ct_read_file(path, &meta, &len, CT_META_MAX, &st);

	if (err) {
		snprintf(r->error, sizeof(r->error), "%.4000s: %.300s", path,
			 err == -EFBIG ? "too large for a coretrace metadata file" :
			 err == EFTYPE_CT ? ct_kind_error(st.st_mode) :
			 strerror(-err));
		return err == EFTYPE_CT ? -EINVAL : err;
	}
	err = ct_ctf_reader_metadata(r, path, (const char *)meta, len);
	free(meta);
	return err;
}

/* One chunk's metadata checked; its uuid kept. 0 or -errno (r->error says). */
static int ct_open_chunk(struct ct_ctf_reader *r, const char *dir,
			 struct ct_reader_chunk *chunk)
{
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%.3900s/%s/metadata", dir, chunk->name);
	err = ct_check_metadata_file(r, path);
	if (!err && (!r->is_part || strcmp(r->part_kind, "chunk")))
		err = ct_fail(r, path, 0, "not a chunk of a rotated recording (its env has no coretrace_part = \"chunk\")");
	memcpy(chunk->uuid, r->uuid, sizeof(chunk->uuid));
	snprintf(path, sizeof(path), "%.3900s/%s/" CT_CTF_CUT_FILE, dir, chunk->name);
	r->cut |= !access(path, F_OK);
	return err;
}

/*
 * A directory without metadata: a rotated recording (record -o DIR with
 * chunks) is read as one capture, chunk-N in order of N; a chunk whose
 * metadata is unreadable is left out and said. -ENOENT when @dir holds no
 * chunk (r->error then says what it holds).
 */
static int ct_open_chunks(struct ct_ctf_reader *r, const char *dir)
{
	struct dirent **names;
	int i, n, err, first_err = 0, snapshots;

	n = scandir(dir, &names, ct_is_chunk, versionsort);
	if (n <= 0) {
		snapshots = ct_count_entries(dir, ct_is_snapshot);
		if (n == 0)
			free(names);
		if (snapshots <= 0)
			return -ENOENT;
		snprintf(r->error, sizeof(r->error),
			 "%.4000s: holds %d flight-recorder snapshot%s, each a capture of its own: name one (%.300s/snapshot-N)",
			 dir, snapshots, snapshots == 1 ? "" : "s", dir);
		return -EISDIR;
	}
	r->chunks = calloc((size_t)n, sizeof(*r->chunks));
	for (i = 0; i < n; i++) {
		if (r->chunks) {
			struct ct_reader_chunk *chunk = &r->chunks[r->nchunks];

			snprintf(chunk->name, sizeof(chunk->name), "%.60s", names[i]->d_name);
			err = ct_open_chunk(r, dir, chunk);
			if (!err)
				r->nchunks++;
			else if (!first_err++)
				memcpy(r->chunk_error, r->error, sizeof(r->chunk_error));
			r->damaged_chunks += err != 0;
		}
		free(names[i]);
	}
	free(names);
	if (!r->chunks) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return -ENOMEM;
	}
	r->is_part = false;	/* the whole recording, not one chunk */
	if (r->nchunks)
		memcpy(r->uuid, r->chunks[0].uuid, sizeof(r->uuid));
	else
		memcpy(r->error, r->chunk_error, sizeof(r->error));
	/* a recorder started again in DIR begins another recording */
	for (i = 1; i < r->nchunks; i++) {
		if (!memcmp(r->chunks[i].uuid, r->uuid, sizeof(r->uuid)))
			continue;
		snprintf(r->error, sizeof(r->error),
			 "%.3900s: %s begins another recording than %s (their trace UUIDs differ), which cannot be read as one capture: read each chunk alone (%.300s/%s)",
			 dir, r->chunks[i].name, r->chunks[0].name, dir,
			 r->chunks[i].name);
		return -EINVAL;
	}
	return 0;
}

void ct_ctf_reader_close(struct ct_ctf_reader *r)
{
	free(r->chunks);
	r->chunks = NULL;
	r->nchunks = 0;
}

void ct_ctf_reader_print_part(const struct ct_ctf_reader *r, const char *who)
{
	const struct ct_ctf_part *part = &r->part;

	if (r->nchunks || r->damaged_chunks) {
		fprintf(stderr, "%s: a rotated recording: %d chunk%s read as one capture (%s to %s)\n",
			who, r->nchunks, r->nchunks == 1 ? "" : "s",
			r->nchunks ? r->chunks[0].name : "-",
			r->nchunks ? r->chunks[r->nchunks - 1].name : "-");
		return;
	}
	if (!r->is_part)
		return;
	fprintf(stderr, "%s: %s %u", who, part->kind, part->index);
	if (part->reason)
		fprintf(stderr, " (%s)", part->reason);
	if (part->span_end_ns)
		fprintf(stderr, ", %.6f to %.6f s since boot (%.3f s)",
			(double)part->span_begin_ns / 1e9,
			(double)part->span_end_ns / 1e9,
			(double)(part->span_end_ns - part->span_begin_ns) / 1e9);
	if (part->overwritten_records || part->overwritten_packets)
		fprintf(stderr, "; %llu records in %llu packets were overwritten in memory before it",
			(unsigned long long)part->overwritten_records,
			(unsigned long long)part->overwritten_packets);
	fputc('\n', stderr);
}

int ct_ctf_reader_open(struct ct_ctf_reader *r, const char *dir)
{
	char path[4096];
	int err;

	struct stat st;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	if (!*dir) {
		snprintf(r->error, sizeof(r->error),
			 "the capture directory's name is empty");
		return -EINVAL;
	}
	if (stat(dir, &st)) {
		err = -errno;
		snprintf(r->error, sizeof(r->error), "%.4000s: %.300s", dir,
			 strerror(-err));
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(r->error, sizeof(r->error),
			 "%.4000s: not a directory (a capture is the directory coretrace record -o wrote)",
			 dir);
		return -ENOTDIR;
	}
	if (snprintf(path, sizeof(path), "%s/metadata", dir) >= (int)sizeof(path)) {
		snprintf(r->error, sizeof(r->error),
			 "%.300s...: path longer than %zu bytes", dir, sizeof(path) - 1);
		return -ENAMETOOLONG;
	}
	if (lstat(path, &st) && errno == ENOENT) {
		err = ct_open_chunks(r, dir);
		if (err == -EINVAL)
			return err;	/* chunks of two recordings */
		if (err != -ENOENT)
			return r->nchunks ? 0 : -EINVAL;
	}
	err = ct_check_metadata_file(r, path);
	snprintf(path, sizeof(path), "%s/" CT_CTF_CUT_FILE, dir);
	r->cut = !access(path, F_OK);
	return err;
}

static uint64_t ct_get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t ct_get_u32(const unsigned char *p)
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
		*clock = ct_get_u64(p + 2);
		return 10;
	}
	if (len < 5)
		return -1;
	*id = p[0];
	/* the low 32 bits: the clock wrapped if they went back */
	ts = (*clock & ~0xffffffffull) | ct_get_u32(p + 1);
	if (ts < *clock)
		ts += 1ull << 32;
	*clock = ts;
	return 5;
}

/* A coretrace_ksym event's fields at @p: its size after the header, or -1/-3. */
static long ct_read_ksym(struct ct_ctf_reader *r, const unsigned char *p,
			 size_t len)
{
	const unsigned char *nul;

	if (len < 9)
		return -1;
	nul = memchr(p + 8, '\0', len - 8);
	if (!nul)
		return -1;
	if ((size_t)(nul - (p + 8)) >= CT_CTF_KSYM_NAME)
		return -3;
	if (r->on_ksym)
		r->on_ksym(r->ksym_ctx, ct_get_u64(p), (const char *)p + 8);
	return (long)(nul - p) + 1;
}

/*
 * A coretrace_kstack (or, @user, coretrace_ustack) event's fields at @p:
 * its size after the header, -1 when it runs past @len, -4 when it is no
 * stack (id 0, or more frames than BPF takes).
 */
static long ct_read_stack(struct ct_ctf_reader *r, bool user,
			  const unsigned char *p, size_t len)
{
	size_t frame = user ? sizeof(struct ct_uframe) : sizeof(uint64_t), n;
	uint32_t id, tgid, nr;

	if (len < 12)
		return -1;
	id = ct_get_u32(p);
	tgid = ct_get_u32(p + 4);
	nr = ct_get_u32(p + 8);
	if (!id || nr > (user ? CT_USTACK_DEPTH : CT_KSTACK_DEPTH))
		return -4;
	n = 12 + nr * frame;
	if (n > len)
		return -1;
	if (r->stacks && ct_stacks_put(r->stacks, user, id, tgid, nr, p + 12) == -ENOMEM)
		r->stacks->refused++;
	return (long)n;
}

/*
 * A coretrace_module (@usym false) or coretrace_usym event's fields at
 * @p: its size after the header, -1 when it runs past @len, -3 for a
 * string longer than coretrace writes.
 */
static long ct_read_uname(struct ct_ctf_reader *r, bool usym,
			  const unsigned char *p, size_t len)
{
	size_t head = CT_BUILD_ID_SIZE + (usym ? 8 : 0);
	const unsigned char *nul;

	if (len < head + 1)
		return -1;
	nul = memchr(p + head, '\0', len - head);
	if (!nul)
		return -1;
	if ((size_t)(nul - (p + head)) >= (usym ? CT_CTF_USYM_NAME : CT_CTF_PATH_MAX))
		return -3;
	if (r->usyms && usym)
		ct_usyms_set_name(r->usyms, p, ct_get_u64(p + CT_BUILD_ID_SIZE),
				  (const char *)p + head);
	else if (r->usyms)
		ct_usyms_set_module(r->usyms, p, (const char *)p + head);
	return (long)(nul - p) + 1;
}

/*
 * Rebuild one event at @p (at most @len bytes) into @raw, a whole record
 * of its type with its string NUL-terminated (what ct_decode() would make
 * of it); its size, -1 when it runs past @len, -2 for an unknown type, -3
 * for a bad string.
 * A coretrace_ksym event goes to r->on_ksym and leaves raw's type at
 * CT_CTF_ID_KSYM; a coretrace_kstack or _ustack to r->stacks, leaving
 * raw's type at its id (-4: not a stack).
 */
static long ct_read_event(struct ct_ctf_reader *r, const unsigned char *p,
			  size_t len, unsigned cpu, uint64_t *clock,
			  union ct_record *raw)
{
	const struct ct_event_desc *desc;
	unsigned char *out = (unsigned char *)raw;
	const unsigned char *nul;
	unsigned int id;
	long head;
	size_t pos, n;

	head = ct_read_header(p, len, clock, &id);
	if (head < 0)
		return head;
	if (id == CT_CTF_ID_KSYM) {
		raw->hdr.type = CT_CTF_ID_KSYM;
		n = (size_t)head;
		head = ct_read_ksym(r, p + n, len - n);
		return head < 0 ? head : head + (long)n;
	}
	if (id == CT_CTF_ID_MODULE || id == CT_CTF_ID_USYM) {
		raw->hdr.type = (uint8_t)id;
		n = (size_t)head;
		head = ct_read_uname(r, id == CT_CTF_ID_USYM, p + n, len - n);
		return head < 0 ? head : head + (long)n;
	}
	if (id == CT_CTF_ID_KSTACK || id == CT_CTF_ID_USTACK) {
		raw->hdr.type = (uint8_t)id;
		n = (size_t)head;
		head = ct_read_stack(r, id == CT_CTF_ID_USTACK, p + n, len - n);
		return head < 0 ? head : head + (long)n;
	}
	if (id >= CT_EV_MAX)
		return -2;
	desc = &ct_events[id];
	memset(raw, 0, desc->size);
	raw->hdr.type = (uint8_t)id;
	ct_set_ts(raw, *clock);
	raw->hdr.cpu = (uint16_t)cpu;
	/* the fields are the record's, from its header on */
	pos = (size_t)head;
	n = desc->fixed_end - CT_HDR_SIZE;
	if (n > len - pos)
		return -1;
	memcpy(out + CT_HDR_SIZE, p + pos, n);
	pos += n;
	if (desc->string_max) {
		nul = memchr(p + pos, '\0', len - pos);
		if (!nul)
			return -1;
		n = (size_t)(nul - (p + pos));
		if (n >= desc->string_max)
			return -3;
		memcpy(out + desc->fixed_end, p + pos, n);
		pos += n + 1;
	}
	return (long)pos;
}

/*
 * A cursor walks one stream packet by packet: only the current packet is
 * in memory, so reading a capture takes memory per CPU, not per record.
 * Its bytes come from a file (pread) or, for the fuzzer, from memory.
 */
struct ct_cursor {
	struct ct_ctf_reader *r;	/* the uuid, and where errors go */
	char path[4096];
	int fd;				/* -1: reading @mem */
	const unsigned char *mem;
	uint64_t size;			/* of the stream */
	uint64_t packet_off;		/* of the current packet */
	uint64_t packet_bytes;		/* its packet_size, in bytes */
	unsigned char *buf;		/* the current packet's content */
	size_t buf_cap, end, pos;
	uint64_t clock;
	unsigned int cpu;
	int stream_cpu;			/* N of stream_N, or -1 */
	uint64_t packets;		/* loaded so far */
	uint64_t ts_begin, ts_end;	/* of the current packet */
	uint64_t discarded;		/* events_discarded of the last packet */
	/* a rotated recording: the stream goes on in the next chunks */
	const unsigned char *uuid;	/* of the file being read */
	int chunk;			/* its chunk, -1 for a plain capture */
	char file[64];			/* stream_N or names */
	uint64_t lost_base;		/* losses of the files before */
	union ct_record next;		/* decoded, waiting for the merge */
	bool has_next;
	int err;			/* the stream's first problem */
	uint64_t err_off;
	char err_what[128];
};

/*
 * The writer never makes a packet larger than CT_CTF_PACKET_MAX: a larger
 * one is not coretrace's, and must not make each stream's cursor allocate
 * what it declares (a sparse file declares 60 MiB over no disk at all)
 */
#define CT_PACKET_READ_MAX	CT_CTF_PACKET_MAX

static int ct_cursor_read(struct ct_cursor *c, uint64_t off, void *out,
			  size_t len)
{
	ssize_t n;

	if (off > c->size || len > c->size - off)
		return -1;
	if (!len)
		return 0;	/* an empty packet: no buffer to copy into */
	if (c->fd < 0) {
		memcpy(out, c->mem + off, len);
		return 0;
	}
	n = pread(c->fd, out, len, (off_t)off);
	return n == (ssize_t)len ? 0 : -1;
}

static int ct_cursor_fail(struct ct_cursor *c, uint64_t off, const char *what)
{
	c->err = -EINVAL;
	c->err_off = off;
	snprintf(c->err_what, sizeof(c->err_what), "%s", what);
	c->has_next = false;
	return c->err;
}

/*
 * What babeltrace2 holds a packet context to, and a little more: its clock
 * runs forward within the packet and from the packet before, its CPU is
 * the stream's, and losses only grow. NULL, or what is wrong.
 */
static const char *ct_packet_context_check(const struct ct_cursor *c,
					   const unsigned char *hdr)
{
	uint64_t begin = ct_get_u64(hdr + 24), end = ct_get_u64(hdr + 32);
	uint64_t discarded = ct_get_u64(hdr + 56);
	uint32_t cpu = ct_get_u32(hdr + 64);

	if (begin > end)
		return "packet's timestamp_begin after its timestamp_end";
	if (c->packets && begin < c->ts_end)
		return "packet begins before the previous packet of its stream ends (the clock goes back)";
	if (cpu >= CT_MAX_CPUS)
		return "packet's cpu_id out of range";
	if (c->stream_cpu >= 0 && cpu != (uint32_t)c->stream_cpu)
		return "packet's cpu_id is not the CPU its stream file is named after";
	if (c->packets && cpu != c->cpu)
		return "packet's cpu_id differs from the earlier packets of its stream";
	if (c->packets && discarded < c->discarded)
		return "packet's events_discarded smaller than the packet before's (losses only grow)";
	return NULL;
}

/* A packet's events_discarded counts from the start of the recording. */
static void ct_reader_note_losses(struct ct_ctf_reader *r, unsigned int cpu,
				  uint64_t discarded)
{
	if (discarded <= r->lost[cpu])
		return;
	r->lost_total += discarded - r->lost[cpu];
	if (r->lost_total < discarded)	/* a hostile count: saturate */
		r->lost_total = UINT64_MAX;
	r->lost[cpu] = discarded;
}

void ct_ctf_reader_print_error(const struct ct_ctf_reader *r, const char *who)
{
	if (r->damaged_streams)
		fprintf(stderr, "%s: %s; %llu records recovered, %d stream file%s damaged\n",
			who, r->error, r->records, r->damaged_streams,
			r->damaged_streams == 1 ? "" : "s");
	else
		fprintf(stderr, "%s: %s\n", who, r->error);
}

void ct_ctf_reader_print_losses(const struct ct_ctf_reader *r, const char *who)
{
	unsigned int cpu, cpus = 0;

	for (cpu = 0; r->lost_total && cpu < CT_MAX_CPUS; cpu++) {
		if (!r->lost[cpu])
			continue;
		fprintf(stderr, "%s: CPU %u lost %llu record%s while recording (the ring buffer was full); they are missing from what is shown\n",
			who, cpu, r->lost[cpu], r->lost[cpu] == 1 ? "" : "s");
		cpus++;
	}
	if (cpus > 1)
		fprintf(stderr, "%s: %llu records lost in all, on %u CPUs\n",
			who, r->lost_total, cpus);
}

static int ct_cursor_load(struct ct_cursor *c);

/*
 * Open the file @c reads in the first chunk after @c->chunk that has one
 * (the chunk named, when @from < 0). 0 when one is open, 1 when there is
 * none left, -errno for one that cannot be read (said in the cursor).
 */
static int ct_cursor_open_chunk(struct ct_cursor *c, int from)
{
	const struct ct_ctf_reader *r = c->r;
	struct stat st;
	int k, fd;

	for (k = from; k < r->nchunks; k++) {
		snprintf(c->path, sizeof(c->path), "%.3900s/%s/%s", r->dir,
			 r->chunks[k].name, c->file);
		fd = ct_open_regular(c->path, &st);
		if (fd == -ENOENT)
			continue;
		c->chunk = k;
		c->uuid = r->chunks[k].uuid;
		if (fd == EFTYPE_CT)
			return ct_cursor_fail(c, 0, ct_kind_error(st.st_mode));
		if (fd < 0)
			return ct_cursor_fail(c, 0, strerror(-fd));
		c->fd = fd;
		c->size = (uint64_t)st.st_size;
		c->packet_off = 0;
		c->packet_bytes = 0;
		if (!st.st_size)
			return ct_cursor_fail(c, 0, "empty stream file (a stream holds at least one packet)");
		return 0;
	}
	return 1;
}

/*
 * The end of a stream file: in a rotated recording the stream goes on in
 * a later chunk, its losses counted from that chunk's start; 1 at the end.
 */
static int ct_cursor_next_chunk(struct ct_cursor *c)
{
	int err;

	if (c->chunk < 0)
		return 1;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->lost_base += c->discarded;
	c->discarded = 0;
	err = ct_cursor_open_chunk(c, c->chunk + 1);
	return err ? err : ct_cursor_load(c);
}

/* Load the packet at c->packet_off; 1 at the end of the stream. */
static int ct_cursor_load(struct ct_cursor *c)
{
	const size_t head = CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES;
	unsigned char hdr[CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES];
	uint64_t off = c->packet_off, content, packet;
	const char *err;

	if (off == c->size)
		return ct_cursor_next_chunk(c);
	if (c->size - off < head || ct_cursor_read(c, off, hdr, head))
		return ct_cursor_fail(c, off, "truncated packet header");
	if (ct_get_u32(hdr) != CT_CTF_MAGIC)
		return ct_cursor_fail(c, off, "wrong packet magic");
	if (memcmp(hdr + 4, c->uuid, 16))
		return ct_cursor_fail(c, off, "packet of another trace (uuid differs)");
	content = ct_get_u64(hdr + 40);
	packet = ct_get_u64(hdr + 48);
	if (content % 8 || packet % 8 || content > packet || content < head * 8)
		return ct_cursor_fail(c, off, "content size larger than the packet, or not whole bytes");
	if (packet / 8 > c->size - off)
		return ct_cursor_fail(c, off, "packet size points past the end of the file");
	if (packet / 8 > CT_PACKET_READ_MAX)
		return ct_cursor_fail(c, off, "packet larger than coretrace writes (64 KiB)");
	c->end = (size_t)(content / 8) - head;
	if (c->end > c->buf_cap) {
		unsigned char *bigger = realloc(c->buf, c->end);

		if (!bigger)
			return ct_cursor_fail(c, off, "out of memory for a packet");
		c->buf = bigger;
		c->buf_cap = c->end;
	}
	if (ct_cursor_read(c, off + head, c->buf, c->end))
		return ct_cursor_fail(c, off, "packet content cannot be read");
	err = ct_packet_context_check(c, hdr);
	if (err)
		return ct_cursor_fail(c, off, err);
	c->packet_bytes = packet / 8;
	c->packets++;
	c->ts_begin = ct_get_u64(hdr + 24);
	c->ts_end = ct_get_u64(hdr + 32);
	c->discarded = ct_get_u64(hdr + 56);
	c->r->discarded = c->discarded;
	c->clock = c->ts_begin;
	c->cpu = ct_get_u32(hdr + 64);
	ct_reader_note_losses(c->r, c->cpu, c->lost_base + c->discarded);
	c->pos = 0;
	return 0;
}

/* Decode the cursor's next record into c->next; has_next false at the end. */
static void ct_cursor_advance(struct ct_cursor *c)
{
	const size_t head = CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES;
	uint64_t at, before;
	long n;

	c->has_next = false;
next_event:
	while (c->pos >= c->end) {
		if (c->packet_bytes) {
			c->packet_off += c->packet_bytes;
			c->packet_bytes = 0;
		}
		if (ct_cursor_load(c))
			return;		/* the end, or an error */
	}
	at = c->packet_off + head + c->pos;
	before = c->clock;
	n = ct_read_event(c->r, c->buf + c->pos, c->end - c->pos, c->cpu,
			  &c->clock, &c->next);
	if (n == -2) {
		ct_cursor_fail(c, at, "record of an unknown type");
		return;
	}
	if (n == -3) {
		ct_cursor_fail(c, at, "string longer than its field");
		return;
	}
	if (n == -4) {
		ct_cursor_fail(c, at, "call stack with id 0 or more frames than coretrace takes");
		return;
	}
	if (n < 0) {
		ct_cursor_fail(c, at, "event runs past its packet's content");
		return;
	}
	if (c->clock < before) {
		ct_cursor_fail(c, at, "event timestamp before the one of the event before it (the clock goes back)");
		return;
	}
	if (c->clock < c->ts_begin || c->clock > c->ts_end) {
		ct_cursor_fail(c, at, "event timestamp outside its packet's timestamp_begin and timestamp_end");
		return;
	}
	if (c->next.hdr.type == CT_CTF_ID_KSYM ||	/* a name, not a record */
	    c->next.hdr.type == CT_CTF_ID_KSTACK ||
	    c->next.hdr.type == CT_CTF_ID_USTACK ||
	    c->next.hdr.type == CT_CTF_ID_MODULE ||
	    c->next.hdr.type == CT_CTF_ID_USYM) {
		c->pos += (size_t)n;
		goto next_event;
	}
	c->pos += (size_t)n;
	c->has_next = true;
}

static void ct_cursor_init(struct ct_cursor *c, struct ct_ctf_reader *r,
			   const char *path)
{
	const char *base = strrchr(path, '/');
	char *end;
	long cpu;

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->fd = -1;
	c->stream_cpu = -1;
	c->chunk = -1;
	c->uuid = r->uuid;
	snprintf(c->path, sizeof(c->path), "%s", path);
	base = base ? base + 1 : path;
	snprintf(c->file, sizeof(c->file), "%s", base);
	if (!strncmp(base, "stream_", 7) && base[7] >= '0' && base[7] <= '9') {
		errno = 0;
		cpu = strtol(base + 7, &end, 10);
		if (!*end && !errno && cpu < CT_MAX_CPUS)
			c->stream_cpu = (int)cpu;
		else
			c->stream_cpu = CT_MAX_CPUS;	/* no packet can match */
	}
}

int ct_ctf_reader_stream(struct ct_ctf_reader *r, const char *path,
			 const unsigned char *data, size_t len,
			 ct_ctf_record_cb cb, void *ctx)
{
	struct ct_cursor *c = malloc(sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	ct_cursor_init(c, r, path);
	c->mem = data;
	c->size = len;
	for (ct_cursor_advance(c); c->has_next; ct_cursor_advance(c)) {
		r->records++;
		cb(&c->next, ctx);
	}
	err = c->err;
	if (err)
		ct_fail(r, path, (size_t)c->err_off, c->err_what);
	free(c->buf);
	free(c);
	return err;
}

/* stream_N files, N a CPU number: the streams coretrace writes */
static int ct_is_stream(const struct dirent *entry)
{
	const char *p = entry->d_name;

	if (!strcmp(p, CT_CTF_NAMES_FILE))
		return 1;	/* a part's names: read first, by time */

	if (strncmp(p, "stream_", 7) || !p[7])
		return 0;
	for (p += 7; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* @name into @names (@n of them) unless it is there; the new count */
static int ct_add_name(char (*names)[64], int n, int max, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return n;
	if (n < max && strlen(name) < 64)
		snprintf(names[n++], 64, "%s", name);
	return n;
}

/*
 * A rotated recording: a cursor per stream file name found in any chunk,
 * each reading that stream through the chunks in order. Their number, or
 * -errno.
 */
static int ct_open_chunk_cursors(struct ct_ctf_reader *r, struct ct_cursor **out)
{
	const int max = CT_MAX_CPUS + 1;
	char (*files)[64] = calloc((size_t)max, 64), dir[4096];
	struct dirent **names;
	struct ct_cursor *c;
	int i, j, k, n = 0;

	for (k = 0; files && k < r->nchunks; k++) {
		snprintf(dir, sizeof(dir), "%.3900s/%s", r->dir, r->chunks[k].name);
		j = scandir(dir, &names, ct_is_stream, versionsort);
		for (i = 0; i < j; i++) {
			n = ct_add_name(files, n, max, names[i]->d_name);
			free(names[i]);
		}
		if (j >= 0)
			free(names);
	}
	c = files ? calloc((size_t)(n ? n : 1), sizeof(*c)) : NULL;
	for (i = 0; c && i < n; i++) {
		ct_cursor_init(&c[i], r, files[i]);
		ct_cursor_open_chunk(&c[i], 0);
	}
	free(files);
	if (!c)
		return -ENOMEM;
	*out = c;
	return n;
}

/* Open a cursor per stream file of the capture; their number or -errno. */
static int ct_open_cursors(struct ct_ctf_reader *r, struct ct_cursor **out)
{
	struct dirent **names;
	struct ct_cursor *c;
	char path[4096];
	struct stat st;
	int i, j, n;

	n = scandir(r->dir, &names, ct_is_stream, versionsort);
	if (n < 0) {
		snprintf(r->error, sizeof(r->error), "%.4000s: %.300s", r->dir,
			 strerror(errno));
		return -errno;
	}
	c = calloc((size_t)(n ? n : 1), sizeof(*c));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, names[i]->d_name);
		free(names[i]);
		if (!c)
			continue;
		ct_cursor_init(&c[i], r, path);
		c[i].fd = ct_open_regular(path, &st);
		if (c[i].fd == EFTYPE_CT)
			ct_cursor_fail(&c[i], 0, ct_kind_error(st.st_mode));
		else if (c[i].fd < 0)
			ct_cursor_fail(&c[i], 0, strerror(-c[i].fd));
		else if (!st.st_size)
			ct_cursor_fail(&c[i], 0,
				       "empty stream file (a stream holds at least one packet)");
		else
			c[i].size = (uint64_t)st.st_size;
		for (j = 0; j < i && !c[i].err && c[i].stream_cpu >= 0 &&
			    c[i].stream_cpu < CT_MAX_CPUS; j++)
			if (c[j].stream_cpu == c[i].stream_cpu)
				ct_cursor_fail(&c[i], 0, "a second stream file of the same CPU");
	}
	free(names);
	if (!c)
		return -ENOMEM;
	*out = c;
	return n;
}

/*
 * The stream with the oldest next record; each stream's clock never goes
 * back, so taking the oldest head each time gives the capture in order.
 */
static struct ct_cursor *ct_oldest(struct ct_cursor *c, int n)
{
	struct ct_cursor *best = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (c[i].has_next &&
		    (!best || ct_ts(&c[i].next) < ct_ts(&best->next)))
			best = &c[i];
	return best;
}

/*
 * Problems are kept per stream while the others go on: after a crash,
 * everything that reached the disk whole is recovered. The first problem
 * (in stream order) is the one reported.
 */
int ct_ctf_reader_run(struct ct_ctf_reader *r, ct_ctf_record_cb cb, void *ctx)
{
	struct ct_cursor *c = NULL, *next;
	int i, n, first_err = 0;

	n = r->chunks ? ct_open_chunk_cursors(r, &c) : ct_open_cursors(r, &c);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (!c[i].err)
			ct_cursor_advance(&c[i]);
	while ((next = ct_oldest(c, n))) {
		r->records++;
		cb(&next->next, ctx);
		ct_cursor_advance(next);
	}
	/* the messages of every stream went to r->error: say the first */
	for (i = 0; i < n; i++) {
		if (c[i].err && !first_err) {
			first_err = c[i].err;
			ct_fail(r, c[i].path, c[i].err_off, c[i].err_what);
		}
		r->damaged_streams += c[i].err != 0;
		if (c[i].fd >= 0)
			close(c[i].fd);
		free(c[i].buf);
	}
	free(c);
	if (!n) {
		snprintf(r->error, sizeof(r->error), "%.4000s: no stream files (stream_0...)",
			 r->dir);
		return -ENOENT;
	}
	if (!first_err && r->damaged_chunks) {
		memcpy(r->error, r->chunk_error, sizeof(r->error));
		first_err = -EINVAL;
	}
	return first_err;
}
