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

#define CT_ABI_VERSION		3
#define CT_COMM_LEN		16
#define CT_FILENAME_LEN		108
#define CT_IRQ_NAME_LEN		32

/*
 * The event table: one row per record type.
 *
 *   X(ENUM, name, tracepoint category, tracepoint name, record struct)
 *
 * "name" is the event's name in every output and, prefixed by "handle_",
 * the name of its BPF program. Rows with an empty tracepoint are records
 * that BPF emits on its own (name announcements, not attached anywhere).
 * Adding a tracepoint means adding one row here, its record struct below
 * (or reusing one), one BPF handler and one printer pair in user/events.c.
 */
#define CT_EVENT_TABLE(X)						\
	X(CT_EV_COMM,		comm,		"",	"",		ct_comm) \
	X(CT_EV_IRQ_NAME,	irq_name,	"",	"",		ct_irq_name) \
	X(CT_EV_SCHED_SWITCH,	sched_switch,	"sched", "sched_switch",	ct_sched_switch) \
	X(CT_EV_SCHED_WAKEUP,	sched_wakeup,	"sched", "sched_wakeup",	ct_wakeup) \
	X(CT_EV_SCHED_WAKEUP_NEW, sched_wakeup_new, "sched", "sched_wakeup_new", ct_wakeup) \
	X(CT_EV_SCHED_WAKING,	sched_waking,	"sched", "sched_waking",	ct_wakeup) \
	X(CT_EV_SCHED_MIGRATE_TASK, sched_migrate_task, "sched", "sched_migrate_task", ct_migrate) \
	X(CT_EV_SCHED_PROCESS_FORK, sched_process_fork, "sched", "sched_process_fork", ct_fork) \
	X(CT_EV_SCHED_PROCESS_EXEC, sched_process_exec, "sched", "sched_process_exec", ct_exec) \
	X(CT_EV_SCHED_PROCESS_EXIT, sched_process_exit, "sched", "sched_process_exit", ct_exit) \
	X(CT_EV_TASK_RENAME,	task_rename,	"task",	"task_rename",	ct_task_rename) \
	X(CT_EV_CPU_IDLE,	cpu_idle,	"power", "cpu_idle",	ct_cpu_state) \
	X(CT_EV_CPU_FREQUENCY,	cpu_frequency,	"power", "cpu_frequency", ct_cpu_state) \
	X(CT_EV_IRQ_HANDLER_ENTRY, irq_handler_entry, "irq", "irq_handler_entry", ct_irq) \
	X(CT_EV_IRQ_HANDLER_EXIT, irq_handler_exit, "irq", "irq_handler_exit", ct_irq) \
	X(CT_EV_SOFTIRQ_ENTRY,	softirq_entry,	"irq",	"softirq_entry", ct_softirq) \
	X(CT_EV_SOFTIRQ_EXIT,	softirq_exit,	"irq",	"softirq_exit",	ct_softirq) \
	X(CT_EV_TIMER_EXPIRE_ENTRY, timer_expire_entry, "timer", "timer_expire_entry", ct_function) \
	X(CT_EV_HRTIMER_EXPIRE_ENTRY, hrtimer_expire_entry, "timer", "hrtimer_expire_entry", ct_function) \
	X(CT_EV_WORKQUEUE_EXECUTE_START, workqueue_execute_start, "workqueue", "workqueue_execute_start", ct_function) \
	X(CT_EV_TASK_CGROUP,	task_cgroup,	"",	"",		ct_task_cgroup) \
	X(CT_EV_CGROUP_NAME,	cgroup_name,	"",	"",		ct_cgroup_name)

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
 * Records are 8-byte aligned in the ring, so sizes below are what one
 * record costs there once the ring's own 8-byte header is added.
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

/* The first time BPF meets a pid, it announces its name (32 bytes). */
struct ct_comm {
	CT_RECORD_HEADER;
	__u32 pid;
	char comm[CT_COMM_LEN];
};

/*
 * cgroup v2 (ABI 3): the group a task runs in, by the group's id (the
 * kernel's, also the inode number of its directory). Announced the first
 * time a task is seen switched out (BPF reads the current task's group
 * only), and again when it moves (cgroup:cgroup_attach_task); user space
 * announces the tasks alive when tracing starts. 24 bytes.
 */
struct ct_task_cgroup {
	CT_RECORD_HEADER;
	__u32 pid;
	__u64 cgroup_id;
};

/*
 * A cgroup v2 group's path from the hierarchy's root ("" for the root,
 * "/a/b" below it) and depth: announced by user space for the groups that
 * exist when tracing starts, by BPF for those made (cgroup:cgroup_mkdir)
 * or renamed later. Long paths keep their head. 280 bytes.
 */
#define CT_CGROUP_PATH_LEN	256

struct ct_cgroup_name {
	CT_RECORD_HEADER;
	__u32 level;
	__u64 cgroup_id;
	char path[CT_CGROUP_PATH_LEN];
};

/* The first time BPF meets an irq, it announces its handler's name. */
struct ct_irq_name {
	CT_RECORD_HEADER;
	__u32 irq;
	char name[CT_IRQ_NAME_LEN];
};

