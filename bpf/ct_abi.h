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
 * Every record starts with the same 12-byte header and is followed by its
 * fields at offset CT_HDR_SIZE. From the header's type byte on, a record
 * is laid out as the event a capture holds, so the capture path copies it.
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

#define CT_ABI_VERSION		5
#define CT_COMM_LEN		16
#define CT_FILENAME_LEN		108
#define CT_IRQ_NAME_LEN		32
#define CT_CGROUP_PATH_LEN	256

/*
 * The event table: one row per record type.
 *
 *   X(ENUM, name, CTF name, tracepoint category, tracepoint, record, flags)
 *
 * "name" is the event's name in every output and, prefixed by "handle_",
 * the name of its BPF program; the CTF name is LTTng's where LTTng has the
 * event. Rows with an empty tracepoint are records BPF (or user space, for
 * what exists when tracing starts) emits on its own. Each record struct is
 * described once, by its field list below, and the struct, the capture's
 * metadata, the decoder's sizes, the JSON printer, string termination and
 * the function-name sets are all made from that list. Adding a tracepoint
 * means a row here, a field list (or reusing one), one BPF handler and a
 * text printer in user/events.c.
 */
#define CT_EVF_NAMES		0x1	/* names something: name tables learn it */
#define CT_EVF_SILENT		0x2	/* no line of its own in text or JSON */

#define CT_EVENT_TABLE(X)						\
	X(CT_EV_COMM, comm, "coretrace_comm", "", "", ct_comm,		\
	  CT_EVF_NAMES | CT_EVF_SILENT)					\
	X(CT_EV_IRQ_NAME, irq_name, "coretrace_irq_name", "", "",	\
	  ct_irq_name, CT_EVF_NAMES | CT_EVF_SILENT)			\
	X(CT_EV_SCHED_SWITCH, sched_switch, "sched_switch", "sched",	\
	  "sched_switch", ct_sched_switch, 0)				\
	X(CT_EV_SCHED_WAKEUP, sched_wakeup, "sched_wakeup", "sched",	\
	  "sched_wakeup", ct_wakeup, 0)					\
	X(CT_EV_SCHED_WAKEUP_NEW, sched_wakeup_new, "sched_wakeup_new",	\
	  "sched", "sched_wakeup_new", ct_wakeup, 0)			\
	X(CT_EV_SCHED_WAKING, sched_waking, "sched_waking", "sched",	\
	  "sched_waking", ct_wakeup, 0)					\
	X(CT_EV_SCHED_MIGRATE_TASK, sched_migrate_task,			\
	  "sched_migrate_task", "sched", "sched_migrate_task", ct_migrate, 0) \
	X(CT_EV_SCHED_PROCESS_FORK, sched_process_fork,			\
	  "sched_process_fork", "sched", "sched_process_fork", ct_fork,	\
	  CT_EVF_NAMES)							\
	X(CT_EV_SCHED_PROCESS_EXEC, sched_process_exec,			\
	  "sched_process_exec", "sched", "sched_process_exec", ct_exec, 0) \
	X(CT_EV_SCHED_PROCESS_EXIT, sched_process_exit,			\
	  "sched_process_exit", "sched", "sched_process_exit", ct_exit, 0) \
	X(CT_EV_TASK_RENAME, task_rename, "task_rename", "task",	\
	  "task_rename", ct_task_rename, CT_EVF_NAMES)			\
	X(CT_EV_CPU_IDLE, cpu_idle, "power_cpu_idle", "power", "cpu_idle", \
	  ct_cpu_idle, 0)						\
	X(CT_EV_CPU_FREQUENCY, cpu_frequency, "power_cpu_frequency",	\
	  "power", "cpu_frequency", ct_cpu_frequency, 0)		\
	X(CT_EV_IRQ_HANDLER_ENTRY, irq_handler_entry, "irq_handler_entry", \
	  "irq", "irq_handler_entry", ct_irq_entry, 0)			\
	X(CT_EV_IRQ_HANDLER_EXIT, irq_handler_exit, "irq_handler_exit",	\
	  "irq", "irq_handler_exit", ct_irq_exit, 0)			\
	X(CT_EV_SOFTIRQ_ENTRY, softirq_entry, "irq_softirq_entry", "irq", \
	  "softirq_entry", ct_softirq, 0)				\
	X(CT_EV_SOFTIRQ_EXIT, softirq_exit, "irq_softirq_exit", "irq",	\
	  "softirq_exit", ct_softirq, 0)				\
	X(CT_EV_TIMER_EXPIRE_ENTRY, timer_expire_entry,			\
	  "timer_expire_entry", "timer", "timer_expire_entry",		\
	  ct_timer_entry, 0)						\
	X(CT_EV_TIMER_EXPIRE_EXIT, timer_expire_exit, "timer_expire_exit", \
	  "timer", "timer_expire_exit", ct_timer_exit, 0)		\
	X(CT_EV_HRTIMER_EXPIRE_ENTRY, hrtimer_expire_entry,		\
	  "timer_hrtimer_expire_entry", "timer", "hrtimer_expire_entry", \
	  ct_hrtimer_entry, 0)						\
	X(CT_EV_HRTIMER_EXPIRE_EXIT, hrtimer_expire_exit,		\
	  "timer_hrtimer_expire_exit", "timer", "hrtimer_expire_exit",	\
	  ct_hrtimer_exit, 0)						\
	X(CT_EV_WORKQUEUE_EXECUTE_START, workqueue_execute_start,	\
	  "workqueue_execute_start", "workqueue", "workqueue_execute_start", \
	  ct_work_start, 0)						\
	X(CT_EV_WORKQUEUE_EXECUTE_END, workqueue_execute_end,		\
	  "workqueue_execute_end", "workqueue", "workqueue_execute_end",	\
	  ct_work_end, 0)						\
	X(CT_EV_TASK_CGROUP, task_cgroup, "coretrace_task_cgroup", "", "", \
	  ct_task_cgroup, CT_EVF_NAMES | CT_EVF_SILENT)			\
	X(CT_EV_CGROUP_NAME, cgroup_name, "coretrace_cgroup_name", "", "", \
	  ct_cgroup_name, CT_EVF_NAMES | CT_EVF_SILENT)			\
	X(CT_EV_CALLCHAIN, callchain, "coretrace_callchain", "", "",	\
	  ct_callchain, 0)

