// SPDX-License-Identifier: GPL-2.0
/*
 * The CTF 1.8 writer. A record is its capture event (ct_abi.h): an event
 * is the record's bytes from its type on, copied, its string up to the
 * NUL; the metadata is written from the same field lists.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/htab.h"
#include "base/signals.h"
#include "capture/ctf.h"
#include "capture/outdir.h"
#include "base/version.h"

_Static_assert(CT_EV_MAX < CT_CTF_ID_EXTENDED,
	       "record types must leave the extended header's id free");

static void ct_uuid_text(const unsigned char u[16], char out[37])
{
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

/*
 * a TSDL string literal of printable ASCII: what TSDL would misread, and
 * what babeltrace2's lexer refuses (bytes past 0x7e), is dropped
 */
static void ct_tsdl_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++)
		if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20 &&
		    (unsigned char)*s <= 0x7e)
			fputc(*s, f);
	fputc('"', f);
}

/*
 * What part of an always-on recording this is: a snapshot says what took
 * it and the span it covers (monotonic nanoseconds, as the events' clock,
 * and the same as wall-clock time), and both say how much the flight
 * recorder had overwritten in memory so far.
 */
static void ct_tsdl_part(FILE *f, const struct ct_ctf_env *env,
			 const struct ct_ctf_part *part)
{
	char when[64];
	time_t secs;
	struct tm tm;
	int i;

	fputs("\tcoretrace_part = ", f);
	ct_tsdl_string(f, part->kind);
	fprintf(f, ";\n\tcoretrace_part_index = %u;\n", part->index);
	if (part->reason) {
		fputs("\tcoretrace_reason = ", f);
		ct_tsdl_string(f, part->reason);
		fputs(";\n", f);
	}
	if (part->span_end_ns) {
		fprintf(f, "\tcoretrace_span_begin_ns = %llu;\n\tcoretrace_span_end_ns = %llu;\n",
			(unsigned long long)part->span_begin_ns,
			(unsigned long long)part->span_end_ns);
		for (i = 0; i < 2; i++) {
			int64_t ns = (int64_t)(i ? part->span_end_ns : part->span_begin_ns) +
				     env->clock_offset_ns;

			secs = (time_t)(ns / 1000000000);
			gmtime_r(&secs, &tm);
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
			fprintf(f, "\tcoretrace_span_%s = \"%s.%03dZ\";\n",
				i ? "end" : "begin", when,
				(int)(ns % 1000000000 / 1000000));
		}
	}
	fprintf(f, "\tcoretrace_overwritten_packets = %llu;\n\tcoretrace_overwritten_records = %llu;\n",
		(unsigned long long)part->overwritten_packets,
		(unsigned long long)part->overwritten_records);
}

static void ct_tsdl_field(FILE *f, const struct ct_field *field)
{
	bool is_signed = field->kind == CT_FK_SINT ||
			 field->kind == CT_FK_IRQ_RET || field->kind == CT_FK_IDLE;
	bool hex = field->kind == CT_FK_KFUNC || field->kind == CT_FK_ADDR;

	if (field->kind == CT_FK_STRING) {
		fprintf(f, "\t\tstring %s;\n", field->ctf_name);
		return;
	}
	fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %d;%s } %s;\n",
		field->size * 8u, is_signed, hex ? " base = 16;" : "",
		field->ctf_name);
}

int ct_ctf_write_metadata(FILE *f, const unsigned char uuid[16],
			  const struct ct_ctf_env *env)
{
	return ct_ctf_write_part_metadata(f, uuid, env, NULL);
}

int ct_ctf_write_part_metadata(FILE *f, const unsigned char uuid[16],
			       const struct ct_ctf_env *env,
			       const struct ct_ctf_part *part)
{
	int64_t offset = env->clock_offset_ns;
	char text[37];
	int i, j;

	ct_uuid_text(uuid, text);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; } := ct_clock32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := ct_clock_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n", text);
	fprintf(f, "env {\n\tdomain = \"kernel\";\n\ttracer_name = \"coretrace\";\n"
		"\ttracer_major = %d;\n\ttracer_minor = %d;\n\tcoretrace_abi = %d;\n"
		"\tcoretrace_ctf = %d;\n\tsysname = \"Linux\";\n\tkernel_release = ",
		CT_VERSION_MAJOR, CT_VERSION_MINOR, CT_ABI_VERSION, CT_CTF_FORMAT);
	ct_tsdl_string(f, env->kernel_release);
	fputs(";\n\thostname = ", f);
	ct_tsdl_string(f, env->hostname);
	fputs(";\n", f);
	if (part)
		ct_tsdl_part(f, env, part);
	fputs("};\n\n", f);
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns()\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n"
		"\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = false;\n};\n\n",
		text, (long long)(offset / 1000000000),
		(long long)(offset % 1000000000));
	fputs("stream {\n\tid = 0;\n"
	      "\tevent.header := struct {\n"
	      "\t\tenum : uint8_t { compact = 0 ... 254, extended = 255 } id;\n"
	      "\t\tvariant <id> {\n"
	      "\t\t\tstruct { ct_clock32_t timestamp; } compact;\n"
	      "\t\t\tstruct { uint8_t id; ct_clock_t timestamp; } extended;\n"
	      "\t\t} v;\n\t};\n"
	      "\tpacket.context := struct {\n\t\tct_clock_t timestamp_begin;\n"
	      "\t\tct_clock_t timestamp_end;\n\t\tuint64_t content_size;\n"
	      "\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n"
	      "\t\tuint32_t cpu_id;\n\t};\n};\n", f);
	for (i = 0; i < CT_EV_MAX; i++) {
		fprintf(f, "\nevent {\n\tname = \"%s\";\n\tid = %d;\n\tstream_id = 0;\n"
			"\tfields := struct {\n", ct_events[i].ctf_name, i);
		for (j = 0; j < (int)ct_events[i].nfields; j++)
			ct_tsdl_field(f, &ct_events[i].fields[j]);
		fputs("\t};\n};\n", f);
	}
	fprintf(f, "\nevent {\n\tname = \"coretrace_ksym\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint64_t _addr;\n\t\tstring _name;\n\t};\n};\n",
		CT_CTF_ID_KSYM);
	fprintf(f, "\nevent {\n\tname = \"coretrace_kstack\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint32_t _id;\n\t\tuint32_t _tgid;\n"
		"\t\tuint32_t _nr;\n\t\tinteger { size = 64; align = 8; signed = false; base = 16; } _ips[_nr];\n"
		"\t};\n};\n", CT_CTF_ID_KSTACK);
	fprintf(f, "\nevent {\n\tname = \"coretrace_ustack\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint32_t _id;\n\t\tuint32_t _tgid;\n"
		"\t\tuint32_t _nr;\n\t\tstruct {\n"
		"\t\t\tinteger { size = 32; align = 8; signed = true; } _status;\n"
		"\t\t\tuint8_t _build_id[%d];\n"
		"\t\t\tinteger { size = 64; align = 8; signed = false; base = 16; } _offset;\n"
		"\t\t} _frames[_nr];\n\t};\n};\n", CT_CTF_ID_USTACK, CT_BUILD_ID_SIZE);
	fprintf(f, "\nevent {\n\tname = \"coretrace_module\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint8_t _build_id[%d];\n\t\tstring _path;\n"
		"\t};\n};\n", CT_CTF_ID_MODULE, CT_BUILD_ID_SIZE);
	fprintf(f, "\nevent {\n\tname = \"coretrace_usym\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint8_t _build_id[%d];\n"
		"\t\tinteger { size = 64; align = 8; signed = false; base = 16; } _offset;\n"
		"\t\tstring _name;\n\t};\n};\n", CT_CTF_ID_USYM, CT_BUILD_ID_SIZE);
	return ferror(f) ? -EIO : 0;
}

static void ct_put(unsigned char **p, const void *src, size_t n)
{
	memcpy(*p, src, n);
	*p += n;
}

/* The event header for @ts, from the clock the reader will have. */
static void ct_put_header(unsigned char **p, struct ct_ctf_stream *s,
			  uint8_t id, uint64_t ts)
{
	uint8_t extended = CT_CTF_ID_EXTENDED;
	uint32_t low = (uint32_t)ts;

	if (ts - s->clock >= (1ull << 32)) {
		ct_put(p, &extended, 1);
		ct_put(p, &id, 1);
		ct_put(p, &ts, 8);	/* little endian, as the metadata says */
	} else {
		ct_put(p, &id, 1);
		ct_put(p, &low, 4);
	}
	s->clock = ts;
}

