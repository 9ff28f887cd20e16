/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every map and every setting of coretrace's BPF programs, declared once.
 *
 * Each part (*.bpf.c) includes this header and sees them as extern
 * declarations; maps.bpf.c, the one part that defines CT_MAPS_DEFINE,
 * holds their definitions (and initial values), and `bpftool gen object`
 * resolves the others' references to them: one of each in the linked
 * object and in the skeleton.
 *
 * Settings (const volatile) are set by user space before load and read
 * by the verifier as constants: the code behind a switch that is off is
 * dead to it. Maps sized at run time say so; the others keep the size
 * they are declared with.
 */
#ifndef CORETRACE_BPF_MAPS_H
#define CORETRACE_BPF_MAPS_H

#include "ct_abi.h"
#include "ct_control.h"
#include "ct_serve.h"

#ifdef CT_MAPS_DEFINE
#define CT_SHARED			/* maps.bpf.c: the definitions */
#define CT_INIT(value)	= value
#else
#define CT_SHARED	extern		/* every other part */
#define CT_INIT(value)
#endif

/* The ring (its layouts and wakeups: ring.h) */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} ct_ring SEC(".maps");

/* the template of the per-CPU rings; the real ones are sized at run time */
struct ct_percpu_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
};

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* set to the CPU count at load */
	__type(key, __u32);
	__array(values, struct ct_percpu_ring);
} ct_rings SEC(".maps");

/*
 * Set by user space once every program is attached, cleared before the
 * first is detached: programs attach and detach one after another, and
 * without this gate a recording would start and end with some events
 * traced and others not (a softirq exit without its entry, idle time
 * after the last switch).
 */
CT_SHARED volatile bool ct_tracing;
/*
 * Triggers fire only for what began at or after this time (monotonic
 * ns; 0: not yet), set by user space once its start-up has settled:
 * loading and attaching the programs delays the CPU it runs on for tens
 * of milliseconds, and a trigger must not take a snapshot of that.
 */
CT_SHARED volatile __u64 ct_trig_armed_ns;

CT_SHARED const volatile bool ct_per_cpu_rings;
CT_SHARED const volatile bool ct_wakeup_always;
CT_SHARED const volatile __u64 ct_wakeup_bytes CT_INIT(1 << 20);

/*
 * Filters, set by user space before load; off when zero/false.
 * ct_checks: any filter, or threads to learn (-p, --trigger-pid). Without
 * it a handler's entry is one test: the verifier drops the rest, but not
 * the loads of these volatile settings, which each test would leave.
 */
CT_SHARED const volatile bool ct_checks;
CT_SHARED const volatile bool ct_filter_tasks;		/* any of the four below */
CT_SHARED const volatile __u32 ct_filter_tgid;		/* -p: the process */
CT_SHARED const volatile __u32 ct_filter_tid;		/* -t: one thread */
CT_SHARED const volatile __u32 ct_filter_comm_len;	/* -c: bytes to compare */
CT_SHARED const volatile bool ct_filter_comm_prefix;	/* -c NAME*: a prefix */
CT_SHARED const volatile char ct_filter_comm[CT_COMM_LEN];
CT_SHARED const volatile bool ct_filter_cpus;		/* -C */
CT_SHARED const volatile bool ct_rename_records CT_INIT(true);	/* task_rename asked for */
CT_SHARED const volatile __u8 ct_cpu_allowed[CT_MAX_CPUS];

/*
 * -G: cgroup v2 groups, each with everything below it. A group is known
 * by its id and its depth in the hierarchy (the current task is under it
 * when its ancestor at that depth has that id), and by its path from the
 * hierarchy's root (to judge a task moved into another group).
 */
CT_SHARED const volatile __u32 ct_filter_cgroups;		/* how many, 0: off */
CT_SHARED const volatile __u64 ct_cg_id[CT_MAX_CGROUPS];
CT_SHARED const volatile __u32 ct_cg_level[CT_MAX_CGROUPS];
CT_SHARED const volatile __u32 ct_cg_path_len[CT_MAX_CGROUPS];
CT_SHARED const volatile char ct_cg_path[CT_MAX_CGROUPS][CT_CGROUP_PATH_LEN];
/* fork and exit are attached for -G even when not traced: records or not */
CT_SHARED const volatile bool ct_fork_records CT_INIT(true);
CT_SHARED const volatile bool ct_exit_records CT_INIT(true);