enum ct_event_type {
#define CT_X_ENUM(id, name, ctf, cat, tp, rec, flags) id,
	CT_EVENT_TABLE(CT_X_ENUM)
#undef CT_X_ENUM
	CT_EV_MAX
};

/*
 * Every record starts with this 12-byte header. Its last five bytes, the
 * type and the low half of the timestamp, are a capture's compact event
 * header (an id byte and a 32-bit timestamp), and the fields after it are
 * laid out as the capture's metadata declares them, without padding: a
 * capture event is the bytes of a ring record from CT_EVENT_START on,
 * copied. What comes before is for the ring's reader only:
 *   ts_high: the high 32 bits of the CLOCK_MONOTONIC ns of the event
 *   cpu:     the CPU the tracepoint fired on (the capture's stream)
 *   flags:   CT_F_* bits
 *   type:    enum ct_event_type, the capture's event id
 *   ts_low:  the low 32 bits of the timestamp
 */
#define CT_RECORD_HEADER	\
	__u32 ts_high;		\
	__u16 cpu;		\
	__u8 flags;		\
	__u8 type;		\
	__u32 ts_low

#define CT_HDR_SIZE		12
#define CT_EVENT_START		7	/* the type byte: a capture event's start */

struct ct_hdr {
	CT_RECORD_HEADER;
};

/* 64-bit fields start 4 bytes into an 8-byte word: records have no holes */
typedef __u64 __attribute__((aligned(4))) ct_u64;

/*
 * sched_switch's prev_pid differed from the pid bpf_get_current_pid_tgid()
 * returned in the same handler: the field was misread. Never expected on a
 * kernel whose BTF describes it; tests assert it stays clear.
 */
#define CT_F_PID_MISMATCH	0x01