/*
 * The fixed part of every event (its bytes from the type byte to its
 * string, or its end) is copied as CT_CTF_FIXED_COPY bytes, a constant
 * the compiler turns into a few moves, and the packet advanced by what
 * the event really takes: a record is read up to CT_HDR_SIZE +
 * CT_CTF_FIXED_COPY bytes from its start, which the ring (its data area
 * is mapped twice, back to back) and union ct_record always have.
 */
#define CT_CTF_FIXED_COPY	24

/*
 * ct_ctf_add()'s fast path, per type byte: how many bytes of fixed fields
 * follow CT_EVENT_START, with CT_COPY_COMM when a name of at most
 * CT_COMM_LEN follows them; 0 for what the slow path writes (a record
 * naming a kernel function, one with a longer string, a type that is not
 * in the table). One load tells both.
 */
#define CT_COPY_COMM	0x80
#define CT_X_FAST_COPY(id, ev, ctf, cat, tp, rec, flags)		\
	[id] = CT_RECORD_SLOW_CAPTURE(rec) ? 0 :			\
	       (CT_RECORD_FIXED_END(rec) - CT_EVENT_START) |		\
	       (CT_RECORD_STRING_SIZE(rec) ? CT_COPY_COMM : 0),
static const uint8_t ct_fast_copy[256] = {
	CT_EVENT_TABLE(CT_X_FAST_COPY)
};

/* ct_ctf_add() copies in place while 1 <= used <= this */
#define CT_CTF_FAST_USED \
	(CT_CTF_PACKET_MAX - CT_CTF_HEAD - 2 * CT_CTF_EVENT_MAX)