/*
 * Records attempted, lost and filtered: a row of CT_STATS_STRIDE slots per
 * CPU, one slot per event type (sized to the CPUs at load). A plain array
 * with the CPU in the index, where a per-CPU array would do: 6.1 inlines
 * the lookup of the one and calls a helper for the other, on every record.
 * Each CPU writes only its own row (rows are whole cache lines), and user
 * space reads the rows through a mapping.
 */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CT_MAX_CPUS * CT_STATS_STRIDE);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct ct_counts);
} ct_stats SEC(".maps");

/*
 * Pids whose name user space has been told about. No record carries comm
 * strings; the first time a pid shows up we emit a ct_comm record
 * instead. Direct-mapped: slot pid % CT_ANNOUNCE_SLOTS holds the last pid
 * announced there. An array lookup is inlined by the verifier where a
 * hash lookup is a helper call that hashes the key: this runs twice per
 * sched_switch. Two live pids sharing a slot only cost a repeated
 * announcement; CPUs racing on a slot likewise.
 */
#define CT_ANNOUNCE_SLOTS	16384

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CT_ANNOUNCE_SLOTS);
	__type(key, __u32);
	__type(value, __u32);
} ct_announced SEC(".maps");

/*
 * A slot holds the pid whose name user space knows, with CT_GROUP_TOLD
 * set once its cgroup was told too (pids stay below 2^22): a switch
 * checks both with the one lookup it makes for the name.
 */
#define CT_GROUP_TOLD		0x80000000u

/*
 * A task's cgroup is told the first time it is switched out (the only
 * moment BPF can read its group cheaply, as the current task's), marked
 * in its ct_announced slot, and again by cgroup:cgroup_attach_task when it
 * moves.
 */
CT_SHARED const volatile bool ct_cgroup_records;		/* the kernel has cgroups */

/* Irqs whose handler name user space has been told about. */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} ct_irq_announced SEC(".maps");

/*
 * -p: the threads of the filtered process. User space seeds it from
 * /proc/PID/task; handlers add the current thread whenever it belongs to
 * the process, so threads created later are learnt the first time they run.
 */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} ct_tids SEC(".maps");

/*
 * -G: the tasks in the groups, one bit per pid (512 KiB for the kernel's
 * 4M pids). The current task is asked of the kernel; any other (the task
 * woken, the one switched in) is looked up here. An array lookup the
 * verifier inlines: a hash, hashing its key on every lookup, made a hit
 * rejected by -G cost more than a record (make bench). User space seeds
 * it from the groups' cgroup.threads; the handlers keep it: the current
 * task's answer is written back, a child joins with its parent, a task
 * moved (cgroup_attach_task) is judged by the path of its new group, a
 * task that exited leaves. Bits change with atomic and/or: CPUs share
 * words.
 */
#define CT_CG_WORDS		(CT_PID_LIMIT / 64)

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CT_CG_WORDS);
	__type(key, __u32);
	__type(value, __u64);
} ct_cg_tids SEC(".maps");

/* a moved task's new path, read from its record (too big for the stack) */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[CT_CGROUP_PATH_LEN]);
} ct_cg_scratch SEC(".maps");

/*
 * Triggers (record --trigger-*, with a flight recorder): conditions
 * decided here, told to user space by one ct_trigger record when they
 * hold. Off when their threshold or name is zero: the verifier then drops
 * their code, and a recording without triggers runs what it ran before.
 */
CT_SHARED const volatile __u64 ct_trig_delay_ns;		/* --trigger-delay */
CT_SHARED const volatile __u32 ct_trig_tgid;		/* --trigger-pid: its scope */
CT_SHARED const volatile __u32 ct_trig_tid;		/* --trigger-tid */
CT_SHARED const volatile __u64 ct_trig_irq_ns;		/* --trigger-irq */
CT_SHARED const volatile __u32 ct_trig_exec_len;		/* --trigger-exec NAME */
CT_SHARED const volatile char ct_trig_exec_comm[CT_COMM_LEN];
CT_SHARED const volatile __u64 ct_trig_cooldown_ns;
CT_SHARED const volatile __u64 ct_trig_max;		/* 0: no maximum */

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_trigger_state);
} ct_trig_state SEC(".maps");