/*
 * The field lists, one per record struct, in the record's order:
 *
 *   F(R, kind, C type, member, array, CTF name, JSON name, companion)
 *
 * The kind (enum ct_field_kind: CT_FK_ and the kind) says what the field
 * holds and how outputs show it:
 *   UINT, SINT  a number
 *   STRING      a string in a fixed array, NUL-terminated unless it fills
 *               it; always the last field: a capture holds it to its NUL
 *   TASK        a pid; JSON shows its name too, under the companion key
 *   STATE       sched_switch's prev_state, in letters as ftrace prints it
 *   IDLE        cpu_idle's state; CT_IDLE_EXIT (-1) when leaving idle
 *   IRQ         an irq number; JSON shows its handler's name (companion)
 *   IRQ_RET     irq_handler_exit's ret: "handled" or "unhandled"
 *   SOFTIRQ     a softirq vector; JSON shows its name (companion)
 *   KFUNC       a kernel function's address: JSON shows its symbol and
 *               the address under the companion key; a capture names it
 *               once, in a coretrace_ksym event before its first use
 *   ADDR        a kernel object's address (a timer, a work item)
 *   STACK       a call stack's id (record -g), 0 for none: JSON shows its
 *               frames under the companion key; a capture gives its
 *               frames once, in a coretrace_kstack or coretrace_ustack
 *               event before its first use
 *   EVENT       an event type (enum ct_event_type), shown by its name
 * A JSON name of 0 leaves the field out of JSON. R is the record struct's
 * name, for the expansions that need it (offsetof).
 */
enum ct_field_kind {
	CT_FK_UINT,
	CT_FK_SINT,
	CT_FK_STRING,
	CT_FK_TASK,
	CT_FK_STATE,
	CT_FK_IDLE,
	CT_FK_IRQ,
	CT_FK_IRQ_RET,
	CT_FK_SOFTIRQ,
	CT_FK_KFUNC,
	CT_FK_ADDR,
	CT_FK_STACK,
	CT_FK_EVENT,
};

#define CT_X_MEMBER(rec, kind, type, member, array, ctf, json, comp)	\
	type member array;

#define CT_RECORD(rec)					\
	struct rec {					\
		CT_RECORD_HEADER;			\
		CT_FIELDS_##rec(CT_X_MEMBER, rec)	\
	}

/*
 * The first time BPF meets a pid, it announces its name (32 bytes in the
 * ring). A switch carries the name of the task it switches in.
 */
#define CT_FIELDS_ct_comm(F, R)						\
	F(R, UINT, __u32, pid, , "_tid", "pid", 0)				\
	F(R, STRING, char, comm, [CT_COMM_LEN], "_comm", "comm", 0)
CT_RECORD(ct_comm);

/* The first time BPF meets an irq, it announces its handler's name. */
#define CT_FIELDS_ct_irq_name(F, R)					\
	F(R, UINT, __u32, irq, , "_irq", "irq", 0)				\
	F(R, STRING, char, name, [CT_IRQ_NAME_LEN], "_name", "name", 0)
CT_RECORD(ct_irq_name);

/*
 * sched:sched_switch (40 bytes, 48 in the ring). prev_state is the
 * tracepoint's value: bits 0..7 are the reported task state (S D T t X Z
 * P I), 0 is R, and bit 8 means the task was preempted (printed as a '+').
 * next_comm is copied from the tracepoint's record: Trace Compass names
 * threads from it, and a capture takes it as it is.
 */
#define CT_FIELDS_ct_sched_switch(F, R)					\
	F(R, TASK, __u32, prev_pid, , "_prev_tid", "prev_pid", "prev_comm") \
	F(R, UINT, __u32, next_pid, , "_next_tid", "next_pid", 0)		\
	F(R, STATE, __u16, prev_state, , "_prev_state", "prev_state", 0)	\
	F(R, UINT, __u8, prev_prio, , "_prev_prio", "prev_prio", 0)	\
	F(R, UINT, __u8, next_prio, , "_next_prio", "next_prio", 0)	\
	F(R, STRING, char, next_comm, [CT_COMM_LEN], "_next_comm", "next_comm", 0)
CT_RECORD(ct_sched_switch);

#define CT_STATE_PREEMPTED	0x100
#define CT_STATE_EXITED		0x30	/* Z or X: its last switch */

/* sched:sched_wakeup, sched_wakeup_new, sched_waking (19 bytes) */
#define CT_FIELDS_ct_wakeup(F, R)						\
	F(R, TASK, __u32, pid, , "_tid", "pid", "comm")			\
	F(R, UINT, __u16, target_cpu, , "_target_cpu", "target_cpu", 0)	\
	F(R, UINT, __u8, prio, , "_prio", "prio", 0)