#define CT_X_FIXED_FITS(id, ev, ctf, cat, tp, rec, flags)		\
	_Static_assert(CT_RECORD_FIXED_END(rec) - CT_EVENT_START <=	\
		       CT_CTF_FIXED_COPY, #ev "'s fixed fields fit the copy");
CT_EVENT_TABLE(CT_X_FIXED_FITS)
_Static_assert(sizeof(union ct_record) >= CT_HDR_SIZE + CT_CTF_FIXED_COPY,
	       "a record holds what the copy reads");

/*
 * A task name (16 bytes) to its NUL at @p: copied whole, its length
 * found with the bytes as two words (the lowest byte that is zero), at
 * most 15 and a NUL. Returns the bytes the event takes.
 */
static inline size_t ct_put_comm(unsigned char *p, const unsigned char *src)
{
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t w[2], zero;
	size_t n;

	memcpy(w, src, sizeof(w));
	memcpy(p, w, sizeof(w));
	zero = (w[0] - ones) & ~w[0] & highs;
	if (zero)
		return (size_t)__builtin_ctzll(zero) / 8 + 1;
	zero = (w[1] - ones) & ~w[1] & highs;
	n = zero ? 8 + (size_t)__builtin_ctzll(zero) / 8 : CT_COMM_LEN - 1;
	p[n] = '\0';
	return n + 1;
}

/* A longer string (a path) to its NUL, cut to @max - 1 bytes */
static size_t ct_put_string(unsigned char *p, const unsigned char *src,
			    size_t max)
{
	size_t n = strnlen((const char *)src, max - 1);

	memcpy(p, src, n);
	p[n] = '\0';
	return n + 1;
}

/*
 * @rec's event at @out, stamped @ts; returns its size. The record's bytes
 * from its type on are the event: copied, with the stream's time in the
 * compact header's timestamp (a record that reached the ring late is
 * stamped no earlier than the one before it). When the clock moved 2^32
 * ns or more the header is the extended one and the fields follow it.
 */
static inline __attribute__((always_inline)) size_t
ct_ctf_copy(struct ct_ctf_stream *s, const union ct_record *rec, uint64_t ts,
	    unsigned char *out)
{
	const struct ct_event_desc *desc = &ct_events[rec->hdr.type];
	const unsigned char *raw = (const unsigned char *)rec;
	uint32_t low = (uint32_t)ts;
	unsigned char *p = out;

	if (__builtin_expect(ts - s->clock < (1ull << 32), 1)) {
		memcpy(p, raw + CT_EVENT_START, CT_CTF_FIXED_COPY);
		memcpy(p + 1, &low, sizeof(low));
		p += desc->fixed_end - CT_EVENT_START;
		s->clock = ts;
	} else {
		ct_put_header(&p, s, rec->hdr.type, ts);
		memcpy(p, raw + CT_HDR_SIZE, CT_CTF_FIXED_COPY);
		p += desc->fixed_end - CT_HDR_SIZE;
	}
	if (desc->string_max == CT_COMM_LEN)
		p += ct_put_comm(p, raw + desc->fixed_end);
	else if (desc->string_max)
		p += ct_put_string(p, raw + desc->fixed_end, desc->string_max);
	return (size_t)(p - out);
}

static void ct_put_u64(unsigned char **p, uint64_t v)
{
	ct_put(p, &v, 8);
}

/*
 * One packet at the end of @s's file in one writev(2). A short write is
 * cut back, so the file ends on a whole packet; the error is kept.
 */
static int ct_stream_append(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			    const struct iovec *iov, int iovcnt)
{
	size_t want = 0;
	ssize_t n;
	int i;

	for (i = 0; i < iovcnt; i++)
		want += iov[i].iov_len;
	n = writev(s->fd, iov, iovcnt);
	if (n != (ssize_t)want) {
		if (!ctf->error)
			ctf->error = n < 0 ? -errno : -ENOSPC;
		if (n > 0 && ftruncate(s->fd, (off_t)s->bytes))
			ctf->error = -errno;
		lseek(s->fd, (off_t)s->bytes, SEEK_SET);
		return ctf->error;
	}
	s->bytes += want;
	ctf->bytes += want;
	return 0;
}

/*
 * The writer process. A SIGKILL that lands while a packet is being
 * written stops the kernel's copy at a page boundary and leaves half a
 * packet at the end of the file, which CTF readers refuse (babeltrace2
 * then reads nothing at all). So once recording starts the stream files
 * belong to a child: it gets each packet over a pipe and writes only
 * packets it received whole. When coretrace dies, the child sees the end
 * of the pipe, drops a packet it got only part of, and exits.
 */
enum ct_writer_kind {
	CT_WMSG_PACKET,		/* cpu, then len bytes of a whole packet */
	CT_WMSG_SLOT,		/* cpu, len: a whole packet in slot @slot */
	CT_WMSG_OPEN,		/* struct ct_writer_open, then the metadata */
	CT_WMSG_CLOSE,		/* the directory opened last is whole */
	CT_WMSG_REMOVE,		/* a name: remove that part */
	CT_WMSG_END,		/* recording ended well */
};

#define CT_WRITER_NAMES	0xfffffffeu	/* a packet's cpu: the names stream */
#define CT_PART_NAME	128

struct ct_writer_msg {
	uint32_t kind;
	uint32_t cpu;
	uint32_t len;		/* bytes that follow, or in the slot */
	uint32_t slot;		/* CT_WMSG_SLOT's; 0 otherwise */
};

/*
 * A stream's packet is filled in a slot of memory shared with the
 * writer, and only its place goes through the pipe: the pipe's two
 * copies of every byte (into the kernel and out again) were a third of
 * the consumer's time per record in make bench's guest. A packet is told
 * to the writer once it is sealed, so a SIGKILL still leaves whole
 * packets on disk. The writer counts the slot packets it has written
 * (@written); a slot is filled again only once its packet was written.
 * When coretrace has to wait for that it sets @waiting, and the writer
 * answers on the status pipe, which coretrace polls.
 */
struct ct_slot_ctl {
	_Atomic uint32_t written;	/* slot packets written, wrapping */
	_Atomic uint32_t waiting;	/* coretrace waits for @written */
};

/* A slot no stream fills: the packet it holds was told as @seq */
struct ct_slot_ref {
	uint32_t slot;
	uint32_t seq;
	bool told;
};

#define CT_CTF_SPARE_SLOTS	4	/* packets on their way to the disk */

struct ct_writer_open {
	char name[CT_PART_NAME];
	uint32_t hidden;
	uint32_t unused;
};

enum ct_status_kind {
	CT_WST_ERROR,		/* a write failed */
	CT_WST_WRITTEN,		/* a slot packet was written (asked for) */
	CT_WST_CLOSED,		/* a directory is whole */
	CT_WST_DONE,		/* the last message, at exit */
};

struct ct_writer_status {
	int32_t error;		/* first write error, -errno */
	uint32_t kind;
	uint64_t bytes;		/* written whole, all streams */
	uint64_t dir_bytes;	/* of the directory closed */
	char name[CT_PART_NAME];
};

/* What the writer is writing into: the capture, or one part of it. */
struct ct_writer {
	struct ct_ctf *ctf;
	char part[CT_PART_NAME + 16];	/* its name in DIR while written */
	int part_fd;			/* it, open; DIR's fd for the capture */
	char name[CT_PART_NAME];	/* its final name; "" for the capture */
	bool open, hidden, lazy;	/* lazy: stream files on first packet */
	int files;			/* stream files made in the directory */
	int err;			/* the directory's first error */
	uint64_t dir_bytes;
	int names_fd;
	struct ct_ctf_stream names;	/* bytes of the names stream */
	int status_fd;
};

static size_t ct_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static int ct_write_full(int fd, struct iovec *iov, int iovcnt)
{
	ssize_t n;

	while (iovcnt > 0) {
		n = writev(fd, iov, iovcnt);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		while (iovcnt > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static void ct_writer_report(struct ct_writer *w, uint32_t kind)
{
	struct ct_writer_status st;

	memset(&st, 0, sizeof(st));
	st.error = kind == CT_WST_CLOSED ? w->err : w->ctf->error;
	st.kind = kind;
	st.bytes = w->ctf->bytes;
	st.dir_bytes = w->dir_bytes;
	snprintf(st.name, sizeof(st.name), "%s", w->name);
	if (write(w->status_fd, &st, sizeof(st)) != sizeof(st))
		return;		/* coretrace is gone: nobody to tell */
}

/*
 * The child keeps only the pipes, DIR, its stream files and stderr open;
 * stdin and stdout become /dev/null, so that no file it makes is fd 0 or
 * 1 (where a stray write would land in a capture).
 */
static void ct_writer_close_others(const struct ct_ctf *ctf, int in_fd,
				   int status_fd)
{
	int fd, max = (int)sysconf(_SC_OPEN_MAX), cpu, null;

	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (fd = 0; fd < max && fd < 65536; fd++) {
		bool keep = fd == in_fd || fd == status_fd ||
			    fd == ctf->dir_fd || fd == STDERR_FILENO;

		for (cpu = 0; cpu < ctf->ncpus && !keep; cpu++)
			keep = fd == ctf->streams[cpu].fd;
		if (keep || fd == null)
			continue;
		if (fd <= STDOUT_FILENO && null >= 0)
			dup2(null, fd);
		else
			close(fd);
	}
	if (null > STDERR_FILENO)
		close(null);
}

/*
 * A CPU that had no event leaves no stream file: a CTF stream holds at
 * least one packet, and an empty file is what a reader should doubt.
 */
static void ct_ctf_drop_empty(const struct ct_ctf *ctf, int dir_fd)
{
	char name[32];
	int cpu;

	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		if (ctf->streams[cpu].bytes)
			continue;
		snprintf(name, sizeof(name), "stream_%d", cpu);
		unlinkat(dir_fd, name, 0);
	}
}

/*
 * coretrace went away without closing the capture: say so in a file that
 * CTF readers skip (a dot file) and `coretrace report` reads.
 */
static void ct_writer_mark_cut(const struct ct_ctf *ctf, int dir_fd)
{
	static const char why[] =
		"coretrace record ended without closing this capture (killed?): the records it still held, at most a second's worth, are missing\n";
	ssize_t written;
	int fd;

	fd = ct_outdir_create(dir_fd, CT_CTF_CUT_FILE, &ctf->out);
	if (fd < 0)
		return;
	/* even left empty by a full disk, the file marks the cut */
	written = write(fd, why, sizeof(why) - 1);
	close(fd);
	(void)written;
}

static int *ct_writer_fd(struct ct_writer *w, uint32_t cpu)
{
	return cpu == CT_WRITER_NAMES ? &w->names_fd : &w->ctf->streams[cpu].fd;
}

static struct ct_ctf_stream *ct_writer_stream(struct ct_writer *w, uint32_t cpu)
{
	return cpu == CT_WRITER_NAMES ? &w->names : &w->ctf->streams[cpu];
}

/* The file of @cpu's stream in the directory, made on its first packet. */
static int ct_writer_file(struct ct_writer *w, uint32_t cpu)
{
	int *fd = ct_writer_fd(w, cpu);
	char name[32];

	if (*fd >= 0 || !w->lazy)
		return *fd;
	if (cpu == CT_WRITER_NAMES)
		snprintf(name, sizeof(name), CT_CTF_NAMES_FILE);
	else
		snprintf(name, sizeof(name), "stream_%u", cpu);
	*fd = ct_outdir_create(w->part_fd, name, &w->ctf->out);
	if (*fd < 0 && !w->err)
		w->err = *fd;
	w->files += *fd >= 0;
	return *fd;
}

static void ct_writer_packet(struct ct_writer *w, uint32_t cpu,
			     unsigned char *packet, size_t len)
{
	struct ct_ctf_stream *s = ct_writer_stream(w, cpu);
	struct iovec iov = { packet, len };
	int err = w->ctf->error;

	if (!w->open || (w->err && w->lazy) || ct_writer_file(w, cpu) < 0)
		return;
	s->fd = *ct_writer_fd(w, cpu);
	if (ct_stream_append(w->ctf, s, &iov, 1)) {
		if (!w->err)
			w->err = w->ctf->error;
		if (err != w->ctf->error || !err)
			ct_writer_report(w, CT_WST_ERROR);
		return;
	}
	w->dir_bytes += len;
}

/* Close the directory's files; 0 or the first error. */
static int ct_writer_close_files(struct ct_writer *w, bool sync)
{
	int cpu, *fd;

	for (cpu = -1; cpu < w->ctf->ncpus; cpu++) {
		fd = ct_writer_fd(w, cpu < 0 ? CT_WRITER_NAMES : (uint32_t)cpu);
		if (*fd < 0)
			continue;
		if (sync && fsync(*fd) && !w->err)
			w->err = -errno;
		if (close(*fd) && !w->err)
			w->err = -errno;
		*fd = -1;
	}
	if (!w->lazy)
		ct_ctf_drop_empty(w->ctf, w->part_fd);
	return w->err;
}

static void ct_writer_open(struct ct_writer *w, const unsigned char *msg,
			   size_t len)
{
	struct ct_writer_open head;
	ssize_t n;
	int fd, cpu;

	memcpy(&head, msg, sizeof(head));
	head.name[sizeof(head.name) - 1] = '\0';
	snprintf(w->name, sizeof(w->name), "%s", head.name);
	w->hidden = head.hidden;
	w->lazy = true;
	w->open = true;
	w->err = 0;
	w->files = 0;
	w->dir_bytes = 0;
	w->names.bytes = 0;
	for (cpu = 0; cpu < w->ctf->ncpus; cpu++)
		w->ctf->streams[cpu].bytes = 0;
	if (w->hidden)
		snprintf(w->part, sizeof(w->part), ".%s.partial", head.name);
	else
		snprintf(w->part, sizeof(w->part), "%s", head.name);
	/* a partial one left by a crash, or whatever was planted there */
	w->part_fd = ct_outdir_mkdir(w->ctf->dir_fd, w->part, &w->ctf->out);
	if (w->part_fd < 0) {
		w->err = w->part_fd;
		return;
	}
	fd = ct_outdir_create(w->part_fd, "metadata", &w->ctf->out);
	if (fd < 0) {
		w->err = fd;
		return;
	}
	len -= sizeof(head);
	n = write(fd, msg + sizeof(head), len);
	if (n != (ssize_t)len)
		w->err = n < 0 ? -errno : -ENOSPC;
	if (w->hidden && fsync(fd) && !w->err)
		w->err = -errno;
	if (close(fd) && !w->err)
		w->err = -errno;
	w->dir_bytes += len;
}

/* The part's own descriptor, once its files are closed */
static void ct_writer_close_part(struct ct_writer *w)
{
	if (w->part_fd >= 0 && w->part_fd != w->ctf->dir_fd)
		close(w->part_fd);
	w->part_fd = -1;
}

static void ct_writer_close(struct ct_writer *w)
{
	int dir_fd = w->ctf->dir_fd;

	if (!w->open)
		return;
	ct_writer_close_files(w, w->hidden);
	if (w->hidden && !w->err && w->part_fd >= 0 && fsync(w->part_fd))
		w->err = -errno;
	ct_writer_close_part(w);
	if (w->lazy && !w->files) {
		/* nothing was recorded in it: no capture to leave (0 bytes) */
		ct_outdir_remove(dir_fd, w->part);
		w->dir_bytes = 0;
	} else if (w->hidden) {
		if (w->err)	/* never a part-written snapshot */
			ct_outdir_remove(dir_fd, w->part);
		else if (renameat(dir_fd, w->part, dir_fd, w->name))
			w->err = -errno;
	}
	w->open = false;
	if (w->err && !w->ctf->error)
		w->ctf->error = w->err;
	ct_writer_report(w, CT_WST_CLOSED);
}

/* coretrace died: a snapshot it did not finish goes, a chunk says it was cut */
static void ct_writer_abandon(struct ct_writer *w)
{
	if (!w->open)
		return;
	ct_writer_close_files(w, false);
	if (w->hidden || !w->files) {
		ct_writer_close_part(w);
		/* half a snapshot, or an empty chunk */
		ct_outdir_remove(w->ctf->dir_fd, w->part);
	} else {
		if (w->part_fd >= 0)
			ct_writer_mark_cut(w->ctf, w->part_fd);
		ct_writer_close_part(w);
	}
	w->open = false;
}

static void ct_writer_remove(struct ct_writer *w, const unsigned char *msg,
			     size_t len)
{
	char name[CT_PART_NAME];

	if (!len || len > sizeof(name))
		return;
	memcpy(name, msg, len);
	name[len - 1] = '\0';
	if (!name[0] || strchr(name, '/') || name[0] == '.')
		return;		/* only a part of this recording */
	ct_outdir_remove(w->ctf->dir_fd, name);
}

/* Handle one message; false when the writer is done (END or bad input). */
static bool ct_writer_message(struct ct_writer *w, const struct ct_writer_msg *msg,
			      unsigned char *buf)
{
	switch (msg->kind) {
	case CT_WMSG_PACKET:
		if (msg->cpu >= (uint32_t)w->ctf->ncpus &&
		    msg->cpu != CT_WRITER_NAMES)
			return false;
		ct_writer_packet(w, msg->cpu, buf, msg->len);
		return true;
	case CT_WMSG_OPEN:
		if (msg->len < sizeof(struct ct_writer_open))
			return false;
		ct_writer_close(w);
		ct_writer_open(w, buf, msg->len);
		return true;
	case CT_WMSG_CLOSE:
		ct_writer_close(w);
		return true;
	case CT_WMSG_REMOVE:
		ct_writer_remove(w, buf, msg->len);
		return true;
	default:
		return false;
	}
}

/* A packet in a slot: written, counted, and coretrace told if it waits */
static bool ct_writer_slot(struct ct_writer *w, const struct ct_writer_msg *msg)
{
	struct ct_ctf *ctf = w->ctf;

	if (!ctf->slots || msg->len > CT_CTF_PACKET_MAX ||
	    (size_t)(msg->slot + 1) * CT_CTF_PACKET_MAX > ctf->slots_bytes ||
	    (msg->cpu >= (uint32_t)ctf->ncpus && msg->cpu != CT_WRITER_NAMES))
		return false;
	ct_writer_packet(w, msg->cpu, ctf->slots + (size_t)msg->slot * CT_CTF_PACKET_MAX,
			 msg->len);
	atomic_fetch_add(&ctf->slot_ctl->written, 1);
	if (atomic_exchange(&ctf->slot_ctl->waiting, 0))
		ct_writer_report(w, CT_WST_WRITTEN);
	return true;
}

static void ct_writer_main(struct ct_ctf *ctf, int in_fd, int status_fd)
{
	unsigned char *buf = malloc(CT_CTF_PACKET_MAX);
	struct ct_writer w;
	struct ct_writer_msg msg;
	int sig, quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1 };
	bool ended = false;

	/* coretrace decides when recording ends: the end of the pipe */
	for (sig = 0; sig < (int)(sizeof(quiet) / sizeof(quiet[0])); sig++)
		signal(quiet[sig], SIG_IGN);
	prctl(PR_SET_NAME, "coretrace-write");
	ct_writer_close_others(ctf, in_fd, status_fd);
	/* it writes in DIR through its descriptor: root is not needed */
	if (ctf->out.privs) {
		char why[CT_PRIVS_WHY];

		if (ct_privs_drop(ctf->out.privs, CT_PRIVS_WRITER, -1, why,
				  sizeof(why)) < 0) {
			fprintf(stderr, "coretrace: the capture writer: %s\n", why);
			_exit(1);
		}
	}
	memset(&w, 0, sizeof(w));
	w.ctf = ctf;
	w.names_fd = -1;
	w.status_fd = status_fd;
	/* a plain capture: its files are open already */
	w.open = ctf->streams[0].fd >= 0;
	w.part_fd = ctf->dir_fd;
	if (!buf)
		ctf->error = -ENOMEM;
	while (ct_read_full(in_fd, &msg, sizeof(msg)) == sizeof(msg)) {
		if (msg.kind == CT_WMSG_END) {
			ended = true;
			break;
		}
		if (msg.kind == CT_WMSG_SLOT) {
			if (!ct_writer_slot(&w, &msg))
				break;
			continue;
		}
		if (!buf || msg.len > CT_CTF_PACKET_MAX)
			break;
		if (ct_read_full(in_fd, buf, msg.len) != msg.len)
			break;		/* coretrace died in the middle of it */
		if (!ct_writer_message(&w, &msg, buf))
			break;
	}
	if (ended && w.open && w.lazy)
		ct_writer_close(&w);
	else if (ended && w.open)
		ct_writer_close_files(&w, false);
	else if (w.lazy)
		ct_writer_abandon(&w);
	else {
		ct_writer_close_files(&w, false);
		ct_writer_mark_cut(ctf, ctf->dir_fd);
	}
	if (w.err && !ctf->error)
		ctf->error = w.err;
	ct_writer_report(&w, CT_WST_DONE);
	_exit(0);
}

/*
 * The writer's news, if some is waiting (the status pipe is non-blocking
 * while recording); @block waits for its last message.
 */
static void ct_ctf_poll_writer(struct ct_ctf *ctf, bool block)
{
	struct ct_writer_status st;

	if (block)
		fcntl(ctf->status_fd, F_SETFL,
		      fcntl(ctf->status_fd, F_GETFL) & ~O_NONBLOCK);
	while (ct_read_full(ctf->status_fd, &st, sizeof(st)) == sizeof(st)) {
		st.name[sizeof(st.name) - 1] = '\0';
		if (st.kind == CT_WST_CLOSED) {
			ctf->closed_dirs++;
			if (ctf->on_closed)
				ctf->on_closed(ctf->closed_ctx, st.name,
					       st.dir_bytes, st.error);
			continue;
		}
		if (st.error && !ctf->error)
			ctf->error = st.error;
		if (st.kind == CT_WST_DONE) {
			ctf->bytes = st.bytes;
			return;
		}
	}
	if (block && !ctf->error)
		ctf->error = -EPIPE;	/* the writer died without its report */
}

void ct_ctf_poll(struct ct_ctf *ctf)
{
	if (ctf->writer_pid)
		ct_ctf_poll_writer(ctf, false);
}

/* One message to the writer: @kind, @cpu and the bytes of @iov */
static int ct_ctf_tell(struct ct_ctf *ctf, uint32_t kind, uint32_t cpu,
		       const struct iovec *iov, int iovcnt)
{
	struct ct_writer_msg msg = { kind, cpu, 0, 0 };
	struct iovec all[4] = { { &msg, sizeof(msg) } };
	int i, err;

	if (!ctf->writer_pid)
		return -EBADF;
	for (i = 0; i < iovcnt && i < 3; i++) {
		all[i + 1] = iov[i];
		msg.len += (uint32_t)iov[i].iov_len;
	}
	if (msg.len > CT_CTF_PACKET_MAX)
		return -E2BIG;
	err = ct_write_full(ctf->pipe_fd, all, i + 1);
	if (err && !ctf->error)
		ctf->error = err;
	return err;
}

static void ct_ctf_send(struct ct_ctf *ctf, int cpu, struct iovec *packet)
{
	ct_ctf_tell(ctf, CT_WMSG_PACKET, (uint32_t)cpu, packet, 2);
	/* until the writer's own count */
	ctf->bytes += packet[0].iov_len + packet[1].iov_len;
}

/*
 * The slots of the CPUs online now and the spare ones, faulted in before
 * the first record: a drain then never stops for a page fault, and what
 * the slots cost (a fault, a cleared page each) is paid once at start.
 * Measured in the guest (padded, one CPU, icount): a short recording
 * otherwise took its 80 slot pages' faults in the drain after the
 * workload, and make bench's 5000-round ping-pong cost 840 instructions
 * per event against 809 with them faulted in here (40000 rounds: 770
 * either way). The slots of CPUs offline now stay untouched until they
 * record.
 */
static void ct_ctf_touch_slots(struct ct_ctf *ctf)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN), page = sysconf(_SC_PAGESIZE);
	uint32_t nslots = (uint32_t)ctf->ncpus + CT_CTF_SPARE_SLOTS, slot;
	volatile unsigned char *p;
	size_t off;

	if (online <= 0 || online > ctf->ncpus)
		online = ctf->ncpus;
	if (page <= 0)
		page = 4096;
	for (slot = 0; slot < nslots; slot++) {
		if (slot >= (uint32_t)online && slot < (uint32_t)ctf->ncpus)
			continue;
		p = ctf->slots + (size_t)slot * CT_CTF_PACKET_MAX;
		/* a stream's open packet is there: rewrite its bytes as they are */
		for (off = 0; off < CT_CTF_PACKET_MAX; off += (size_t)page)
			p[off] = p[off];
	}
}

