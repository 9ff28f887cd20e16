/* SPDX-License-Identifier: GPL-2.0 */
/* Reading coretrace's CTF captures back into records. */
#ifndef CORETRACE_CTF_READ_H
#define CORETRACE_CTF_READ_H

#include "ct_control.h"
#include "capture/ctf.h"

/* one chunk of a rotated recording */
struct ct_reader_chunk {
	char name[64];			/* chunk-N */
	unsigned char uuid[16];
};

typedef void (*ct_ctf_record_cb)(const union ct_record *rec, void *ctx);

struct ct_ctf_reader {
	char error[4608];		/* one sentence: file, offset, what */
	const char *dir;
	unsigned char uuid[16];
	unsigned long long records;
	unsigned long long discarded;	/* of the last packet read */
	/* records lost while recording: events_discarded, CPU by CPU */
	unsigned long long lost[CT_MAX_CPUS];
	unsigned long long lost_total;
	int damaged_streams;		/* stream files with a problem */
	bool cut;			/* coretrace record was killed */
	/* a part of an always-on recording: what its env says of it */
	bool is_part;
	struct ct_ctf_part part;
	char part_kind[16], part_reason[512];
	/*
	 * A rotated recording read as one capture: @dir holds no metadata
	 * but chunk-N directories, each a capture, read in order per stream.
	 */
	struct ct_reader_chunk *chunks;
	int nchunks;
	int damaged_chunks;		/* chunks whose metadata cannot be read */
	char chunk_error[4608];		/* the first of them */
	/* function names the capture carries (coretrace_ksym), or NULL */
	void (*on_ksym)(void *ctx, uint64_t addr, const char *name);
	void *ksym_ctx;
	/* the call stacks the capture gives (coretrace_k/ustack), or NULL */
	struct ct_stacks *stacks;
	/* user frames' files and names (coretrace_module, _usym), or NULL */
	struct ct_usyms *usyms;
};

/*
 * Check DIR/metadata: CTF 1.8, coretrace's, our ABI version, its uuid.
 * Set on_ksym and stacks after this, before running the reader.
 */
int ct_ctf_reader_open(struct ct_ctf_reader *r, const char *dir);
/* Free what ct_ctf_reader_open() holds (a rotated recording's chunks). */
void ct_ctf_reader_close(struct ct_ctf_reader *r);
/*
 * One line on stderr saying what part of an always-on recording the
 * capture is (snapshot or chunk, why, its span, what was overwritten),
 * or how many chunks a rotated recording has; nothing for a plain capture.
 */
void ct_ctf_reader_print_part(const struct ct_ctf_reader *r, const char *who);
/* The checks of ct_ctf_reader_open() on metadata @text (NUL-terminated). */
int ct_ctf_reader_metadata(struct ct_ctf_reader *r, const char *path,
			   const char *text, size_t len);
/*
 * Every record of every stream, stream by stream, through @cb. A stream
 * stops at its first problem, the others are still read; the first
 * problem is returned with r->error naming the file and offset.
 */
int ct_ctf_reader_run(struct ct_ctf_reader *r, ct_ctf_record_cb cb, void *ctx);
/*
 * The packets of one stream file's contents @data, checked against
 * r->uuid; stops at the first problem (r->error: @path and offset).
 */
int ct_ctf_reader_stream(struct ct_ctf_reader *r, const char *path,
			 const unsigned char *data, size_t len,
			 ct_ctf_record_cb cb, void *ctx);

/*
 * @err of ct_ctf_reader_open() or _run() as one line on stderr, "@who:
 * what is wrong", with what was recovered when some streams were read.
 */
void ct_ctf_reader_print_error(const struct ct_ctf_reader *r, const char *who);

/*
 * One line on stderr for each CPU that lost records while recording,
 * "@who: CPU N lost M records ...", and a total when several did.
 */
void ct_ctf_reader_print_losses(const struct ct_ctf_reader *r, const char *who);

/*
 * Whether a command reading capture @dir may write @out: not a file of the
 * capture, not inside it (CTF readers take every file there for a stream),
 * not a directory. 0, or -errno with one sentence in @why.
 */
int ct_output_check(const char *out, const char *dir, char *why, size_t len);
/*
 * @out opened for writing as coretrace writes every file it is told to:
 * a symbolic link is refused, not followed, and so is anything but a
 * regular file, and so is one with other hard links or another owner; a
 * file made is 0600, one that exists is truncated only once checked. NULL with errno set and the sentence in @why.
 */
FILE *ct_output_open(const char *out, char *why, size_t len);

#endif /* CORETRACE_CTF_READ_H */