/*
 * Since when each task has been runnable without running: set at its
 * wakeup or preemption, read and cleared when it is switched in.
 * Direct-mapped by pid, as ct_announced: an array lookup the verifier
 * inlines, where a hash (runqslower's) costs a helper call that hashes
 * and, for an LRU, list work on every wakeup and switch (measured with
 * make bench: an LRU hash made a recording with --trigger-delay cost 78%
 * more per event than one without). Two tasks runnable at once on one
 * slot: the later one's wait is measured, the earlier one's is not.
 * Sized at load: one slot when no delay trigger is asked for.
 */
#define CT_RUNNABLE_SLOTS	65536

struct ct_runnable_slot {
	__u32 pid;
	__u32 group;		/* serve: its entry in ct_agg_groups */
	__u64 since;
	__u64 cgroup;		/* serve: its group's id when last switched out */
};

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CT_RUNNABLE_SLOTS);
	__type(key, __u32);
	__type(value, struct ct_runnable_slot);
} ct_runnable SEC(".maps");

static __always_inline struct ct_runnable_slot *ct_runnable_slot(__u32 pid)
{
	__u32 slot = pid & (CT_RUNNABLE_SLOTS - 1);

	return bpf_map_lookup_elem(&ct_runnable, &slot);
}

/* --trigger-pid: the threads of that process, seeded and learnt as ct_tids */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} ct_trig_tids SEC(".maps");

/* When the interrupt (slot 0) and softirq (slot 1) running now began */
struct ct_irq_start {
	__u64 ts;
	__u32 source;
	__u32 reserved;
};

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct ct_irq_start);
} ct_irq_start SEC(".maps");

/*
 * coretrace serve: its programs (serve.bpf.c) add up here instead of
 * writing records; each map is sized at load, to one entry when not
 * serving. A task's wait is ct_runnable's, and so is its group: the one
 * it was in when last switched out (the current one's, the only group BPF
 * reads cheaply; a task woken before that is in CT_AGG_IDX_UNKNOWN), by
 * id and by its entry in ct_agg_groups. An array entry, not a hash
 * lookup per event: measured with bpf_stats in the guest, a hash lookup
 * by group id on each switch made the switch handler cost 617 emulated
 * instructions a run. A group met for the first time (or whose entry
 * went to another since) is looked up in ct_agg_group_ids, and given a
 * free entry from ct_agg_free (user space fills it, and gives back the
 * entries of groups gone); with none free, it adds up in
 * CT_AGG_IDX_FOLDED, and ct_agg_folded keeps which groups did, for
 * their count.
 */
CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_cgroup);
} ct_agg_groups SEC(".maps");

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, __u32);
} ct_agg_group_ids SEC(".maps");

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1);
	__type(value, __u32);
} ct_agg_free SEC(".maps");

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, __u8);
} ct_agg_folded SEC(".maps");

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_cpu);
} ct_agg_cpus SEC(".maps");

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_irq);
} ct_agg_irqs SEC(".maps");

/*
 * record -g (stack.bpf.c): CT_STACK_KERNEL and CT_STACK_USER, 0 without
 * it (the stack programs are then not loaded). A stack is known by a
 * 64-bit hash of its frames (a user stack's, with its process); this LRU
 * table gives the id under which its frames were sent, and forgets the
 * stacks least used when full: one seen again is sent again under a new
 * id. Memory: its entries (sized at load, one without -g) and a CPU's
 * scratch; the frames themselves live in user space and the capture.
 */
CT_SHARED const volatile __u32 ct_stacks;
CT_SHARED __u32 ct_stack_next_id;

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, __u32);
} ct_stack_ids SEC(".maps");

/* a stack being taken: the message that sends it, frames after it */
struct ct_stack_scratch {
	struct ct_stack_msg msg;
	__u64 frames[CT_USTACK_DEPTH * sizeof(struct ct_uframe) / 8];
};

CT_SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_stack_scratch);
} ct_stack_scratch SEC(".maps");

#endif /* CORETRACE_BPF_MAPS_H */