/*
 * The streams' packets move to slots shared with the writer, with
 * CT_CTF_SPARE_SLOTS more to fill while packets wait to be written.
 * Without the mapping the packets go through the pipe, as before.
 */
static void ct_ctf_share_packets(struct ct_ctf *ctf)
{
	uint32_t nslots = (uint32_t)ctf->ncpus + CT_CTF_SPARE_SLOTS, i;
	size_t ctl = 4096, bytes = (size_t)nslots * CT_CTF_PACKET_MAX;
	unsigned char *map;
	int cpu;

	/* a stream between two packets has put its slot here too */
	ctf->slot_queue = calloc(nslots, sizeof(*ctf->slot_queue));
	if (!ctf->slot_queue)
		return;
	map = mmap(NULL, ctl + bytes, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		free(ctf->slot_queue);
		ctf->slot_queue = NULL;
		return;
	}
	ctf->slot_ctl = (struct ct_slot_ctl *)map;
	ctf->slots = map + ctl;
	ctf->slots_bytes = bytes;
	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];
		unsigned char *slot = ctf->slots + (size_t)cpu * CT_CTF_PACKET_MAX;

		if (s->packet)
			memcpy(slot, s->packet, CT_CTF_HEAD + s->used);
		free(s->packet);
		s->packet = slot;
	}
	for (i = 0; i < CT_CTF_SPARE_SLOTS; i++)
		ctf->slot_queue[i].slot = (uint32_t)ctf->ncpus + i;
	ctf->slot_queue_cap = nslots;
	ctf->slot_queue_len = CT_CTF_SPARE_SLOTS;
	ct_ctf_touch_slots(ctf);
}