CT_RECORD(ct_wakeup);

/* sched:sched_migrate_task (21 bytes) */
#define CT_FIELDS_ct_migrate(F, R)						\
	F(R, TASK, __u32, pid, , "_tid", "pid", "comm")			\
	F(R, UINT, __u16, orig_cpu, , "_orig_cpu", "orig_cpu", 0)		\
	F(R, UINT, __u16, dest_cpu, , "_dest_cpu", "dest_cpu", 0)		\
	F(R, UINT, __u8, prio, , "_prio", "prio", 0)
CT_RECORD(ct_migrate);

/* sched:sched_process_fork (36 bytes); the child starts with this name */
#define CT_FIELDS_ct_fork(F, R)						\
	F(R, TASK, __u32, parent_pid, , "_parent_tid", "parent_pid", "parent_comm") \
	F(R, UINT, __u32, child_pid, , "_child_tid", "child_pid", 0)	\
	F(R, STRING, char, child_comm, [CT_COMM_LEN], "_child_comm", "child_comm", 0)
CT_RECORD(ct_fork);

/* sched:sched_process_exec (128 bytes); long paths keep their head */
#define CT_FIELDS_ct_exec(F, R)						\
	F(R, UINT, __u32, pid, , "_tid", "pid", 0)				\
	F(R, UINT, __u32, old_pid, , "_old_tid", "old_pid", 0)		\
	F(R, STRING, char, filename, [CT_FILENAME_LEN], "_filename", "filename", 0)
CT_RECORD(ct_exec);

/* sched:sched_process_exit (17 bytes) */
#define CT_FIELDS_ct_exit(F, R)						\
	F(R, TASK, __u32, pid, , "_tid", "pid", "comm")			\
	F(R, UINT, __u8, prio, , "_prio", "prio", 0)
CT_RECORD(ct_exit);

/* task:task_rename (also fired by exec): pid now runs under newcomm. */
#define CT_FIELDS_ct_task_rename(F, R)					\
	F(R, TASK, __u32, pid, , "_tid", "pid", "oldcomm")		\
	F(R, STRING, char, newcomm, [CT_COMM_LEN], "_newcomm", "newcomm", 0)
CT_RECORD(ct_task_rename);

/*
 * power:cpu_idle: the C-state index entered, CT_IDLE_EXIT when leaving
 * idle; power:cpu_frequency: the new frequency in kHz of cpu_id (20 bytes)
 */
#define CT_FIELDS_ct_cpu_idle(F, R)					\
	F(R, IDLE, __u32, state, , "_state", "state", 0)			\
	F(R, UINT, __u32, cpu_id, , "_cpu_id", "cpu_id", 0)
CT_RECORD(ct_cpu_idle);

#define CT_IDLE_EXIT		0xffffffffu

#define CT_FIELDS_ct_cpu_frequency(F, R)					\
	F(R, UINT, __u32, state, , "_state", "state", 0)			\
	F(R, UINT, __u32, cpu_id, , "_cpu_id", "cpu_id", 0)
CT_RECORD(ct_cpu_frequency);

/* irq:irq_handler_entry (16 bytes) and irq_handler_exit (20 bytes) */
#define CT_FIELDS_ct_irq_entry(F, R)					\
	F(R, IRQ, __u32, irq, , "_irq", "irq", "name")
CT_RECORD(ct_irq_entry);

#define CT_FIELDS_ct_irq_exit(F, R)					\
	F(R, UINT, __u32, irq, , "_irq", "irq", 0)				\
	F(R, IRQ_RET, __s32, ret, , "_ret", "ret", 0)
CT_RECORD(ct_irq_exit);

/* irq:softirq_entry and softirq_exit (16 bytes) */
#define CT_FIELDS_ct_softirq(F, R)						\
	F(R, SOFTIRQ, __u32, vec, , "_vec", "vec", "action")
CT_RECORD(ct_softirq);

