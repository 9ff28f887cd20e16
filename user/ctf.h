/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CTF 1.8 captures: a trace directory with a TSDL `metadata` file and one
 * stream file per CPU, written packet by packet. Each event is a 1-byte
 * id (the record type), a 64-bit timestamp of the monotonic clock and the
 * record's fields, byte-aligned, named after LTTng's kernel events.
 */
#ifndef CORETRACE_CTF_H
#define CORETRACE_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "comm_cache.h"
#include "events.h"

#define CT_CTF_MAGIC		0xC1FC1FC1u
#define CT_CTF_PACKET_MAX	(64u << 10)	/* bytes of one packet, at most */
#define CT_CTF_HEADER_BYTES	24		/* magic, uuid, stream_id */
#define CT_CTF_CONTEXT_BYTES	44		/* see the metadata */
#define CT_CTF_EVENT_MAX	(2 + 8 + 256)	/* header + largest payload */
/*
 * Event header: the id byte, then the low 32 bits of the timestamp; when
 * the clock moved 2^32 ns or more since the stream's previous event, the
 * id byte is CT_CTF_ID_EXTENDED and the id and the full 64-bit timestamp
 * follow (LTTng's compact/extended scheme, byte-aligned).
 */
#define CT_CTF_ID_EXTENDED	255
#define CT_CTF_FORMAT		2	/* env.coretrace_ctf: this layout */
/*
 * A CTF-only event after the record types: the name of a timer or work
 * function, written once per address before its first record, so a
 * capture names its functions on any machine.
 */
#define CT_CTF_ID_KSYM		CT_EV_MAX
#define CT_CTF_KSYM_NAME	96	/* bytes of a name, NUL included */
#define CT_CTF_ANNOUNCED	4096	/* addresses remembered as named */
/* left in the capture when coretrace record did not end it (killed) */
#define CT_CTF_CUT_FILE		".coretrace-cut"

/* a record field as CTF sees it */
enum ct_ctf_kind {
	CT_CTF_UINT,
	CT_CTF_SINT,
	CT_CTF_STRING,
	CT_CTF_COMM,	/* a string: the name of the pid at offset, on disk only */
};

struct ct_ctf_field {
	const char *name;	/* "_prev_tid" */
	uint8_t offset;		/* in the coretrace record */
	uint8_t size;		/* bytes; for strings, the array's length */
	enum ct_ctf_kind kind;
};

struct ct_ctf_event {
	const char *name;			/* LTTng's name where one exists */
	const struct ct_ctf_field *fields;	/* ends with a NULL name */
};

/* CTF name and fields of each record type */
extern const struct ct_ctf_event ct_ctf_events[CT_EV_MAX];

struct ct_ctf_env {
	const char *kernel_release;
	const char *hostname;
	int64_t clock_offset_ns;	/* realtime - monotonic at start */
};

struct ct_ctf_stream {
	int fd;				/* -1 when closed */
	unsigned char *packet;		/* CT_CTF_PACKET_MAX bytes */
	size_t used;			/* bytes of events in the packet */
	uint64_t ts_begin, ts_end;
	uint64_t clock;			/* last timestamp written: never goes back */
	uint64_t first_added_ns;	/* monotonic time the first event waited */
	uint64_t events_discarded;
	uint64_t events, bytes;		/* of this stream */
};

struct ct_ctf {
	char *dir;
	unsigned char uuid[16];
	int ncpus;
	struct ct_ctf_stream *streams;
	int error;			/* first write error (-errno), sticky */
	uint64_t events, bytes;		/* written so far, all streams */
	uint64_t type_events[CT_EV_MAX], type_bytes[CT_EV_MAX]; /* serialized */
	const struct ct_comm_cache *comms;	/* names for CT_CTF_COMM fields */
	struct ct_ksyms *ksyms;		/* function names, or NULL */
	uint64_t *announced;		/* functions already named */
	uint64_t ksym_events;		/* coretrace_ksym events written */
	int pipe_fd;			/* packets to the writer, or -1 */
	int status_fd;			/* the writer's errors and totals */
	int writer_pid;			/* 0 while we write ourselves */
};

/* Create DIR (which must not exist or be empty) with its metadata. */
int ct_ctf_open(struct ct_ctf *ctf, const char *dir, int ncpus,
		const struct ct_ctf_env *env);
/*
 * Hand the stream files to a writer process (see ctf.c); from then on
 * packets reach the disk whole even if this process is killed.
 */
int ct_ctf_start_writer(struct ct_ctf *ctf);
/* Append one decoded record to its CPU's packet; flushes full packets. */
int ct_ctf_add(struct ct_ctf *ctf, const union ct_record *rec,
	       uint64_t now_ns);
/* Records lost so far on @cpu (cumulative), for the next packet. */
void ct_ctf_set_discarded(struct ct_ctf *ctf, int cpu, uint64_t lost);
/* Write every packet whose oldest event waited @max_wait_ns or more. */
int ct_ctf_flush_old(struct ct_ctf *ctf, uint64_t now_ns, uint64_t max_wait_ns);
/* Write every packet and close the files; returns the first error. */
int ct_ctf_close(struct ct_ctf *ctf);


/* Write the TSDL metadata to @f. */
int ct_ctf_write_metadata(FILE *f, const unsigned char uuid[16],
			  const struct ct_ctf_env *env);

#endif /* CORETRACE_CTF_H */