static void ct_ctf_unshare_packets(struct ct_ctf *ctf)
{
	int cpu;

	if (!ctf->slots)
		return;
	for (cpu = 0; ctf->streams && cpu < ctf->ncpus; cpu++)
		ctf->streams[cpu].packet = NULL;
	munmap(ctf->slot_ctl, 4096 + ctf->slots_bytes);
	free(ctf->slot_queue);
	ctf->slots = NULL;
	ctf->slot_ctl = NULL;
	ctf->slot_queue = NULL;
}

/* Has the writer written the slot packet told as @seq? */
static bool ct_ctf_slot_written(const struct ct_ctf *ctf, uint32_t seq)
{
	return (int32_t)(atomic_load(&ctf->slot_ctl->written) - seq) > 0;
}

/*
 * Wait until the writer has written the packet told as @seq (it writes
 * them in order). A writer that went away ends the wait with an error.
 */
static void ct_ctf_wait_slot(struct ct_ctf *ctf, uint32_t seq)
{
	struct pollfd pfd = { .fd = ctf->status_fd, .events = POLLIN };

	if (ct_ctf_slot_written(ctf, seq))
		return;
	ctf->slot_waits++;
	for (;;) {
		atomic_store(&ctf->slot_ctl->waiting, 1);
		if (ct_ctf_slot_written(ctf, seq))
			break;
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			break;
		if ((pfd.revents & (POLLHUP | POLLERR)) && !(pfd.revents & POLLIN)) {
			if (!ctf->error)
				ctf->error = -EPIPE;
			break;
		}
		ct_ctf_poll_writer(ctf, false);
	}
	atomic_store(&ctf->slot_ctl->waiting, 0);
}

/* A slot for @s's next packet: the one whose packet went out first */
static void ct_ctf_take_slot(struct ct_ctf *ctf, struct ct_ctf_stream *s)
{
	struct ct_slot_ref ref = ctf->slot_queue[ctf->slot_queue_head];

	ctf->slot_queue_head = (ctf->slot_queue_head + 1) % ctf->slot_queue_cap;
	ctf->slot_queue_len--;
	if (ref.told)
		ct_ctf_wait_slot(ctf, ref.seq);
	s->packet = ctf->slots + (size_t)ref.slot * CT_CTF_PACKET_MAX;
}

/* @s's sealed packet (@len bytes) to the writer, by its place */
static void ct_ctf_send_slot(struct ct_ctf *ctf, int cpu,
			     struct ct_ctf_stream *s, size_t len)
{
	uint32_t slot = (uint32_t)((size_t)(s->packet - ctf->slots) / CT_CTF_PACKET_MAX);
	struct ct_writer_msg msg = { CT_WMSG_SLOT, (uint32_t)cpu, (uint32_t)len, slot };
	struct iovec iov = { &msg, sizeof(msg) };
	uint32_t tail;
	int err;

	err = ct_write_full(ctf->pipe_fd, &iov, 1);
	if (err) {
		/* not told: the stream fills the same slot again */
		if (!ctf->error)
			ctf->error = err;
		return;
	}
	ctf->bytes += len;	/* until the writer's own count */
	tail = (ctf->slot_queue_head + ctf->slot_queue_len) % ctf->slot_queue_cap;
	ctf->slot_queue[tail] = (struct ct_slot_ref){ slot, ctf->slots_sent++, true };
	ctf->slot_queue_len++;
	s->packet = NULL;	/* a slot is taken when the next packet starts */
}

int ct_ctf_start_writer(struct ct_ctf *ctf)
{
	int to_writer[2], from_writer[2], cpu;
	pid_t pid;

	ct_ctf_share_packets(ctf);
	if (pipe2(to_writer, O_CLOEXEC))
		return -errno;
	if (pipe2(from_writer, O_CLOEXEC)) {
		close(to_writer[0]);
		close(to_writer[1]);
		return -errno;
	}
	/* a dead writer is an error to report, not a reason to die */
	ct_signals_ignore_pipe();
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		ct_writer_main(ctf, to_writer[0], from_writer[1]);
	close(to_writer[0]);
	close(from_writer[1]);
	if (pid < 0) {
		close(to_writer[1]);
		close(from_writer[0]);
		return -errno;
	}
	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		if (ctf->streams[cpu].fd >= 0)
			close(ctf->streams[cpu].fd);
		ctf->streams[cpu].fd = -1;
	}
	ctf->pipe_fd = to_writer[1];
	ctf->status_fd = from_writer[0];
	fcntl(ctf->status_fd, F_SETFL,
	      fcntl(ctf->status_fd, F_GETFL) | O_NONBLOCK);
	ctf->writer_pid = pid;
	return 0;
}

uint64_t ct_ctf_packet_u64(const unsigned char *packet, size_t offset)
{
	uint64_t v;

	memcpy(&v, packet + offset, sizeof(v));
	return v;
}

int ct_ctf_emit(struct ct_ctf *ctf, unsigned int cpu, const unsigned char *packet,
		size_t len, uint64_t discard_base)
{
	unsigned char head[CT_CTF_HEAD];
	uint64_t discarded;
	struct iovec iov[2];

	if (len < CT_CTF_HEAD)
		return -EINVAL;
	memcpy(head, packet, CT_CTF_HEAD);
	discarded = ct_ctf_packet_u64(head, CT_CTF_DISCARDED);
	discarded = discarded > discard_base ? discarded - discard_base : 0;
	memcpy(head + CT_CTF_DISCARDED, &discarded, sizeof(discarded));
	iov[0].iov_base = head;
	iov[0].iov_len = CT_CTF_HEAD;
	iov[1].iov_base = (void *)(packet + CT_CTF_HEAD);
	iov[1].iov_len = len - CT_CTF_HEAD;
	return ct_ctf_tell(ctf, CT_WMSG_PACKET, cpu, iov, 2);
}

long ct_ctf_begin_dir(struct ct_ctf *ctf, const char *name, bool hidden,
		      const struct ct_ctf_env *env,
		      const struct ct_ctf_part *part)
{
	struct ct_writer_open head;
	struct iovec iov[2];
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	memset(&head, 0, sizeof(head));
	if (strlen(name) >= sizeof(head.name))
		return -ENAMETOOLONG;
	snprintf(head.name, sizeof(head.name), "%s", name);
	head.hidden = hidden;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	err = ct_ctf_write_part_metadata(f, ctf->uuid, env, part);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err) {
		iov[0].iov_base = &head;
		iov[0].iov_len = sizeof(head);
		iov[1].iov_base = text;
		iov[1].iov_len = len;
		err = ct_ctf_tell(ctf, CT_WMSG_OPEN, 0, iov, 2);
	}
	free(text);
	return err ? err : (long)len;
}

int ct_ctf_end_dir(struct ct_ctf *ctf)
{
	return ct_ctf_tell(ctf, CT_WMSG_CLOSE, 0, NULL, 0);
}

