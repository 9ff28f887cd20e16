/* SPDX-License-Identifier: GPL-2.0 */
/* Reading coretrace's CTF captures back into records. */
#ifndef CORETRACE_CTF_READ_H
#define CORETRACE_CTF_READ_H

#include "ctf.h"

typedef void (*ct_ctf_record_cb)(const union ct_record *rec, void *ctx);

struct ct_ctf_reader {
	char error[4608];		/* one sentence: file, offset, what */
	const char *dir;
	unsigned char uuid[16];
	unsigned long long records;
	unsigned long long discarded;	/* of the last packet read */
};

/* Check DIR/metadata: CTF 1.8, coretrace's, our ABI version, its uuid. */
int ct_ctf_reader_open(struct ct_ctf_reader *r, const char *dir);
/*
 * Every record of every stream, stream by stream, through @cb. Stops at
 * the first problem with r->error naming the file and offset.
 */
int ct_ctf_reader_run(struct ct_ctf_reader *r, ct_ctf_record_cb cb, void *ctx);

#endif /* CORETRACE_CTF_READ_H */
