/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CTF 1.8 captures: a trace directory with a TSDL `metadata` file and one
 * stream file per CPU, written packet by packet. Each event is a 1-byte
 * id (the record type), the low 32 bits of the monotonic clock and the
 * record's fields, byte-aligned, named after LTTng's kernel events: the
 * record as BPF wrote it, from its type on (ct_abi.h).
 */
#ifndef CORETRACE_CTF_H
#define CORETRACE_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "capture/outdir.h"
#include "model/cgroup.h"
#include "model/comm_cache.h"
#include "model/events.h"

#define CT_CTF_MAGIC		0xC1FC1FC1u
#define CT_CTF_PACKET_MAX	(64u << 10)	/* bytes of one packet, at most */
#define CT_CTF_HEADER_BYTES	24		/* magic, uuid, stream_id */
#define CT_CTF_CONTEXT_BYTES	44		/* see the metadata */
#define CT_CTF_HEAD		(CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES)
#define CT_CTF_EVENT_MAX	(2 + 8 + 272)	/* header + largest payload */
/*
 * Event header: the id byte, then the low 32 bits of the timestamp; when
 * the clock moved 2^32 ns or more since the stream's previous event, the
 * id byte is CT_CTF_ID_EXTENDED and the id and the full 64-bit timestamp
 * follow (LTTng's compact/extended scheme, byte-aligned).
 */
#define CT_CTF_ID_EXTENDED	255
#define CT_CTF_FORMAT		5	/* env.coretrace_ctf: this layout */
/*
 * A CTF-only event after the record types: the name of a timer or work
 * function, written once per address before its first record, so a
 * capture names its functions on any machine.
 */
#define CT_CTF_ID_KSYM		CT_EV_MAX
#define CT_CTF_KSYM_NAME	96	/* bytes of a name, NUL included */
#define CT_CTF_ANNOUNCED	16384	/* addresses remembered as named */
/*
 * record -g: a call stack's frames, once per capture before the first
 * callchain record naming it: coretrace_kstack (return addresses, each
 * named by a coretrace_ksym) and coretrace_ustack (build IDs and file
 * offsets, or addresses)
 */
#define CT_CTF_ID_KSTACK	(CT_EV_MAX + 1)
#define CT_CTF_ID_USTACK	(CT_EV_MAX + 2)
#define CT_CTF_STACKS_TOLD	65536	/* stack ids remembered as given */
/*
 * and the files of user frames (coretrace_module: a build ID and the path
 * its process saw) and the names of user frames (coretrace_usym: build
 * ID, the file offset the frame is named by, ct_uframe_lookup(), and
 * the name), once each before the first stack needing them
 */
#define CT_CTF_ID_MODULE	(CT_EV_MAX + 3)
#define CT_CTF_ID_USYM		(CT_EV_MAX + 4)
#define CT_CTF_PATH_MAX		512	/* bytes of a module's path, NUL included */
#define CT_CTF_USYM_NAME	192	/* bytes of a frame's name, NUL included */
#define CT_CTF_UTOLD		65536	/* modules and names remembered as given */
/* a stack event: its header, id, process, count and frames */
#define CT_CTF_STACK_MAX	(10 + 12 + CT_USTACK_DEPTH * sizeof(struct ct_uframe))
/* left in the capture when coretrace record did not end it (killed) */
#define CT_CTF_CUT_FILE		".coretrace-cut"
/*
 * A snapshot or a chunk of an always-on recording starts with the names
 * known so far (tasks, interrupts, functions) in a stream file of its own,
 * so that it reads alone; its packets say cpu 0.
 */
#define CT_CTF_NAMES_FILE	"names"

struct ct_ctf_env {
	const char *kernel_release;
	const char *hostname;
	int64_t clock_offset_ns;	/* realtime - monotonic at start */
};

/* A part of an always-on recording, as its metadata's env says it */
struct ct_ctf_part {
	const char *kind;		/* "snapshot" or "chunk" */
	const char *reason;		/* what took the snapshot, or NULL */
	uint32_t index;			/* snapshot-N, chunk-N */
	uint64_t span_begin_ns, span_end_ns;	/* monotonic; 0: not known */
	uint64_t overwritten_packets;	/* by the flight recorder, so far */
	uint64_t overwritten_records;
};

struct ct_ctf_stream {
	int fd;				/* -1 when closed */
	unsigned char *packet;		/* CT_CTF_PACKET_MAX bytes: head, events */
	size_t used;			/* bytes of events in the packet */
	uint64_t packet_events;		/* events in the packet */
	uint64_t ts_begin, ts_end;
	uint64_t clock;			/* last timestamp written: never goes back */
	uint64_t first_added_ns;	/* monotonic time the first event waited */
	uint64_t events_discarded;
	uint64_t events, bytes;		/* of this stream */
};