int ct_ctf_remove_dir(struct ct_ctf *ctf, const char *name)
{
	struct iovec iov = { (void *)name, strlen(name) + 1 };

	return ct_ctf_tell(ctf, CT_WMSG_REMOVE, 0, &iov, 1);
}

/* @s's packet header at the front of its buffer; the packet's bytes */
static size_t ct_ctf_seal(const struct ct_ctf *ctf, struct ct_ctf_stream *s,
			  uint32_t cpu_id)
{
	unsigned char *p = s->packet;
	uint64_t bits = (uint64_t)(CT_CTF_HEAD + s->used) * 8;
	uint32_t magic = CT_CTF_MAGIC, stream_id = 0;

	ct_put(&p, &magic, 4);
	ct_put(&p, ctf->uuid, 16);
	ct_put(&p, &stream_id, 4);
	ct_put_u64(&p, s->ts_begin);
	ct_put_u64(&p, s->ts_end);
	ct_put_u64(&p, bits);		/* content_size */
	ct_put_u64(&p, bits);		/* packet_size: no padding */
	ct_put_u64(&p, s->events_discarded);
	ct_put(&p, &cpu_id, 4);
	return CT_CTF_HEAD + s->used;
}

static int ct_ctf_write_packet(struct ct_ctf *ctf, int cpu)
{
	struct ct_ctf_stream *s = &ctf->streams[cpu];
	struct iovec iov[2];
	size_t len;

	if (!s->used)
		return 0;
	len = ct_ctf_seal(ctf, s, (uint32_t)cpu);
	if (ctf->sink) {
		ctf->sink(ctf->sink_ctx, (unsigned int)cpu, s->packet_events,
			  s->packet, len);
	} else {
		iov[0].iov_base = s->packet;
		iov[0].iov_len = CT_CTF_HEAD;
		iov[1].iov_base = s->packet + CT_CTF_HEAD;
		iov[1].iov_len = s->used;
		if (ctf->writer_pid && ctf->slots)
			ct_ctf_send_slot(ctf, cpu, s, len);
		else if (ctf->writer_pid)
			ct_ctf_send(ctf, cpu, iov);
		else
			ct_stream_append(ctf, s, iov, 2);
	}
	s->used = 0;
	s->packet_events = 0;
	return ctf->error;
}

int ct_ctf_flush_all(struct ct_ctf *ctf)
{
	int cpu;

	for (cpu = 0; cpu < ctf->ncpus; cpu++)
		ct_ctf_write_packet(ctf, cpu);
	return ctf->error;
}

/* True the first time @addr is seen (or when the set is full). */
static bool ct_ctf_first_sight(struct ct_ctf *ctf, uint64_t addr)
{
	struct ct_probe probe = ct_probe(addr, CT_CTF_ANNOUNCED - 1,
					 CT_CTF_ANNOUNCED);
	uint64_t *slot;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		slot = &ctf->announced[at];
		if (*slot == addr)
			return false;
		if (!*slot) {
			*slot = addr;
			return true;
		}
	}
	return true;
}

/* coretrace_ksym: @addr's name, ahead of the record that needs it */
static void ct_ctf_put_ksym(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			    uint64_t ts, uint64_t addr)
{
	const char *name = ct_ksyms_lookup(ctf->ksyms, addr);
	unsigned char *p = s->packet + CT_CTF_HEAD + s->used;
	size_t len;

	if (!name)
		return;
	len = strnlen(name, CT_CTF_KSYM_NAME - 1u);
	ct_put_header(&p, s, CT_CTF_ID_KSYM, ts);
	ct_put(&p, &addr, 8);
	ct_put(&p, name, len);
	*p++ = '\0';
	s->used = (size_t)(p - s->packet) - CT_CTF_HEAD;
	ctf->ksym_events++;	/* a name, not a record: not in packet_events */
}

/* True the first time stack @id is seen (or when the set is full). */
static bool ct_ctf_stack_first_sight(struct ct_ctf *ctf, uint32_t id)
{
	struct ct_probe probe = ct_probe(id, CT_CTF_STACKS_TOLD - 1, 64);
	uint32_t *slot, at;

	while (ct_probe_next(&probe, &at)) {
		slot = &ctf->stacks_told[at];
		if (*slot == id)
			return false;
		if (!*slot) {
			*slot = id;
			return true;
		}
	}
	return true;
}

/* True the first time @key is put in @set of @slots (or when it is full) */
static bool ct_ctf_first_key(uint64_t *set, uint32_t slots, uint64_t key)
{
	struct ct_probe probe = ct_probe(key, slots - 1, 64);
	uint32_t at;

	key |= 1;	/* never the empty slot's 0 */
	while (ct_probe_next(&probe, &at)) {
		if (set[at] == key)
			return false;
		if (!set[at]) {
			set[at] = key;
			return true;
		}
	}
	return true;
}

static uint64_t ct_build_id_key(const unsigned char *id)
{
	uint64_t key;

	memcpy(&key, id, sizeof(key));
	return key;
}

/* A string event's string: @str cut to @max - 1 bytes, and its NUL */
static void ct_put_cut(unsigned char **p, const char *str, size_t max)
{
	size_t len = strnlen(str, max - 1);

	ct_put(p, str, len);
	*(*p)++ = '\0';
}

/*
 * coretrace_module and coretrace_usym events a user stack needs first:
 * those not in @told yet (the capture's, or a part's names stream's own)
 */
static void ct_ctf_put_unames(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			      uint64_t ts, const struct ct_stack *st,
			      uint64_t *told)
{
	const struct ct_uframe *f;
	const char *path, *name;
	unsigned char *p;
	uint64_t lookup;
	unsigned int i;

	for (i = 0; i < st->nr; i++) {
		f = ct_stack_uframe(st, i);
		if (f->status != CT_UFRAME_VALID)
			continue;
		path = ct_usyms_module(ctf->usyms, f->build_id);
		if (path && ct_ctf_first_key(told, CT_CTF_UTOLD,
					     ct_build_id_key(f->build_id) ^ 0x6d6f64)) {
			p = s->packet + CT_CTF_HEAD + s->used;
			ct_put_header(&p, s, CT_CTF_ID_MODULE, ts);
			ct_put(&p, f->build_id, CT_BUILD_ID_SIZE);
			ct_put_cut(&p, path, CT_CTF_PATH_MAX);
			s->used = (size_t)(p - s->packet) - CT_CTF_HEAD;
		}
		lookup = ct_uframe_lookup(f, !i);
		if (!ct_ctf_first_key(told, CT_CTF_UTOLD,
				      ct_build_id_key(f->build_id) ^
				      lookup * 0x9e3779b97f4a7c15ull))
			continue;
		name = ct_usyms_name(ctf->usyms, f, !i);
		if (!name)
			continue;
		p = s->packet + CT_CTF_HEAD + s->used;
		ct_put_header(&p, s, CT_CTF_ID_USYM, ts);
		ct_put(&p, f->build_id, CT_BUILD_ID_SIZE);
		ct_put(&p, &lookup, sizeof(lookup));
		ct_put_cut(&p, name, CT_CTF_USYM_NAME);
		s->used = (size_t)(p - s->packet) - CT_CTF_HEAD;
	}
}

/*
 * Stack @st's event at @s's end, stamped @ts: a kernel stack after the
 * names of its frames not named yet, a user stack after its files and
 * names. The caller made room (CT_CTF_CALLCHAIN_ROOM).
 */
static void ct_ctf_put_stack(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			     uint64_t ts, const struct ct_stack *st,
			     uint64_t *told)
{
	unsigned char *p;
	uint32_t head[3] = { st->id, st->tgid, st->nr };
	unsigned int i;

	if (!st->user && ctf->ksyms && ctf->announced)
		for (i = 0; i < st->nr; i++)
			if (ct_ctf_first_sight(ctf, ct_stack_ip(st, i)))
				ct_ctf_put_ksym(ctf, s, ts, ct_stack_ip(st, i));
	if (st->user && ctf->usyms && told)
		ct_ctf_put_unames(ctf, s, ts, st, told);
	p = s->packet + CT_CTF_HEAD + s->used;
	ct_put_header(&p, s, st->user ? CT_CTF_ID_USTACK : CT_CTF_ID_KSTACK, ts);
	ct_put(&p, head, sizeof(head));
	ct_put(&p, st->frames, st->nr * (st->user ? sizeof(struct ct_uframe) :
					 sizeof(uint64_t)));
	s->used = (size_t)(p - s->packet) - CT_CTF_HEAD;
	ctf->stack_events++;	/* frames, not a record: not in packet_events */
}

