/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coretrace record ABI: the records the BPF programs write into the ring
 * buffer, shared by bpf/ and user/.
 *
 * These are coretrace's own layouts, not the kernel's: the BPF side reads
 * the kernel's tracepoint records through CO-RE relocated offsets and
 * writes these compact records, so user space never depends on how the
 * running kernel lays out its trace events.
 *
 * Every record starts with the same 12-byte header (ts, type, flags, cpu)
 * and is followed by its body at offset CT_HDR_SIZE. Sizes are multiples
 * of 4 and kept small: a sched_switch is 24 bytes, 32 with the ring
 * buffer's own 8-byte header.
 *
 * Bump CT_ABI_VERSION on any change to a record's layout or meaning.
 * Captures record the version they were written with.
 */
#ifndef CORETRACE_CT_ABI_H
#define CORETRACE_CT_ABI_H

#ifdef __bpf__
/* BPF programs get the __u* types from vmlinux.h */
#else
#include <linux/types.h>
#endif

#define CT_ABI_VERSION		1
#define CT_COMM_LEN		16

/*
 * The event table: one row per record type.
 *
 *   X(ENUM, name, tracepoint category, tracepoint name, record struct)
 *
 * "name" is the event's name in every output and, prefixed by "handle_",
 * the name of its BPF program. Rows with an empty tracepoint are records
 * that BPF emits on its own (not attached anywhere). Adding a tracepoint
 * means adding one row here, its record struct below, one BPF handler and
 * one decoder/printer pair in user/events.c.
 */
#define CT_EVENT_TABLE(X)						\
	X(CT_EV_COMM,		comm,		"",	 "",		ct_comm) \
	X(CT_EV_SCHED_SWITCH,	sched_switch,	"sched", "sched_switch", ct_sched_switch) \
	X(CT_EV_TASK_RENAME,	task_rename,	"task",	 "task_rename",	ct_task_rename)

enum ct_event_type {
#define CT_X_ENUM(id, name, cat, tp, rec) id,
	CT_EVENT_TABLE(CT_X_ENUM)
#undef CT_X_ENUM
	CT_EV_MAX
};

/*
 * The common header, spelled out in every record so that the body starts
 * at offset 12 without padding.
 *   ts:    CLOCK_MONOTONIC nanoseconds (bpf_ktime_get_ns())
 *   type:  enum ct_event_type
 *   flags: CT_F_* bits
 *   cpu:   CPU the tracepoint fired on
 */
#define CT_RECORD_HEADER	\
	__u64 ts;		\
	__u8 type;		\
	__u8 flags;		\
	__u16 cpu

#define CT_HDR_SIZE		12

struct ct_hdr {
	CT_RECORD_HEADER;
};

/*
 * sched_switch's prev_pid differed from the pid bpf_get_current_pid_tgid()
 * returned in the same handler: the field was misread. Never expected on a
 * kernel whose BTF describes it; tests assert it stays clear.
 */
#define CT_F_PID_MISMATCH	0x01

/* The first time BPF meets a pid, it announces its name. */
struct ct_comm {
	CT_RECORD_HEADER;
	__u32 pid;
	char comm[CT_COMM_LEN];
};

/*
 * sched:sched_switch. prev_state is the tracepoint's value: bits 0..7 are
 * the reported task state (S D T t X Z P I), 0 is R, and bit 8 means the
 * task was preempted (printed as a '+' after the state).
 */
struct ct_sched_switch {
	CT_RECORD_HEADER;
	__u32 prev_pid;
	__u32 next_pid;
	__u16 prev_state;
	__u8 prev_prio;
	__u8 next_prio;
};

#define CT_STATE_PREEMPTED	0x100

/* task:task_rename (also fired by exec): pid now runs under newcomm. */
struct ct_task_rename {
	CT_RECORD_HEADER;
	__u32 pid;
	char newcomm[CT_COMM_LEN];
};

/*
 * Per-CPU counters, one slot per event type: records the handler tried to
 * write and records lost because the ring had no room.
 */
struct ct_counts {
	__u64 attempted;
	__u64 lost;
};

#endif /* CORETRACE_CT_ABI_H */