struct ct_ctf {
	char *dir;
	int dir_fd;			/* DIR, open: files are made in it */
	struct ct_outdir_opts out;	/* their owner and mode */
	char why[CT_OUTDIR_WHY];			/* why DIR was refused, or "" */
	unsigned char uuid[16];
	int ncpus;
	struct ct_ctf_stream *streams;
	int error;			/* first write error (-errno), sticky */
	uint64_t events, bytes;		/* written so far, all streams */
	uint64_t type_events[CT_EV_MAX], type_bytes[CT_EV_MAX]; /* serialized */
	struct ct_ksyms *ksyms;		/* function names, or NULL */
	uint64_t *announced;		/* functions already named */
	uint64_t ksym_events;		/* coretrace_ksym events written */
	const struct ct_stacks *stacks;	/* call stacks by id, or NULL */
	uint32_t *stacks_told;		/* stack ids already given */
	uint64_t stack_events;		/* coretrace_k/ustack events written */
	struct ct_usyms *usyms;		/* user frames' names, or NULL */
	uint64_t *utold;		/* modules and frame names given */
	int pipe_fd;			/* packets to the writer, or -1 */
	/*
	 * Packets the writer reads where they were filled: slots of memory
	 * shared with it (see ctf.c); NULL when they could not be mapped.
	 */
	unsigned char *slots;
	size_t slots_bytes;
	struct ct_slot_ctl *slot_ctl;
	struct ct_slot_ref *slot_queue;	/* slots no stream fills now */
	uint32_t slot_queue_cap, slot_queue_head, slot_queue_len;
	uint32_t slots_sent;		/* packets told to the writer by slot */
	uint64_t slot_waits;		/* times a slot was not written yet */
	int status_fd;			/* the writer's errors and totals */
	int writer_pid;			/* 0 while we write ourselves */
	/*
	 * Where finished packets go instead of the writer (a flight
	 * recorder's memory, a rotation's size check): @sink(@sink_ctx,
	 * cpu, events, packet, len), the packet whole and contiguous.
	 */
	void (*sink)(void *ctx, unsigned int cpu, uint64_t events,
		     const unsigned char *packet, size_t len);
	void *sink_ctx;
	/* the writer finished a directory: its name, bytes and first error */
	void (*on_closed)(void *ctx, const char *name, uint64_t bytes, int err);
	void *closed_ctx;
	uint64_t closed_dirs;		/* directories the writer finished */
};

/*
 * Create DIR (which must not exist or be empty) with its metadata; files
 * as @out says (NULL: owner-only, as the effective user). On -errno,
 * ->why may say why DIR was refused.
 */
int ct_ctf_open(struct ct_ctf *ctf, const char *dir, int ncpus,
		const struct ct_ctf_env *env, const struct ct_outdir_opts *out);
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

/*
 * An always-on recording: DIR (created if missing, may hold earlier
 * parts) holds directories the writer makes one at a time, each a
 * capture; nothing is written until ct_ctf_begin_dir(). The writer is
 * started here.
 */
int ct_ctf_open_parts(struct ct_ctf *ctf, const char *dir, int ncpus,
		      const struct ct_outdir_opts *out);
/*
 * The writer's next directory, DIR/@name with its metadata from @env;
 * @hidden: made as DIR/.@name.partial and renamed to DIR/@name once
 * whole (a snapshot), else written in place (a chunk, readable while it
 * grows). Returns the bytes of metadata, or -errno.
 */
long ct_ctf_begin_dir(struct ct_ctf *ctf, const char *name, bool hidden,
		      const struct ct_ctf_env *env,
		      const struct ct_ctf_part *part);
/* The end of the directory begun last; the writer says when it is done. */
int ct_ctf_end_dir(struct ct_ctf *ctf);
/* Remove DIR/@name, a part written earlier, and the files in it. */
int ct_ctf_remove_dir(struct ct_ctf *ctf, const char *name);
/*
 * A finished packet to the writer's directory as it is, but for its
 * events_discarded, counted from @discard_base. 0 or -errno.
 */
int ct_ctf_emit(struct ct_ctf *ctf, unsigned int cpu, const unsigned char *packet,
		size_t len, uint64_t discard_base);
/*
 * The names stream of the directory begun last: a coretrace_comm event
 * per task of @comms, a coretrace_irq_name per interrupt of @irqs and a
 * coretrace_ksym per function named so far and a coretrace_kstack or
 * coretrace_ustack per call stack given so far, stamped @ts. Bytes written,
 * or -errno.
 */
long ct_ctf_write_names(struct ct_ctf *ctf, const struct ct_comm_cache *comms,
			const struct ct_irq_names *irqs,
			const struct ct_cgroup_names *cgroups, uint64_t ts);
/* Finish every CPU's packet now (to the sink, or the writer). */
int ct_ctf_flush_all(struct ct_ctf *ctf);
/* The writer's news (errors, finished directories), without waiting. */
void ct_ctf_poll(struct ct_ctf *ctf);
/* A packet's header fields (ct_ctf_emit's packets are whole). */
uint64_t ct_ctf_packet_u64(const unsigned char *packet, size_t offset);
#define CT_CTF_TS_BEGIN		24
#define CT_CTF_TS_END		32
#define CT_CTF_DISCARDED	56


/* Write the TSDL metadata to @f. */
int ct_ctf_write_metadata(FILE *f, const unsigned char uuid[16],
			  const struct ct_ctf_env *env);
/* The same for a part of an always-on recording (@part may be NULL). */
int ct_ctf_write_part_metadata(FILE *f, const unsigned char uuid[16],
			       const struct ct_ctf_env *env,
			       const struct ct_ctf_part *part);

#endif /* CORETRACE_CTF_H */