/*
 * timer:timer_expire_entry, hrtimer_expire_entry and
 * workqueue:workqueue_execute_start (28 bytes): the kernel function that
 * runs, resolved to a symbol in user space, and the timer or work item it
 * runs for; the exits (20 bytes) name the timer or work item that ended.
 */
#define CT_FIELDS_ct_timer_entry(F, R)					\
	F(R, KFUNC, ct_u64, function, , "_function", "function", "address") \
	F(R, ADDR, ct_u64, timer, , "_timer", "timer", 0)
CT_RECORD(ct_timer_entry);

#define CT_FIELDS_ct_timer_exit(F, R)					\
	F(R, ADDR, ct_u64, timer, , "_timer", "timer", 0)
CT_RECORD(ct_timer_exit);

#define CT_FIELDS_ct_hrtimer_entry(F, R)					\
	F(R, KFUNC, ct_u64, function, , "_function", "function", "address") \
	F(R, ADDR, ct_u64, hrtimer, , "_hrtimer", "hrtimer", 0)
CT_RECORD(ct_hrtimer_entry);

#define CT_FIELDS_ct_hrtimer_exit(F, R)					\
	F(R, ADDR, ct_u64, hrtimer, , "_hrtimer", "hrtimer", 0)
CT_RECORD(ct_hrtimer_exit);

#define CT_FIELDS_ct_work_start(F, R)					\
	F(R, KFUNC, ct_u64, function, , "_function", "function", "address") \
	F(R, ADDR, ct_u64, work, , "_work", "work", 0)
CT_RECORD(ct_work_start);

#define CT_FIELDS_ct_work_end(F, R)					\
	F(R, ADDR, ct_u64, work, , "_work", "work", 0)
CT_RECORD(ct_work_end);

/*
 * cgroup v2: the group a task runs in, by the group's id (the kernel's,
 * also the inode number of its directory). Announced the first time a
 * task is seen switched out (BPF reads the current task's group only),
 * and again when it moves (cgroup:cgroup_attach_task); user space
 * announces the tasks alive when tracing starts. 24 bytes.
 */
#define CT_FIELDS_ct_task_cgroup(F, R)					\
	F(R, UINT, __u32, pid, , "_tid", "pid", 0)				\
	F(R, UINT, ct_u64, cgroup_id, , "_cgroup_id", "cgroup_id", 0)
CT_RECORD(ct_task_cgroup);

/*
 * A cgroup v2 group's path from the hierarchy's root ("" for the root,
 * "/a/b" below it) and depth: announced by user space for the groups that
 * exist when tracing starts, by BPF for those made (cgroup:cgroup_mkdir)
 * or renamed later. Long paths keep their head. 280 bytes.
 */
#define CT_FIELDS_ct_cgroup_name(F, R)					\
	F(R, UINT, ct_u64, cgroup_id, , "_cgroup_id", "cgroup_id", 0)	\
	F(R, UINT, __u32, level, , "_level", "level", 0)			\
	F(R, STRING, char, path, [CT_CGROUP_PATH_LEN], "_path", "path", 0)
CT_RECORD(ct_cgroup_name);

/*
 * record -g: a call stack taken where the record before it on its CPU
 * happened. After a sched_switch (event), the stack of the task it
 * switched out (pid), where it blocked or was preempted, and target is
 * the task switched in; after a sched_waking, the stack of the task that
 * woke target (pid, the current task: the one an interrupt interrupted
 * when the wakeup came from an interrupt), from where. Stacks are ids,
 * 0 for none (not asked for, a kernel thread's user stack, or lost, as
 * the counters say): BPF gives each stack's frames once, in a message
 * ahead of the first record that uses it (ct_control.h), and a capture
 * names each in an event of its own ahead of its first use. 29 bytes.
 */
#define CT_FIELDS_ct_callchain(F, R)					\
	F(R, TASK, __u32, pid, , "_tid", "pid", "comm")			\
	F(R, TASK, __u32, target, , "_target_tid", "target", "target_comm") \
	F(R, STACK, __u32, kstack, , "_kstack", "kstack", "kernel_stack")	\
	F(R, STACK, __u32, ustack, , "_ustack", "ustack", "user_stack")	\
	F(R, EVENT, __u8, event, , "_event", "at", 0)
CT_RECORD(ct_callchain);

#endif /* CORETRACE_CT_ABI_H */