/*
 * sched:sched_switch (24 bytes, 32 in the ring). prev_state is the
 * tracepoint's value: bits 0..7 are the reported task state (S D T t X Z
 * P I), 0 is R, and bit 8 means the task was preempted (printed as a '+').
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
#define CT_STATE_EXITED		0x30	/* Z or X: its last switch */

/* sched:sched_wakeup, sched_wakeup_new, sched_waking (24 bytes) */
struct ct_wakeup {
	CT_RECORD_HEADER;
	__u32 pid;
	__u16 target_cpu;
	__u8 prio;
	__u8 reserved;
};

/* sched:sched_migrate_task (24 bytes) */
struct ct_migrate {
	CT_RECORD_HEADER;
	__u32 pid;
	__u16 orig_cpu;
	__u16 dest_cpu;
	__u8 prio;
	__u8 reserved[3];
};

/* sched:sched_process_fork (40 bytes); the child starts with this name */
struct ct_fork {
	CT_RECORD_HEADER;
	__u32 parent_pid;
	__u32 child_pid;
	char child_comm[CT_COMM_LEN];
};

/* sched:sched_process_exec (128 bytes); long paths keep their head */
struct ct_exec {
	CT_RECORD_HEADER;
	__u32 pid;
	__u32 old_pid;
	char filename[CT_FILENAME_LEN];
};

/* sched:sched_process_exit (24 bytes) */
struct ct_exit {
	CT_RECORD_HEADER;
	__u32 pid;
	__u8 prio;
	__u8 reserved[3];
};

/* task:task_rename (also fired by exec): pid now runs under newcomm. */
struct ct_task_rename {
	CT_RECORD_HEADER;
	__u32 pid;
	char newcomm[CT_COMM_LEN];
};

/*
 * power:cpu_idle and power:cpu_frequency (24 bytes). For cpu_idle, state
 * is the C-state index entered, CT_IDLE_EXIT when leaving idle; for
 * cpu_frequency, the new frequency in kHz of cpu_id.
 */
struct ct_cpu_state {
	CT_RECORD_HEADER;
	__u32 state;
	__u32 cpu_id;
};

#define CT_IDLE_EXIT		0xffffffffu

/* irq:irq_handler_entry and irq_handler_exit (24 bytes) */
struct ct_irq {
	CT_RECORD_HEADER;
	__u32 irq;
	__s32 ret;		/* exit: IRQ_NONE 0, IRQ_HANDLED 1, ...; entry: 0 */
};

/* irq:softirq_entry and softirq_exit (16 bytes, 24 in the ring) */
struct ct_softirq {
	CT_RECORD_HEADER;
	__u32 vec;
};

/*
 * timer:timer_expire_entry, hrtimer_expire_entry and
 * workqueue:workqueue_execute_start (24 bytes): the kernel function that
 * runs, resolved to a symbol in user space.
 */
struct ct_function {
	CT_RECORD_HEADER;
	__u32 reserved;
	__u64 function;
};

/*
 * Per-CPU counters, one slot per event type: tracepoint hits the filters
 * rejected, records the handler tried to write, and records lost because
 * the ring had no room. received + lost == attempted once drained.
 */
struct ct_counts {
	__u64 filtered;
	__u64 attempted;
	__u64 lost;
};

/*
 * A trigger fired (record --trigger-*): the condition held in BPF, which
 * then writes this record; nothing else about triggers crosses to user
 * space. Its type, CT_REC_TRIGGER, is outside the event table: a trigger
 * record is a message to the recorder, never fed to an output or written
 * to a capture, so the records captures hold (and CT_ABI_VERSION, which
 * captures carry) are unchanged by it. 32 bytes, 40 in the ring.
 */
#define CT_REC_TRIGGER		0xf0

enum ct_trigger_kind {
	CT_TRIG_DELAY = 1,	/* a task waited longer than the threshold to run */
	CT_TRIG_IRQ,		/* an interrupt handler ran longer */
	CT_TRIG_SOFTIRQ,	/* a softirq ran longer */
	CT_TRIG_EXEC,		/* a task with the given name was exec'd */
	CT_TRIG_KINDS
};

struct ct_trigger {
	CT_RECORD_HEADER;
	__u32 pid;		/* delay, exec: the task; irq, softirq: current */
	__u8 kind;		/* enum ct_trigger_kind */
	__u8 reserved[3];
	__u32 source;		/* irq: its number; softirq: its vector */
	__u32 reserved2;
	__u64 value_ns;		/* delay: how long it waited; irq: how long it ran */
};

/*
 * The triggers' shared state (one slot): BPF fires no sooner than next_ns
 * and no more than the maximum; it counts what fired, what held while
 * held back by the cooldown or the maximum, and records the ring had no
 * room for. The counts are added without locking: close, not exact.
 */
struct ct_trigger_state {
	__u64 next_ns;
	__u64 fired;
	__u64 held_back;
	__u64 lost;
};

/* limits of the filters set at load time */
#define CT_MAX_CPUS		1024
#define CT_MAX_CGROUPS		8	/* -G given this many times at most */
#define CT_PID_LIMIT		4194304	/* the kernel's PID_MAX_LIMIT */

#endif /* CORETRACE_CT_ABI_H */