/* The stacks a callchain record names, given ahead of it once */
static void ct_ctf_put_stacks(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			      uint64_t ts, const struct ct_callchain *c)
{
	const struct ct_stack *st;
	uint32_t ids[2] = { c->kstack, c->ustack };
	int i;

	for (i = 0; i < 2; i++) {
		if (!ids[i] || !ct_ctf_stack_first_sight(ctf, ids[i]))
			continue;
		st = ct_stacks_get(ctf->stacks, ids[i]);
		if (st)
			ct_ctf_put_stack(ctf, s, ts, st, ctf->utold);
	}
}

/* Room for a callchain's stacks, their frames' names and files */
#define CT_CTF_CALLCHAIN_ROOM						\
	(2 * CT_CTF_STACK_MAX +						\
	 CT_KSTACK_DEPTH * (CT_CTF_EVENT_MAX + CT_CTF_KSYM_NAME) +	\
	 CT_USTACK_DEPTH * (2 * 10 + 2 * CT_BUILD_ID_SIZE + 8 +		\
			    CT_CTF_PATH_MAX + CT_CTF_USYM_NAME))

/* Does @c name a stack this capture has not given yet? */
static bool ct_ctf_stacks_new(struct ct_ctf *ctf, const struct ct_callchain *c)
{
	struct ct_probe probe;
	uint32_t ids[2] = { c->kstack, c->ustack }, at;
	int i;

	for (i = 0; i < 2; i++) {
		if (!ids[i])
			continue;
		probe = ct_probe(ids[i], CT_CTF_STACKS_TOLD - 1, 64);
		while (ct_probe_next(&probe, &at)) {
			if (ctf->stacks_told[at] == ids[i])
				break;
			if (!ctf->stacks_told[at])
				return true;
		}
		if (!probe.left && ctf->stacks_told[at] != ids[i])
			return true;
	}
	return false;
}

/* An event of @n bytes and @type added to @s's packet */
static inline void ct_ctf_count(struct ct_ctf *ctf, struct ct_ctf_stream *s,
				unsigned int type, size_t n)
{
	s->used += n;
	s->packet_events++;
	s->events++;
	ctf->events++;
	ctf->type_events[type]++;
	ctf->type_bytes[type] += n;
}

/* ct_ctf_add() when its packet is full or new, or its time unusual */
static __attribute__((noinline)) int
ct_ctf_add_slow(struct ct_ctf *ctf, const union ct_record *rec, uint64_t now_ns)
{
	unsigned int cpu = rec->hdr.cpu, type = rec->hdr.type;
	uint64_t ts = ct_ts(rec);
	struct ct_ctf_stream *s = &ctf->streams[cpu];
	size_t n;

	/* room for the largest event and a name: write in place */
	if (s->used + 2 * CT_CTF_EVENT_MAX > CT_CTF_PACKET_MAX - CT_CTF_HEAD ||
	    (type == CT_EV_CALLCHAIN && ctf->stacks && ctf->stacks_told &&
	     s->used + CT_CTF_CALLCHAIN_ROOM > CT_CTF_PACKET_MAX - CT_CTF_HEAD &&
	     ct_ctf_stacks_new(ctf, &rec->callchain)))
		ct_ctf_write_packet(ctf, (int)cpu);
	if (!s->used) {
		if (!s->packet)
			ct_ctf_take_slot(ctf, s);
		if (ts < s->clock)
			ts = s->clock;
		s->ts_begin = ts;	/* the reader's clock at the packet */
		s->clock = ts;
		s->first_added_ns = now_ns;
	} else if (ts < s->clock) {
		/*
		 * A stream's clock never goes back: a record that reached
		 * the ring after a later one of its CPU (an interrupt's,
		 * between the handler reading the clock and reserving) is
		 * stamped with the later time.
		 */
		ts = s->clock;
	}
	s->ts_end = ts;
	if (__builtin_expect(ct_type_names_function(type), 0) && ctf->ksyms &&
	    ctf->announced && ct_ctf_first_sight(ctf, ct_rec_function(rec)))
		ct_ctf_put_ksym(ctf, s, ts, ct_rec_function(rec));
	if (type == CT_EV_CALLCHAIN && ctf->stacks && ctf->stacks_told)
		ct_ctf_put_stacks(ctf, s, ts, &rec->callchain);
	n = ct_ctf_copy(s, rec, ts, s->packet + CT_CTF_HEAD + s->used);
	ct_ctf_count(ctf, s, type, n);
	return ctf->error;
}

/*
 * The path of nearly every record: a packet begun with room left, the
 * clock moved on by less than 2^32 ns, no function to name, no string
 * but a task name. Kept apart from the rest so that it saves and
 * restores few registers (make bench's guest: ~110 emulated instructions
 * per record in ct_ctf_add before).
 */
int ct_ctf_add(struct ct_ctf *ctf, const union ct_record *rec, uint64_t now_ns)
{
	unsigned int cpu = rec->hdr.cpu, type = rec->hdr.type, copy;
	uint64_t ts = ct_ts(rec);
	struct ct_ctf_stream *s;
	unsigned char *p;
	size_t n;

	if (__builtin_expect(cpu >= (unsigned int)ctf->ncpus, 0))
		return -ERANGE;
	s = &ctf->streams[cpu];
	copy = ct_fast_copy[type];
	/*
	 * The slow path: a new packet (used 0 wraps to the largest value
	 * here), one without room for the largest event and a name, a clock
	 * that went back (it wraps) or jumped, a record that is not copied.
	 */
	if (__builtin_expect(s->used - 1 >= CT_CTF_FAST_USED ||
			     ts - s->clock >= (1ull << 32) || !copy, 0))
		return ct_ctf_add_slow(ctf, rec, now_ns);
	/* the record's own type byte and ts_low are the compact header */
	p = s->packet + CT_CTF_HEAD + s->used;
	memcpy(p, (const unsigned char *)rec + CT_EVENT_START, CT_CTF_FIXED_COPY);
	n = copy & ~CT_COPY_COMM;
	if (copy & CT_COPY_COMM)
		n += ct_put_comm(p + n, (const unsigned char *)rec + CT_EVENT_START + n);
	s->clock = ts;
	s->ts_end = ts;
	ct_ctf_count(ctf, s, type, n);
	return ctf->error;
}

void ct_ctf_set_discarded(struct ct_ctf *ctf, int cpu, uint64_t lost)
{
	if (cpu >= 0 && cpu < ctf->ncpus)
		ctf->streams[cpu].events_discarded = lost;
}

int ct_ctf_flush_old(struct ct_ctf *ctf, uint64_t now_ns, uint64_t max_wait_ns)
{
	int cpu;

	if (ctf->writer_pid)
		ct_ctf_poll_writer(ctf, false);
	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		if (s->used && now_ns - s->first_added_ns >= max_wait_ns)
			ct_ctf_write_packet(ctf, cpu);
	}
	return ctf->error;
}

static int ct_ctf_make_uuid(unsigned char uuid[16])
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, uuid, 16) : -1;

	if (fd >= 0)
		close(fd);
	if (n != 16)
		return -EIO;
	uuid[6] = (uuid[6] & 0x0f) | 0x40;	/* version 4 */
	uuid[8] = (uuid[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	return 0;
}

/*
 * DIR made if missing and held open (outdir.h says which it refuses), a
 * new uuid, a closed stream per CPU; 0 or -errno
 */
static int ct_ctf_init(struct ct_ctf *ctf, const char *dir, int ncpus,
		       const struct ct_outdir_opts *out)
{
	int cpu, err;

	memset(ctf, 0, sizeof(*ctf));
	ctf->pipe_fd = -1;
	ctf->status_fd = -1;
	if (out)
		ctf->out = *out;
	else
		ct_outdir_defaults(&ctf->out);
	ctf->dir_fd = ct_outdir_open(dir, &ctf->out, ctf->why, sizeof(ctf->why));
	if (ctf->dir_fd < 0)
		return ctf->dir_fd;
	err = ct_ctf_make_uuid(ctf->uuid);
	if (err)
		return err;
	ctf->dir = strdup(dir);
	ctf->ncpus = ncpus;
	ctf->announced = calloc(CT_CTF_ANNOUNCED, sizeof(*ctf->announced));
	ctf->stacks_told = calloc(CT_CTF_STACKS_TOLD, sizeof(*ctf->stacks_told));
	ctf->utold = calloc(CT_CTF_UTOLD, sizeof(*ctf->utold));
	ctf->streams = calloc((size_t)ncpus, sizeof(*ctf->streams));
	if (!ctf->dir || !ctf->streams || !ctf->announced || !ctf->stacks_told ||
	    !ctf->utold)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus; cpu++)
		ctf->streams[cpu].fd = -1;
	return 0;
}

int ct_ctf_open(struct ct_ctf *ctf, const char *dir, int ncpus,
		const struct ct_ctf_env *env, const struct ct_outdir_opts *out)
{
	char name[32];
	FILE *meta;
	int cpu, fd, err = ct_ctf_init(ctf, dir, ncpus, out);

	if (err)
		return err;
	fd = ct_outdir_create(ctf->dir_fd, "metadata", &ctf->out);
	if (fd < 0)
		return fd;
	meta = fdopen(fd, "w");
	if (!meta) {
		err = -errno;
		close(fd);
		return err;
	}
	err = ct_ctf_write_metadata(meta, ctf->uuid, env);
	if (fclose(meta) && !err)
		err = -errno;
	for (cpu = 0; cpu < ncpus && !err; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		snprintf(name, sizeof(name), "stream_%d", cpu);
		s->fd = ct_outdir_create(ctf->dir_fd, name, &ctf->out);
		s->packet = malloc(CT_CTF_PACKET_MAX);
		if (s->fd < 0)
			err = s->fd;
		else if (!s->packet)
			err = -ENOMEM;
	}
	return err;
}

int ct_ctf_close(struct ct_ctf *ctf)
{
	bool own_files = !ctf->writer_pid;
	int cpu;

	for (cpu = 0; ctf->streams && cpu < ctf->ncpus; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		if ((s->fd >= 0 || ctf->writer_pid) && !ctf->sink)
			ct_ctf_write_packet(ctf, cpu);
		if (s->fd >= 0 && close(s->fd) && !ctf->error)
			ctf->error = -errno;
		s->fd = -1;
		if (!ctf->slots)
			free(s->packet);
	}
	if (own_files && ctf->streams && ctf->dir)
		ct_ctf_drop_empty(ctf, ctf->dir_fd);
	if (ctf->writer_pid) {
		if (ct_ctf_tell(ctf, CT_WMSG_END, 0, NULL, 0) && !ctf->error)
			ctf->error = -EPIPE;
		close(ctf->pipe_fd);
		ct_ctf_poll_writer(ctf, true);
		close(ctf->status_fd);
		waitpid(ctf->writer_pid, NULL, 0);
		ctf->writer_pid = 0;
	}
	ct_ctf_unshare_packets(ctf);
	if (ctf->dir_fd >= 0)
		close(ctf->dir_fd);
	ctf->dir_fd = -1;
	free(ctf->streams);
	free(ctf->dir);
	free(ctf->announced);
	free(ctf->stacks_told);
	free(ctf->utold);
	ctf->announced = NULL;
	ctf->stacks_told = NULL;
	ctf->utold = NULL;
	ctf->streams = NULL;
	ctf->dir = NULL;
	return ctf->error;
}

int ct_ctf_open_parts(struct ct_ctf *ctf, const char *dir, int ncpus,
		      const struct ct_outdir_opts *out)
{
	int cpu, err = ct_ctf_init(ctf, dir, ncpus, out);

	for (cpu = 0; cpu < ncpus && !err; cpu++) {
		ctf->streams[cpu].packet = malloc(CT_CTF_PACKET_MAX);
		if (!ctf->streams[cpu].packet)
			err = -ENOMEM;
	}
	return err ? err : ct_ctf_start_writer(ctf);
}

/* The names stream's packet in @s, if it holds events; 0 or -errno */
static int ct_names_flush(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			  long *written)
{
	size_t len;
	int err;

	if (!s->used)
		return 0;
	len = ct_ctf_seal(ctf, s, 0);
	err = ct_ctf_emit(ctf, CT_WRITER_NAMES, s->packet, len, 0);
	*written += (long)len;
	s->used = 0;
	return err;
}

/* One name event of @rec into the names packet, flushed when full */
static int ct_names_put(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			const union ct_record *rec, long *written)
{
	int err = 0;

	if (s->used + CT_CTF_EVENT_MAX > CT_CTF_PACKET_MAX - CT_CTF_HEAD)
		err = ct_names_flush(ctf, s, written);
	s->used += ct_ctf_copy(s, rec, ct_ts(rec),
			       s->packet + CT_CTF_HEAD + s->used);
	return err;
}

static int ct_names_put_ksyms(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			      uint64_t ts, long *written)
{
	int i, err = 0;

	for (i = 0; ctf->ksyms && i < CT_CTF_ANNOUNCED && !err; i++) {
		if (!ctf->announced[i])
			continue;
		if (s->used + CT_CTF_EVENT_MAX + CT_CTF_KSYM_NAME >
		    CT_CTF_PACKET_MAX - CT_CTF_HEAD)
			err = ct_names_flush(ctf, s, written);
		ct_ctf_put_ksym(ctf, s, ts, ctf->announced[i]);
		ctf->ksym_events--;	/* counted with the records, not here */
	}
	return err;
}

/* The stacks given so far (and the names of their frames) */
static int ct_names_put_stacks(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			       uint64_t ts, long *written)
{
	const struct ct_stacks *t = ctf->stacks;
	uint64_t *told;
	uint32_t i;
	int err = 0;

	if (!t || !t->slot || !ctf->stacks_told)
		return 0;
	/* each file and frame name once in this stream, as in a capture */
	told = calloc(CT_CTF_UTOLD, sizeof(*told));
	if (!told)
		return -ENOMEM;
	for (i = 0; i <= t->mask && !err; i++) {
		if (!t->slot[i].id)
			continue;
		if (s->used + CT_CTF_CALLCHAIN_ROOM > CT_CTF_PACKET_MAX - CT_CTF_HEAD)
			err = ct_names_flush(ctf, s, written);
		ct_ctf_put_stack(ctf, s, ts, &t->slot[i], told);
		ctf->stack_events--;	/* counted with the records, not here */
	}
	free(told);
	return err;
}

/* The groups and the tasks' groups known, as name events */
static int ct_names_put_cgroups(struct ct_ctf *ctf, struct ct_ctf_stream *s,
				const struct ct_cgroup_names *cg,
				union ct_record *rec, long *written)
{
	uint32_t i;
	int err = 0;

	rec->hdr.type = CT_EV_CGROUP_NAME;
	for (i = 0; cg && cg->groups && i <= cg->group_mask && !err; i++) {
		const struct ct_cg_group *g = &cg->groups[i];

		if (!g->used)
			continue;
		rec->cgroup_name.cgroup_id = g->id;
		rec->cgroup_name.level = g->level;
		memcpy(rec->cgroup_name.path, g->path, CT_CGROUP_PATH_LEN);
		err = ct_names_put(ctf, s, rec, written);
	}
	rec->hdr.type = CT_EV_TASK_CGROUP;
	for (i = 0; cg && cg->tasks && i <= cg->task_mask && !err; i++) {
		const struct ct_cg_task *t = &cg->tasks[i];

		if (!t->used || !t->pid)
			continue;
		rec->task_cgroup.pid = t->pid;
		rec->task_cgroup.cgroup_id = t->id;
		err = ct_names_put(ctf, s, rec, written);
	}
	return err;
}

long ct_ctf_write_names(struct ct_ctf *ctf, const struct ct_comm_cache *comms,
			const struct ct_irq_names *irqs,
			const struct ct_cgroup_names *cgroups, uint64_t ts)
{
	struct ct_ctf_stream s;
	union ct_record rec;
	long written = 0;
	uint32_t i;
	int err = 0;

	memset(&s, 0, sizeof(s));
	s.packet = malloc(CT_CTF_PACKET_MAX);
	if (!s.packet)
		return -ENOMEM;
	s.ts_begin = s.ts_end = s.clock = ts;
	memset(&rec, 0, sizeof(rec));
	ct_set_ts(&rec, ts);
	rec.hdr.type = CT_EV_COMM;
	for (i = 0; comms->slots && i <= comms->mask && !err; i++) {
		const struct ct_comm_slot *slot = &comms->slots[i];

		if (!slot->used || !slot->pid)
			continue;
		rec.comm.pid = slot->pid;
		memcpy(rec.comm.comm, slot->comm, CT_COMM_LEN);
		err = ct_names_put(ctf, &s, &rec, &written);
	}
	rec.hdr.type = CT_EV_IRQ_NAME;
	for (i = 0; irqs && i < CT_IRQ_SLOTS && !err; i++) {
		if (!irqs->slot[i].used)
			continue;
		rec.irq_name.irq = irqs->slot[i].irq;
		memcpy(rec.irq_name.name, irqs->slot[i].name, CT_IRQ_NAME_LEN);
		err = ct_names_put(ctf, &s, &rec, &written);
	}
	if (!err)
		err = ct_names_put_cgroups(ctf, &s, cgroups, &rec, &written);
	if (!err)
		err = ct_names_put_ksyms(ctf, &s, ts, &written);
	if (!err)
		err = ct_names_put_stacks(ctf, &s, ts, &written);
	if (!err)
		err = ct_names_flush(ctf, &s, &written);
	free(s.packet);
	return err ? err : written;
}
