// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace's BPF side: one handler per tracepoint, each reading the
 * kernel's record through CO-RE relocated offsets (vmlinux.h types carry
 * preserve_access_index) and writing a compact record of ct_abi.h into
 * the ring buffer.
 *
 * Rules that hold in every handler:
 *  - never read struct trace_entry (the common fields): for classic
 *    tracepoints the kernel has overwritten its first 8 bytes with a
 *    pt_regs pointer by the time we run; the current task comes from
 *    bpf_get_current_pid_tgid();
 *  - filters run before anything is reserved: a rejected hit costs a
 *    counter increment and never reaches the ring;
 *  - every record attempt is counted and every failed reservation is
 *    counted as lost, per CPU and per event type (ct_stats).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "ct_abi.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * The ring. Two layouts, chosen at load time (ct_per_cpu_rings):
 *  - one ring shared by all CPUs (ct_ring), the default: one mmap, one
 *    epoll source, records of all CPUs in reservation order;
 *  - one ring per CPU (ct_rings, an array of rings indexed by CPU), for
 *    machines where many CPUs contend on one ring's producer lock.
 * Measured with `make bench-ring` (2 vCPUs, TCG, two ping-pong pairs,
 * sched_switch + sched_waking + sched_wakeup, medians of 5): the four
 * layouts cost 11-15 us per record under emulation, within the run-to-run
 * noise of the untraced baseline (2.9-6.3 s), so no layout wins on two
 * CPUs. The shared ring is the default: one ordered stream, one epoll
 * source, a quarter of the memory of 4 per-CPU rings at the same size.
 * Per-CPU rings stay an option (--per-cpu-rings) for many-CPU machines.
 *
 * Wakeups: records are submitted with BPF_RB_NO_WAKEUP and user space
 * drains the ring on a 100 ms timer, forcing a wakeup only once a ring
 * holds ct_wakeup_bytes (a quarter of it, set at load). The kernel's
 * default adaptive wakeup fires whenever the consumer has caught up, and
 * the consumer's own switch back to sleep then writes the next record
 * and wakes it again: measured in the guest, a feedback loop of ~6000
 * coretrace <-> idle switches a second on an otherwise quiet CPU (10 a
 * second with batching). Batching keeps delivery on a quiet system under
 * the 200 ms goal: rename-to-output latency max 97 ms, median 2 ms
 * (per-record wakeups: max 3 ms). --wakeup=always restores them.
 *
 * Only the records that carry a ring across ct_wakeup_bytes force the
 * wakeup (the window is wider than the largest record, so one of them
 * lands in it): forcing it on every record above the mark queued an
 * irq_work, and on x86 a self-IPI, per record while a consumer that was
 * already runnable waited for the CPU. make bench, timersleep (64 threads
 * keep the consumer behind): 1207 -> 1076 instructions per event on the
 * padded kernel, 1280 -> 1131 on the stock one; pingpong, whose consumer
 * keeps up, unchanged. If the wakeup comes while the consumer drains, its
 * next epoll_wait returns at once; the 100 ms timer is the backstop.
 *
 * Asking the ring how full it is is a helper call, so only one record in
 * about 16 asks (those stamped in the first of 16 microseconds, from bits
 * of the timestamp the record already has), and the window is wide enough
 * that one of them lands in it.
 */
#define CT_WAKEUP_WINDOW	(16 << 10)
#define CT_WAKEUP_SAMPLE(ts_low)	((((ts_low) >> 10) & 15) == 0)
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} ct_ring SEC(".maps");

/* the template of the per-CPU rings; the real ones are sized at run time */
struct ct_percpu_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
};

struct {
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
volatile bool ct_tracing;

const volatile bool ct_per_cpu_rings;
const volatile bool ct_wakeup_always;
const volatile __u64 ct_wakeup_bytes = 1 << 20;

/*
 * Filters, set by user space before load; off when zero/false.
 * ct_checks: any filter, or threads to learn (-p, --trigger-pid). Without
 * it a handler's entry is one test: the verifier drops the rest, but not
 * the loads of these volatile settings, which each test would leave.
 */
const volatile bool ct_checks;
const volatile bool ct_filter_tasks;		/* any of the four below */
const volatile __u32 ct_filter_tgid;		/* -p: the process */
const volatile __u32 ct_filter_tid;		/* -t: one thread */
const volatile __u32 ct_filter_comm_len;	/* -c: bytes to compare */
const volatile bool ct_filter_comm_prefix;	/* -c NAME*: a prefix */
const volatile char ct_filter_comm[CT_COMM_LEN];
const volatile bool ct_filter_cpus;		/* -C */
const volatile bool ct_rename_records = true;	/* task_rename asked for */
const volatile __u8 ct_cpu_allowed[CT_MAX_CPUS];

/*
 * -G: cgroup v2 groups, each with everything below it. A group is known
 * by its id and its depth in the hierarchy (the current task is under it
 * when its ancestor at that depth has that id), and by its path from the
 * hierarchy's root (to judge a task moved into another group).
 */
const volatile __u32 ct_filter_cgroups;		/* how many, 0: off */
const volatile __u64 ct_cg_id[CT_MAX_CGROUPS];
const volatile __u32 ct_cg_level[CT_MAX_CGROUPS];
const volatile __u32 ct_cg_path_len[CT_MAX_CGROUPS];
const volatile char ct_cg_path[CT_MAX_CGROUPS][CT_CGROUP_PATH_LEN];
/* fork and exit are attached for -G even when not traced: records or not */
const volatile bool ct_fork_records = true;
const volatile bool ct_exit_records = true;

/*
 * Records attempted, lost and filtered: a row of CT_STATS_STRIDE slots per
 * CPU, one slot per event type (sized to the CPUs at load). A plain array
 * with the CPU in the index, where a per-CPU array would do: 6.1 inlines
 * the lookup of the one and calls a helper for the other, on every record.
 * Each CPU writes only its own row (rows are whole cache lines), and user
 * space reads the rows through a mapping.
 */
struct {
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

struct {
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

static __always_inline __u32 *ct_announced_slot(__u32 pid)
{
	__u32 slot = pid & (CT_ANNOUNCE_SLOTS - 1);

	return bpf_map_lookup_elem(&ct_announced, &slot);
}

static __always_inline bool ct_slot_names(__u32 seen, __u32 pid)
{
	return (seen & ~CT_GROUP_TOLD) == pid;
}

/* The next record about @pid announces its name (and group) again. */
static __always_inline void ct_forget_name(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && ct_slot_names(*seen, pid))
		*seen = 0;
}

/* The next switch of @pid tells its group again (its name stays known). */
static __always_inline void ct_forget_group(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && *seen == (pid | CT_GROUP_TOLD))
		*seen = pid;
}

/* User space knows the name of @pid (from a record it was sent). */
static __always_inline void ct_name_known(__u32 pid)
{
	__u32 *seen = ct_announced_slot(pid);

	if (seen && !ct_slot_names(*seen, pid))
		*seen = pid;
}

/*
 * A task's cgroup is told the first time it is switched out (the only
 * moment BPF can read its group cheaply, as the current task's), marked
 * in its ct_announced slot, and again by cgroup:cgroup_attach_task when it
 * moves.
 */
const volatile bool ct_cgroup_records;		/* the kernel has cgroups */

/* Irqs whose handler name user space has been told about. */
struct {
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
struct {
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

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CT_CG_WORDS);
	__type(key, __u32);
	__type(value, __u64);
} ct_cg_tids SEC(".maps");

/* a moved task's new path, read from its record (too big for the stack) */
struct {
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
const volatile __u64 ct_trig_delay_ns;		/* --trigger-delay */
const volatile __u32 ct_trig_tgid;		/* --trigger-pid: its scope */
const volatile __u32 ct_trig_tid;		/* --trigger-tid */
const volatile __u64 ct_trig_irq_ns;		/* --trigger-irq */
const volatile __u32 ct_trig_exec_len;		/* --trigger-exec NAME */
const volatile char ct_trig_exec_comm[CT_COMM_LEN];
const volatile __u64 ct_trig_cooldown_ns;
const volatile __u64 ct_trig_max;		/* 0: no maximum */

struct {
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

struct {
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
struct {
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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct ct_irq_start);
} ct_irq_start SEC(".maps");

/*
 * coretrace serve (ct_aggregate): the handlers add up here instead of
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
const volatile bool ct_aggregate;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_cgroup);
} ct_agg_groups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, __u32);
} ct_agg_group_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 1);
	__type(value, __u32);
} ct_agg_free SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, __u8);
} ct_agg_folded SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_cpu);
} ct_agg_cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_agg_irq);
} ct_agg_irqs SEC(".maps");

/* Fill a record's header, on the CPU ct_reserve() said; returns its time */
static __always_inline __u64 ct_fill_hdr(void *record, __u8 event_type,
					 __u32 cpu)
{
	struct ct_hdr *hdr = record;
	__u64 now = bpf_ktime_get_ns();

	hdr->ts_high = (__u32)(now >> 32);
	hdr->cpu = (__u16)cpu;
	hdr->flags = 0;
	hdr->type = event_type;
	hdr->ts_low = (__u32)now;
	return now;
}

static __always_inline struct ct_counts *ct_counts_at(__u32 cpu,
						     __u32 event_type)
{
	__u32 slot = cpu * CT_STATS_STRIDE + event_type;

	return bpf_map_lookup_elem(&ct_stats, &slot);
}

static __always_inline struct ct_counts *ct_counts_of(__u32 event_type)
{
	return ct_counts_at(bpf_get_smp_processor_id(), event_type);
}

static __always_inline void ct_count_filtered(__u32 event_type)
{
	struct ct_counts *counts = ct_counts_of(event_type);

	if (counts)
		counts->filtered++;
}

/*
 * Helpers are calls the compiler cannot move: a read-only switch that
 * the verifier resolves (ct_per_cpu_rings, ct_filter_cpus) is tested
 * before the helper whose answer only its other branch needs, so that the
 * helper call goes with the dead branch (6.1 inlines neither the CPU id
 * nor a per-CPU lookup).
 */
static __always_inline void *ct_ring_of(__u32 cpu)
{
	if (!ct_per_cpu_rings)
		return &ct_ring;
	return bpf_map_lookup_elem(&ct_rings, &cpu);
}

static __always_inline void *ct_ring_for_cpu(void)
{
	if (!ct_per_cpu_rings)
		return &ct_ring;
	return ct_ring_of(bpf_get_smp_processor_id());
}

/*
 * Reserve room for one record, counting the attempt; @cpu for its header
 * (the one CPU id a record costs). The caller checks the result once and
 * counts a failure with ct_count_lost(): a second NULL check of the same
 * pointer here would leave the verifier unsure that a reserved record is
 * always submitted (the compiler merges the two).
 */
static __always_inline void *ct_reserve(__u32 event_type, __u32 size,
					__u32 *cpu)
{
	struct ct_counts *counts;
	void *ring;

	*cpu = bpf_get_smp_processor_id();
	counts = ct_counts_at(*cpu, event_type);
	ring = ct_ring_of(*cpu);
	if (counts)
		counts->attempted++;
	if (!ring)
		return NULL;
	return bpf_ringbuf_reserve(ring, size, 0);
}

static __always_inline void ct_count_lost(__u32 event_type)
{
	struct ct_counts *counts = ct_counts_of(event_type);

	if (counts)
		counts->lost++;
}

/* Hand a record to user space, waking it only when the ring fills up. */
static __always_inline void ct_submit(void *rec)
{
	void *ring = ct_ring_for_cpu();
	__u64 flags = BPF_RB_NO_WAKEUP;

	__u64 avail;

	if (ct_wakeup_always) {
		flags = 0;
	} else if (ring && CT_WAKEUP_SAMPLE(((struct ct_hdr *)rec)->ts_low)) {
		/* the records that carry the ring across the mark, not all after */
		avail = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
		if (avail >= ct_wakeup_bytes &&
		    avail < ct_wakeup_bytes + CT_WAKEUP_WINDOW)
			flags = BPF_RB_FORCE_WAKEUP;
	}
	bpf_ringbuf_submit(rec, flags);
}

/* -C: did this hit fire on an allowed CPU? */
static __always_inline bool ct_cpu_ok(void)
{
	__u32 cpu;

	if (!ct_filter_cpus)
		return true;
	cpu = bpf_get_smp_processor_id();
	return cpu < CT_MAX_CPUS && ct_cpu_allowed[cpu & (CT_MAX_CPUS - 1)];
}

/* Add the current thread to @tids when it belongs to process @tgid. */
static __always_inline void ct_learn_thread(void *tids, __u32 tgid)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pid_tgid;
	__u8 one = 1;

	if ((__u32)(pid_tgid >> 32) != tgid)
		return;
	if (!bpf_map_lookup_elem(tids, &tid))
		bpf_map_update_elem(tids, &tid, &one, BPF_ANY);
}

/* -p, --trigger-pid: remember the current thread when it is the process's. */
static __always_inline void ct_learn_current(void)
{
	if (ct_filter_tgid)
		ct_learn_thread(&ct_tids, ct_filter_tgid);
	if (ct_trig_tgid)
		ct_learn_thread(&ct_trig_tids, ct_trig_tgid);
}

static __always_inline bool ct_comm_matches(const char *comm)
{
	char name[CT_COMM_LEN];
	__u32 i;

	if (comm)
		bpf_probe_read_kernel(name, sizeof(name), comm);
	else
		bpf_get_current_comm(name, sizeof(name));
#pragma unroll
	for (i = 0; i < CT_COMM_LEN; i++) {
		if (i >= ct_filter_comm_len)
			break;
		if (name[i] != ct_filter_comm[i])
			return false;
	}
	/* an exact match also needs the name to end there */
	if (!ct_filter_comm_prefix && ct_filter_comm_len < CT_COMM_LEN)
		return name[ct_filter_comm_len & (CT_COMM_LEN - 1)] == '\0';
	return true;
}

/* -G: is the current task in one of the groups, or below one? */
static __always_inline bool ct_cg_current(void)
{
	__u32 i;

	for (i = 0; i < CT_MAX_CGROUPS; i++) {
		if (i >= ct_filter_cgroups)
			break;
		if (bpf_get_current_ancestor_cgroup_id(ct_cg_level[i]) ==
		    ct_cg_id[i])
			return true;
	}
	return false;
}

/* @tid's word of ct_cg_tids, or NULL */
static __always_inline __u64 *ct_cg_word(__u32 tid)
{
	__u32 word = tid / 64;

	return bpf_map_lookup_elem(&ct_cg_tids, &word);
}

/* Keep ct_cg_tids's answer for @tid */
static __always_inline void ct_cg_remember(__u32 tid, bool in)
{
	__u64 *word = ct_cg_word(tid), bit = 1ull << (tid & 63);

	if (!word)
		return;
	if (in)
		__sync_fetch_and_or(word, bit);
	else
		__sync_fetch_and_and(word, ~bit);
}

/* What ct_cg_tids says of @tid */
static __always_inline bool ct_cg_known(__u32 tid)
{
	__u64 *word = ct_cg_word(tid);

	return word && (*word >> (tid & 63)) & 1;
}

/*
 * -G: is task @tid in the groups? The current task is asked of the kernel
 * and the answer kept for the events about it while it does not run.
 */
static __always_inline bool ct_cg_task_ok(__u32 tid)
{
	bool known = ct_cg_known(tid);
	bool in;

	if (tid != (__u32)bpf_get_current_pid_tgid())
		return known;
	in = ct_cg_current();
	if (in != known)
		ct_cg_remember(tid, in);
	return in;
}

/*
 * -p/-t/-c/-G: is task @tid (named at @comm in the ctx, or the current
 * task when @comm is NULL) one the user asked for?
 */
static __always_inline bool ct_task_ok(__u32 tid, const char *comm)
{
	if (!ct_filter_tasks)
		return true;
	if (ct_filter_tid && tid != ct_filter_tid)
		return false;
	if (ct_filter_tgid && !bpf_map_lookup_elem(&ct_tids, &tid))
		return false;
	if (ct_filter_comm_len && !ct_comm_matches(comm))
		return false;
	if (ct_filter_cgroups && !ct_cg_task_ok(tid))
		return false;
	return true;
}

static __always_inline __u32 ct_current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/* The name record of @pid; @comm points into the ctx. True: sent. */
static __always_inline bool ct_emit_comm(__u32 pid, const char *comm)
{
	__u32 cpu;
	struct ct_comm *rec = ct_reserve(CT_EV_COMM, sizeof(*rec), &cpu);

	if (!rec) {
		ct_count_lost(CT_EV_COMM);
		return false;
	}
	ct_fill_hdr(rec, CT_EV_COMM, cpu);
	rec->pid = pid;
	if (comm)
		bpf_probe_read_kernel(rec->comm, sizeof(rec->comm), comm);
	else
		bpf_get_current_comm(rec->comm, sizeof(rec->comm));
	ct_submit(rec);
	return true;
}

/* The group record of @pid, the current task. True: sent. */
static __always_inline bool ct_emit_current_cgroup(__u32 pid)
{
	__u32 cpu;
	struct ct_task_cgroup *rec;

	rec = ct_reserve(CT_EV_TASK_CGROUP, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_CGROUP);
		return false;
	}
	ct_fill_hdr(rec, CT_EV_TASK_CGROUP, cpu);
	rec->pid = pid;
	rec->cgroup_id = bpf_get_current_cgroup_id();
	ct_submit(rec);
	return true;
}

/*
 * Tell user space the name of @pid once, and its cgroup once when @pid is
 * the current task (@current). What could not be sent is not marked: the
 * next switch tries again.
 */
static __always_inline void ct_announce_task(__u32 pid, const char *comm,
					     bool current)
{
	__u32 *seen = ct_announced_slot(pid);
	__u32 want = pid, told;

	if (current && ct_cgroup_records)
		want |= CT_GROUP_TOLD;
	if (pid == 0 || !seen)
		return;
	/*
	 * The name (and the group, if it is wanted) already told: the slot
	 * holds what is wanted, or the name and the group when only the name
	 * is (the same test when the group is wanted too)
	 */
	told = *seen;
	if (told == want || told == (want | CT_GROUP_TOLD))
		return;
	if (!ct_slot_names(*seen, pid)) {
		if (!ct_emit_comm(pid, comm))
			return;
		*seen = pid;
	}
	if (want != pid && ct_emit_current_cgroup(pid))
		*seen = want;
}

/* Tell user space the name of @pid, once; @comm points into the ctx. */
static __always_inline void ct_announce(__u32 pid, const char *comm)
{
	ct_announce_task(pid, comm, false);
}

/*
 * Common entry of every handler: nothing before every program is attached
 * or once detaching began; then learn -p threads, apply -C, and apply the
 * task filters to one task. Counts the hit as filtered when rejected.
 */
static __always_inline bool ct_want(__u32 event_type, __u32 tid,
				    const char *comm)
{
	if (!ct_tracing)
		return false;
	if (!ct_checks)
		return true;
	ct_learn_current();
	if (ct_cpu_ok() && ct_task_ok(tid, comm))
		return true;
	ct_count_filtered(event_type);
	return false;
}

/* The same for events about two tasks: either may match. */
static __always_inline bool ct_want2(__u32 event_type, __u32 tid_a,
				     const char *comm_a, __u32 tid_b,
				     const char *comm_b)
{
	if (!ct_tracing)
		return false;
	if (!ct_checks)
		return true;
	ct_learn_current();
	if (ct_cpu_ok() && (ct_task_ok(tid_a, comm_a) || ct_task_ok(tid_b, comm_b)))
		return true;
	ct_count_filtered(event_type);
	return false;
}

/*
 * A trigger's condition held: one ct_trigger record, unless the cooldown
 * since the last one has not passed or the maximum has fired.
 */
static __always_inline void ct_fire(__u8 kind, __u32 pid, __u32 source,
				    __u64 value_ns)
{
	__u32 zero = 0;
	struct ct_trigger_state *st = bpf_map_lookup_elem(&ct_trig_state, &zero);
	void *ring = ct_ring_for_cpu();
	struct ct_trigger *rec;
	__u64 now = bpf_ktime_get_ns();

	if (!st || !ring)
		return;
	if ((ct_trig_max && st->fired >= ct_trig_max) || now < st->next_ns) {
		__sync_fetch_and_add(&st->held_back, 1);
		return;
	}
	st->next_ns = now + ct_trig_cooldown_ns;
	rec = bpf_ringbuf_reserve(ring, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&st->lost, 1);
		st->next_ns = 0;	/* the next time it holds may tell */
		return;
	}
	__sync_fetch_and_add(&st->fired, 1);
	rec->ts_high = (__u32)(now >> 32);
	rec->cpu = (__u16)bpf_get_smp_processor_id();
	rec->flags = 0;
	rec->type = CT_REC_TRIGGER;
	rec->ts_low = (__u32)now;
	rec->pid = pid;
	rec->kind = kind;
	rec->reserved[0] = rec->reserved[1] = rec->reserved[2] = 0;
	rec->source = source;
	rec->value_ns = value_ns;
	/* rare, and user space has a window to keep: wake it now */
	bpf_ringbuf_submit(rec, BPF_RB_FORCE_WAKEUP);
}

/* --trigger-pid/--trigger-tid: is @tid a task whose delays are watched? */
static __always_inline bool ct_trig_task_ok(__u32 tid)
{
	if (ct_trig_tid && tid != ct_trig_tid)
		return false;
	if (ct_trig_tgid && !bpf_map_lookup_elem(&ct_trig_tids, &tid))
		return false;
	return true;
}

/*
 * The times triggers measure are the records' own (the @now passed in),
 * so that a snapshot shows the trigger's figure to the nanosecond. A
 * wakeup or switch the ring had no room for takes the clock here; an
 * interrupt or softirq whose entry or exit record was lost is not
 * measured (the lost records are counted, and the verifier walks a
 * quarter more of these short handlers when their lost paths measure too).
 */
static __always_inline __u64 ct_trig_now(void)
{
	return ct_trig_delay_ns ? bpf_ktime_get_ns() : 0;
}

/* @tid became runnable (woken, or preempted while it could run) */
static __always_inline void ct_trig_runnable(__u32 tid, __u64 now)
{
	struct ct_runnable_slot *slot;

	if (!ct_trig_delay_ns || !tid || !ct_trig_task_ok(tid))
		return;
	slot = ct_runnable_slot(tid);
	if (!slot)
		return;
	slot->pid = tid;
	slot->since = now;
}

/* @tid runs: how long since it became runnable? */
static __always_inline void ct_trig_switch_in(__u32 tid, __u64 now)
{
	struct ct_runnable_slot *slot;
	__u64 delay;

	if (!ct_trig_delay_ns)
		return;
	slot = ct_runnable_slot(tid);
	if (!slot || slot->pid != tid || !tid)
		return;
	delay = now - slot->since;
	slot->pid = 0;
	if (delay >= ct_trig_delay_ns)
		ct_fire(CT_TRIG_DELAY, tid, 0, delay);
}

/* An interrupt (@slot 0) or softirq (1) begins on this CPU */
static __always_inline void ct_trig_enter(__u32 slot, __u32 source, __u64 now)
{
	struct ct_irq_start *start;

	if (!ct_trig_irq_ns)
		return;
	start = bpf_map_lookup_elem(&ct_irq_start, &slot);
	if (!start)
		return;
	start->ts = now;
	start->source = source;
}

/* ... and ends: did it run longer than the threshold? */
static __always_inline void ct_trig_leave(__u32 slot, __u8 kind, __u64 now)
{
	struct ct_irq_start *start;
	__u64 ran;

	if (!ct_trig_irq_ns)
		return;
	start = bpf_map_lookup_elem(&ct_irq_start, &slot);
	if (!start || !start->ts)
		return;
	ran = now - start->ts;
	start->ts = 0;
	if (ran >= ct_trig_irq_ns)
		ct_fire(kind, ct_current_tid(), start->source, ran);
}

/* --trigger-exec: the current task's new name is the one asked for */
static __always_inline bool ct_exec_matches(void)
{
	char name[CT_COMM_LEN];
	__u32 i;

	bpf_get_current_comm(name, sizeof(name));
#pragma unroll
	for (i = 0; i < CT_COMM_LEN; i++) {
		if (i >= ct_trig_exec_len)
			break;
		if (name[i] != ct_trig_exec_comm[i])
			return false;
	}
	return ct_trig_exec_len >= CT_COMM_LEN ||
	       name[ct_trig_exec_len & (CT_COMM_LEN - 1)] == '\0';
}

/* A switch: prev may still run (preempted), next's wait ends */
static __always_inline void
ct_trig_switch_delays(struct trace_event_raw_sched_switch *ctx, __u32 prev_pid,
		      __u32 next_pid, __u64 now)
{
	if (!ct_trig_delay_ns)
		return;
	/* state bits 0..7 clear: R, runnable (bit 8: preempted) */
	if (!(ctx->prev_state & 0xff))
		ct_trig_runnable(prev_pid, now);
	ct_trig_switch_in(next_pid, now);
}

/*
 * next_comm into the record: two loads where the field is 8-byte aligned
 * in the kernel's record (it follows a long in 6.1, padded or not), one
 * bpf_probe_read_kernel() call otherwise. The offset is a CO-RE constant,
 * so the verifier keeps only the branch this kernel takes.
 */
static __always_inline void
ct_copy_next_comm(char *dst, struct trace_event_raw_sched_switch *ctx)
{
	__u64 *words = (__u64 *)dst;

	if (bpf_core_field_offset(ctx->next_comm) & 7) {
		bpf_probe_read_kernel(dst, CT_COMM_LEN, ctx->next_comm);
		return;
	}
	words[0] = *(__u64 *)&ctx->next_comm[0];
	words[1] = *(__u64 *)&ctx->next_comm[8];
}

/*
 * coretrace serve: what each handler adds up. The event is counted as
 * attempted in ct_stats (coretrace_events_total), and as lost when it
 * could not be added (a full table, an idle state past CT_IDLE_STATES).
 */
struct ct_agg_ctx {
	struct ct_agg_cpu *row;
	struct ct_counts *counts;
	__u64 now;
};

/* The CPU's row and the event's counts; false when not serving yet */
static __always_inline bool ct_agg_begin(struct ct_agg_ctx *a, __u32 event_type)
{
	__u32 cpu;

	if (!ct_tracing)
		return false;
	cpu = bpf_get_smp_processor_id();
	a->counts = ct_counts_at(cpu, event_type);
	a->row = bpf_map_lookup_elem(&ct_agg_cpus, &cpu);
	a->now = bpf_ktime_get_ns();
	if (a->counts)
		a->counts->attempted++;
	return a->row != NULL;
}

static __always_inline void ct_agg_lost(struct ct_agg_ctx *a)
{
	if (a->counts)
		a->counts->lost++;
}

/* The entry of group @id: found, or a free one taken, or the folded one */
static __always_inline __u32 ct_agg_index(__u64 id)
{
	__u32 *known = bpf_map_lookup_elem(&ct_agg_group_ids, &id), fresh;
	struct ct_agg_cgroup *g;
	__u8 one = 1;

	if (known)
		return *known;
	if (id == CT_AGG_CG_UNKNOWN)
		return CT_AGG_IDX_UNKNOWN;
	if (bpf_map_pop_elem(&ct_agg_free, &fresh)) {
		bpf_map_update_elem(&ct_agg_folded, &id, &one, BPF_NOEXIST);
		return CT_AGG_IDX_FOLDED;
	}
	g = bpf_map_lookup_elem(&ct_agg_groups, &fresh);
	if (!g)
		return CT_AGG_IDX_FOLDED;
	g->id = id;
	if (bpf_map_update_elem(&ct_agg_group_ids, &id, &fresh, BPF_NOEXIST)) {
		/* another CPU gave it one meanwhile: this entry goes back */
		g->id = 0;
		bpf_map_push_elem(&ct_agg_free, &fresh, 0);
		known = bpf_map_lookup_elem(&ct_agg_group_ids, &id);
		return known ? *known : CT_AGG_IDX_FOLDED;
	}
	return fresh;
}

/*
 * The sums of group @id, whose entry was @index when last looked at: that
 * entry while it is still the group's (or the folded one), else looked up
 */
static __always_inline struct ct_agg_cgroup *ct_agg_group(__u64 id, __u32 *index)
{
	struct ct_agg_cgroup *g = bpf_map_lookup_elem(&ct_agg_groups, index);

	if (g && (g->id == id || *index == CT_AGG_IDX_FOLDED))
		return g;
	*index = ct_agg_index(id);
	return bpf_map_lookup_elem(&ct_agg_groups, index);
}

/* @tid's group as last seen (slot), CT_AGG_CG_UNKNOWN when it was not */
static __always_inline __u64 ct_agg_task_group(struct ct_runnable_slot *slot,
					       __u32 tid, __u32 *index)
{
	if (slot && slot->pid == tid) {
		*index = slot->group;
		return slot->cgroup;
	}
	*index = CT_AGG_IDX_UNKNOWN;
	return CT_AGG_CG_UNKNOWN;
}

/* prev ran since the last switch; next waited since it became runnable */
static __always_inline int
ct_agg_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 prev_pid = ctx->prev_pid, next_pid = ctx->next_pid;
	struct ct_runnable_slot *slot;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group, delay;
	__u32 bucket, index;

	if (!ct_agg_begin(&a, CT_EV_SCHED_SWITCH))
		return 0;
	if (prev_pid) {
		group = bpf_get_current_cgroup_id();
		slot = ct_runnable_slot(prev_pid);
		index = CT_AGG_IDX_UNKNOWN;
		if (slot && slot->pid == prev_pid && slot->cgroup == group)
			index = slot->group;
		g = ct_agg_group(group, &index);
		if (g) {
			if (a.row->switch_ns)
				__sync_fetch_and_add(&g->oncpu_ns,
						     a.now - a.row->switch_ns);
			__sync_fetch_and_add(&g->switches, 1);
		}
		if (slot) {
			slot->pid = prev_pid;
			slot->group = index;
			slot->cgroup = group;
			/* state bits 0..7 clear: still runnable (preempted) */
			slot->since = (ctx->prev_state & 0xff) ? 0 : a.now;
		}
	}
	a.row->switch_ns = a.now;
	if (!next_pid)
		return 0;
	slot = ct_runnable_slot(next_pid);
	if (!slot || slot->pid != next_pid || !slot->since)
		return 0;	/* runnable since before serving began */
	delay = a.now - slot->since;
	slot->since = 0;
	index = slot->group;
	g = ct_agg_group(slot->cgroup, &index);
	if (!g) {
		ct_agg_lost(&a);
		return 0;
	}
	slot->group = index;
	bucket = ct_delay_bucket(delay);
	__sync_fetch_and_add(&g->delay_sum_ns, delay);
	if (bucket < CT_DELAY_BUCKETS)
		__sync_fetch_and_add(&g->delay[bucket], 1);
	return 0;
}

/*
 * A task woken (or a new one, in its parent's group, the current one)
 * waits from now; its group counts the wakeup.
 */
static __always_inline int
ct_agg_wakeup(__u32 event_type, struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 pid = ctx->pid;
	struct ct_runnable_slot *slot;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group;
	__u32 index;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	slot = ct_runnable_slot(pid);
	if (!slot)
		return 0;
	if (event_type == CT_EV_SCHED_WAKEUP_NEW) {
		group = bpf_get_current_cgroup_id();
		index = CT_AGG_IDX_UNKNOWN;
	} else {
		group = ct_agg_task_group(slot, pid, &index);
	}
	g = ct_agg_group(group, &index);
	slot->pid = pid;
	slot->group = index;
	slot->cgroup = group;
	slot->since = a.now;
	if (g)
		__sync_fetch_and_add(&g->wakeups, 1);
	else
		ct_agg_lost(&a);
	return 0;
}

static __always_inline int
ct_agg_migrate(struct trace_event_raw_sched_migrate_task *ctx)
{
	__u32 pid = ctx->pid, index;
	struct ct_agg_cgroup *g;
	struct ct_agg_ctx a;
	__u64 group;

	if (!ct_agg_begin(&a, CT_EV_SCHED_MIGRATE_TASK))
		return 0;
	group = ct_agg_task_group(ct_runnable_slot(pid), pid, &index);
	g = ct_agg_group(group, &index);
	if (g)
		__sync_fetch_and_add(&g->migrations, 1);
	else
		ct_agg_lost(&a);
	return 0;
}

SEC("tp/sched/sched_switch")
int handle_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 cpu;
	__u32 current_pid = ct_current_tid();
	__u32 prev_pid = ctx->prev_pid;
	__u32 next_pid = ctx->next_pid;
	struct ct_sched_switch *rec;
	__u64 now;
	bool want;

	if (ct_aggregate)
		return ct_agg_switch(ctx);
	want = ct_want2(CT_EV_SCHED_SWITCH, prev_pid, ctx->prev_comm, next_pid,
			ctx->next_comm);
	/* -G: a task switched out for the last time leaves the groups */
	if (ct_filter_cgroups && (ctx->prev_state & CT_STATE_EXITED))
		ct_cg_remember(prev_pid, false);
	if (!want)
		return 0;
	/*
	 * The record names the task it switches in (next_comm); the one
	 * switched out is announced, with its group, the first time.
	 */
	ct_announce_task(prev_pid, ctx->prev_comm, prev_pid == current_pid);

	rec = ct_reserve(CT_EV_SCHED_SWITCH, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_SWITCH);
		ct_trig_switch_delays(ctx, prev_pid, next_pid, ct_trig_now());
		return 0;
	}
	now = ct_fill_hdr(rec, CT_EV_SCHED_SWITCH, cpu);
	if (prev_pid != current_pid)
		rec->flags |= CT_F_PID_MISMATCH;
	rec->prev_pid = prev_pid;
	rec->next_pid = next_pid;
	rec->prev_state = (__u16)ctx->prev_state;
	rec->prev_prio = (__u8)ctx->prev_prio;
	rec->next_prio = (__u8)ctx->next_prio;
	ct_copy_next_comm(rec->next_comm, ctx);
	ct_submit(rec);
	ct_trig_switch_delays(ctx, prev_pid, next_pid, now);
	return 0;
}

static __always_inline int
ct_emit_wakeup(__u32 event_type, struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_wakeup *rec;
	__u64 now;

	if (ct_aggregate)
		return ct_agg_wakeup(event_type, ctx);
	if (!ct_want(event_type, pid, ctx->comm))
		return 0;
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		if (event_type != CT_EV_SCHED_WAKING)
			ct_trig_runnable(pid, ct_trig_now());
		return 0;
	}
	now = ct_fill_hdr(rec, event_type, cpu);
	rec->pid = pid;
	rec->target_cpu = (__u16)ctx->target_cpu;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	if (event_type != CT_EV_SCHED_WAKING)
		ct_trig_runnable(pid, now);
	return 0;
}

SEC("tp/sched/sched_wakeup")
int handle_sched_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKEUP, ctx);
}

SEC("tp/sched/sched_wakeup_new")
int handle_sched_wakeup_new(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKEUP_NEW, ctx);
}

SEC("tp/sched/sched_waking")
int handle_sched_waking(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return ct_emit_wakeup(CT_EV_SCHED_WAKING, ctx);
}

SEC("tp/sched/sched_migrate_task")
int handle_sched_migrate_task(struct trace_event_raw_sched_migrate_task *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_migrate *rec;

	if (ct_aggregate)
		return ct_agg_migrate(ctx);
	if (!ct_want(CT_EV_SCHED_MIGRATE_TASK, pid, ctx->comm))
		return 0;
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(CT_EV_SCHED_MIGRATE_TASK, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_MIGRATE_TASK);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_MIGRATE_TASK, cpu);
	rec->pid = pid;
	rec->orig_cpu = (__u16)ctx->orig_cpu;
	rec->dest_cpu = (__u16)ctx->dest_cpu;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	return 0;
}

/* -G: a child joins its parent's group */
static __always_inline void ct_cg_fork(__u32 child_pid)
{
	if (ct_tracing && ct_cg_current())
		ct_cg_remember(child_pid, true);
}

SEC("tp/sched/sched_process_fork")
int handle_sched_process_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	__u32 cpu;
	__u32 parent_pid = ctx->parent_pid;
	__u32 child_pid = ctx->child_pid;
	struct ct_fork *rec;

	/* -G: the child starts in its parent's group */
	if (ct_filter_cgroups)
		ct_cg_fork(child_pid);
	if (!ct_fork_records)
		return 0;
	if (!ct_want2(CT_EV_SCHED_PROCESS_FORK, parent_pid, ctx->parent_comm,
		      child_pid, ctx->child_comm))
		return 0;
	ct_announce(parent_pid, ctx->parent_comm);
	rec = ct_reserve(CT_EV_SCHED_PROCESS_FORK, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_FORK);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_FORK, cpu);
	rec->parent_pid = parent_pid;
	rec->child_pid = child_pid;
	bpf_probe_read_kernel(rec->child_comm, sizeof(rec->child_comm),
			      ctx->child_comm);
	ct_submit(rec);
	/* the fork record names the child */
	ct_name_known(child_pid);
	return 0;
}

SEC("tp/sched/sched_process_exec")
int handle_sched_process_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	__u32 loc = ctx->__data_loc_filename;
	struct ct_exec *rec;

	if (!ct_want(CT_EV_SCHED_PROCESS_EXEC, pid, NULL))
		return 0;
	rec = ct_reserve(CT_EV_SCHED_PROCESS_EXEC, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_EXEC);
		if (ct_trig_exec_len && ct_exec_matches())
			ct_fire(CT_TRIG_EXEC, pid, 0, 0);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_EXEC, cpu);
	rec->pid = pid;
	rec->old_pid = ctx->old_pid;
	/* __data_loc: low 16 bits, offset of the string in the record */
	if (bpf_probe_read_kernel_str(rec->filename, sizeof(rec->filename),
				      (void *)ctx + (loc & 0xffff)) < 0)
		rec->filename[0] = '\0';
	ct_submit(rec);
	if (ct_trig_exec_len && ct_exec_matches())
		ct_fire(CT_TRIG_EXEC, pid, 0, 0);
	return 0;
}

/* -G: a task that exits leaves the groups (after ct_want judged it) */
static __always_inline void ct_cg_exit(__u32 pid)
{
	ct_cg_remember(pid, false);
}

SEC("tp/sched/sched_process_exit")
int handle_sched_process_exit(struct trace_event_raw_sched_process_template *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_exit *rec;

	if (!ct_exit_records || !ct_want(CT_EV_SCHED_PROCESS_EXIT, pid, ctx->comm)) {
		/* a later task with this pid must announce its own group */
		ct_forget_group(pid);
		if (ct_filter_cgroups)
			ct_cg_exit(pid);
		return 0;
	}
	ct_announce(pid, ctx->comm);
	rec = ct_reserve(CT_EV_SCHED_PROCESS_EXIT, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_SCHED_PROCESS_EXIT);
		ct_forget_group(pid);
		if (ct_filter_cgroups)
			ct_cg_exit(pid);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_SCHED_PROCESS_EXIT, cpu);
	rec->pid = pid;
	rec->prio = (__u8)ctx->prio;
	ct_submit(rec);
	/* a later task with this pid must announce its own name and group */
	ct_forget_name(pid);
	if (ct_filter_cgroups)
		ct_cg_exit(pid);
	return 0;
}

SEC("tp/task/task_rename")
int handle_task_rename(struct trace_event_raw_task_rename *ctx)
{
	__u32 cpu;
	__u32 pid = ctx->pid;
	struct ct_task_rename *rec;

	if (!ct_rename_records) {
		/* not traced: user space still learns the new name */
		if (ct_tracing && ct_cpu_ok() &&
		    (ct_task_ok(pid, ctx->oldcomm) ||
		     ct_task_ok(pid, ctx->newcomm))) {
			ct_forget_name(pid);
			ct_announce(pid, ctx->newcomm);
		}
		return 0;
	}
	if (!ct_want2(CT_EV_TASK_RENAME, pid, ctx->oldcomm, pid, ctx->newcomm))
		return 0;
	rec = ct_reserve(CT_EV_TASK_RENAME, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_RENAME);
		/* forget the old name: the next record announces the new one */
		ct_forget_name(pid);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_TASK_RENAME, cpu);
	rec->pid = pid;
	bpf_probe_read_kernel(rec->newcomm, sizeof(rec->newcomm),
			      ctx->newcomm);
	ct_submit(rec);
	ct_name_known(pid);
	return 0;
}

/* Is @path (from the hierarchy's root) group @i or below it? */
static __always_inline bool ct_cg_path_under(const char *path, __u32 i)
{
	__u32 len = ct_cg_path_len[i], j;

	if (len >= CT_CGROUP_PATH_LEN)
		return false;
	for (j = 0; j < CT_CGROUP_PATH_LEN; j++) {
		if (j >= len)
			break;
		if (path[j] != ct_cg_path[i][j])
			return false;
	}
	return path[len] == '\0' || path[len] == '/';
}

/*
 * -G: is the group at @path (from the hierarchy's root) one of ours or
 * below one? Paths are compared, not ids: whether a group is below
 * another is not asked of the kernel from here.
 */
static __always_inline bool ct_cg_path_ok(const char *path)
{
	__u32 i;

	for (i = 0; i < CT_MAX_CGROUPS; i++) {
		if (i >= ct_filter_cgroups)
			break;
		if (ct_cg_path_under(path, i))
			return true;
	}
	return false;
}

/* @tid moved to group @id: announce it (unless filtered out) */
static __always_inline void
ct_emit_task_cgroup(struct trace_event_raw_cgroup_migrate *ctx, __u32 tid)
{
	__u32 cpu;
	__u32 *seen;
	struct ct_task_cgroup *rec;

	if (!ct_tracing || !ct_cpu_ok() ||
	    !ct_task_ok(tid, (void *)ctx + (ctx->__data_loc_comm & 0xffff))) {
		ct_count_filtered(CT_EV_TASK_CGROUP);
		return;
	}
	rec = ct_reserve(CT_EV_TASK_CGROUP, sizeof(*rec), &cpu);
	seen = ct_announced_slot(tid);
	if (!rec) {
		ct_count_lost(CT_EV_TASK_CGROUP);
		if (seen && *seen == (tid | CT_GROUP_TOLD))
			*seen = tid;	/* its next switch tells it */
		return;
	}
	ct_fill_hdr(rec, CT_EV_TASK_CGROUP, cpu);
	rec->pid = tid;
	rec->cgroup_id = ctx->dst_id;
	ct_submit(rec);
	/* told, once its name is known too */
	if (seen && *seen == tid)
		*seen = tid | CT_GROUP_TOLD;
}

/*
 * A task moved to another group (cgroup.procs, cgroup.threads; a v1
 * hierarchy's moves are not looked at): its new group is announced, and
 * -G judges it again by its new group's path.
 */
SEC("tp/cgroup/cgroup_attach_task")
int handle_cgroup_attach_task(struct trace_event_raw_cgroup_migrate *ctx)
{
	__u32 loc = ctx->__data_loc_dst_path, zero = 0;
	__u32 tid = ctx->pid;
	char *path;

	if (ctx->dst_root != 0)		/* 0: the cgroup v2 hierarchy */
		return 0;
	if (ct_filter_cgroups) {
		path = bpf_map_lookup_elem(&ct_cg_scratch, &zero);
		if (!path ||
		    bpf_probe_read_kernel_str(path, CT_CGROUP_PATH_LEN,
					      (void *)ctx + (loc & 0xffff)) <= 0)
			return 0;
		ct_cg_remember(tid, ct_cg_path_ok(path));
	}
	if (ct_cgroup_records)
		ct_emit_task_cgroup(ctx, tid);
	return 0;
}

/* A group made or renamed: its id and path, for user space's names */
static __always_inline int ct_emit_cgroup_name(struct trace_event_raw_cgroup *ctx)
{
	__u32 cpu;
	struct ct_cgroup_name *rec;

	if (!ct_tracing || ctx->root != 0)
		return 0;
	rec = ct_reserve(CT_EV_CGROUP_NAME, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_CGROUP_NAME);
		return 0;
	}
	ct_fill_hdr(rec, CT_EV_CGROUP_NAME, cpu);
	rec->level = ctx->level;
	rec->cgroup_id = ctx->id;
	if (bpf_probe_read_kernel_str(rec->path, sizeof(rec->path),
				      (void *)ctx + (ctx->__data_loc_path & 0xffff)) < 0)
		rec->path[0] = '\0';
	ct_submit(rec);
	return 0;
}

SEC("tp/cgroup/cgroup_mkdir")
int handle_cgroup_mkdir(struct trace_event_raw_cgroup *ctx)
{
	return ct_emit_cgroup_name(ctx);
}

SEC("tp/cgroup/cgroup_rename")
int handle_cgroup_rename(struct trace_event_raw_cgroup *ctx)
{
	return ct_emit_cgroup_name(ctx);
}

/* serve: the time each CPU spends in each idle state */
static __always_inline int ct_agg_idle(struct trace_event_raw_cpu *ctx)
{
	__u32 state = ctx->state, was;
	struct ct_agg_ctx a;

	if (!ct_agg_begin(&a, CT_EV_CPU_IDLE))
		return 0;
	if (state != (__u32)CT_IDLE_EXIT) {
		a.row->idle_since = a.now;
		a.row->idle_state = state;
		return 0;
	}
	if (!a.row->idle_since)
		return 0;	/* idle since before serving began */
	was = a.row->idle_state;
	if (was < CT_IDLE_STATES) {
		a.row->idle_ns[was] += a.now - a.row->idle_since;
		a.row->idle_entries[was]++;
	} else {
		ct_agg_lost(&a);
	}
	a.row->idle_since = 0;
	return 0;
}

/* serve: interrupt handlers' time per irq (they do not nest) */
static __always_inline int ct_agg_irq(__u32 event_type, __u32 irq)
{
	struct ct_agg_irq *sum, zero = {};
	struct ct_agg_ctx a;
	__u64 ran;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	if (event_type == CT_EV_IRQ_HANDLER_ENTRY) {
		a.row->irq_since = a.now;
		a.row->irq = irq;
		return 0;
	}
	if (!a.row->irq_since || a.row->irq != irq)
		return 0;
	ran = a.now - a.row->irq_since;
	a.row->irq_since = 0;
	sum = bpf_map_lookup_elem(&ct_agg_irqs, &irq);
	if (!sum) {
		bpf_map_update_elem(&ct_agg_irqs, &irq, &zero, BPF_NOEXIST);
		sum = bpf_map_lookup_elem(&ct_agg_irqs, &irq);
	}
	if (!sum) {
		ct_agg_lost(&a);
		return 0;
	}
	__sync_fetch_and_add(&sum->ns, ran);
	__sync_fetch_and_add(&sum->count, 1);
	return 0;
}

/* serve: softirq time per vector, on this CPU's row */
static __always_inline int ct_agg_softirq(__u32 event_type, __u32 vec)
{
	struct ct_agg_ctx a;

	if (!ct_agg_begin(&a, event_type))
		return 0;
	if (event_type == CT_EV_SOFTIRQ_ENTRY) {
		a.row->softirq_since = a.now;
		a.row->softirq_vec = vec;
		return 0;
	}
	if (!a.row->softirq_since || a.row->softirq_vec != vec)
		return 0;
	if (vec < CT_SOFTIRQS) {
		a.row->softirq_ns[vec] += a.now - a.row->softirq_since;
		a.row->softirq_count[vec]++;
	} else {
		ct_agg_lost(&a);
	}
	a.row->softirq_since = 0;
	return 0;
}

/* cpu_idle's and cpu_frequency's records have the same fields */
static __always_inline int ct_emit_cpu_state(__u32 event_type,
					     struct trace_event_raw_cpu *ctx)
{
	__u32 cpu;
	struct ct_cpu_idle *rec;

	_Static_assert(sizeof(struct ct_cpu_idle) ==
		       sizeof(struct ct_cpu_frequency), "one layout");

	if (!ct_want(event_type, ct_current_tid(), NULL))
		return 0;
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		return 0;
	}
	ct_fill_hdr(rec, event_type, cpu);
	rec->state = ctx->state;
	rec->cpu_id = ctx->cpu_id;
	ct_submit(rec);
	return 0;
}

SEC("tp/power/cpu_idle")
int handle_cpu_idle(struct trace_event_raw_cpu *ctx)
{
	if (ct_aggregate)
		return ct_agg_idle(ctx);
	return ct_emit_cpu_state(CT_EV_CPU_IDLE, ctx);
}

SEC("tp/power/cpu_frequency")
int handle_cpu_frequency(struct trace_event_raw_cpu *ctx)
{
	return ct_emit_cpu_state(CT_EV_CPU_FREQUENCY, ctx);
}

/* Tell user space the name of @irq's handler, once. */
static __always_inline void
ct_announce_irq(__u32 irq, struct trace_event_raw_irq_handler_entry *ctx)
{
	__u32 cpu;
	__u32 loc = ctx->__data_loc_name;
	struct ct_irq_name *rec;
	__u8 one = 1;

	if (bpf_map_lookup_elem(&ct_irq_announced, &irq))
		return;
	rec = ct_reserve(CT_EV_IRQ_NAME, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_IRQ_NAME);
		return;
	}
	ct_fill_hdr(rec, CT_EV_IRQ_NAME, cpu);
	rec->irq = irq;
	if (bpf_probe_read_kernel_str(rec->name, sizeof(rec->name),
				      (void *)ctx + (loc & 0xffff)) < 0)
		rec->name[0] = '\0';
	ct_submit(rec);
	bpf_map_update_elem(&ct_irq_announced, &irq, &one, BPF_ANY);
}

SEC("tp/irq/irq_handler_entry")
int handle_irq_handler_entry(struct trace_event_raw_irq_handler_entry *ctx)
{
	__u32 cpu;
	__u32 irq = ctx->irq;
	struct ct_irq_entry *rec;
	__u64 now;

	if (ct_aggregate)
		return ct_agg_irq(CT_EV_IRQ_HANDLER_ENTRY, irq);
	if (!ct_want(CT_EV_IRQ_HANDLER_ENTRY, ct_current_tid(), NULL))
		return 0;
	ct_announce_irq(irq, ctx);
	rec = ct_reserve(CT_EV_IRQ_HANDLER_ENTRY, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_IRQ_HANDLER_ENTRY);
		return 0;
	}
	now = ct_fill_hdr(rec, CT_EV_IRQ_HANDLER_ENTRY, cpu);
	rec->irq = irq;
	ct_trig_enter(0, irq, now);
	ct_submit(rec);
	return 0;
}

SEC("tp/irq/irq_handler_exit")
int handle_irq_handler_exit(struct trace_event_raw_irq_handler_exit *ctx)
{
	__u32 cpu;
	struct ct_irq_exit *rec;
	__u64 now;

	if (ct_aggregate)
		return ct_agg_irq(CT_EV_IRQ_HANDLER_EXIT, ctx->irq);
	if (!ct_want(CT_EV_IRQ_HANDLER_EXIT, ct_current_tid(), NULL))
		return 0;
	rec = ct_reserve(CT_EV_IRQ_HANDLER_EXIT, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(CT_EV_IRQ_HANDLER_EXIT);
		return 0;
	}
	now = ct_fill_hdr(rec, CT_EV_IRQ_HANDLER_EXIT, cpu);
	rec->irq = ctx->irq;
	rec->ret = ctx->ret;
	ct_submit(rec);
	ct_trig_leave(0, CT_TRIG_IRQ, now);
	return 0;
}

/* A softirq's entry or exit, for --trigger-irq */
static __always_inline void ct_trig_softirq(__u32 event_type, __u32 vec, __u64 now)
{
	if (event_type == CT_EV_SOFTIRQ_ENTRY)
		ct_trig_enter(1, vec, now);
	else
		ct_trig_leave(1, CT_TRIG_SOFTIRQ, now);
}

static __always_inline int ct_emit_softirq(__u32 event_type,
					   struct trace_event_raw_softirq *ctx)
{
	__u32 cpu;
	struct ct_softirq *rec;
	__u64 now;

	if (ct_aggregate)
		return ct_agg_softirq(event_type, ctx->vec);
	if (!ct_want(event_type, ct_current_tid(), NULL))
		return 0;
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		return 0;
	}
	now = ct_fill_hdr(rec, event_type, cpu);
	rec->vec = ctx->vec;
	ct_submit(rec);
	ct_trig_softirq(event_type, ctx->vec, now);
	return 0;
}

SEC("tp/irq/softirq_entry")
int handle_softirq_entry(struct trace_event_raw_softirq *ctx)
{
	return ct_emit_softirq(CT_EV_SOFTIRQ_ENTRY, ctx);
}

SEC("tp/irq/softirq_exit")
int handle_softirq_exit(struct trace_event_raw_softirq *ctx)
{
	return ct_emit_softirq(CT_EV_SOFTIRQ_EXIT, ctx);
}

/*
 * Timer and work functions: an entry names the function and the timer or
 * work item, an exit the timer or work item (the entries' and exits'
 * records share their layout up to it).
 */
_Static_assert(sizeof(struct ct_timer_entry) == sizeof(struct ct_hrtimer_entry) &&
	       sizeof(struct ct_timer_entry) == sizeof(struct ct_work_start) &&
	       sizeof(struct ct_timer_exit) == sizeof(struct ct_hrtimer_exit) &&
	       sizeof(struct ct_timer_exit) == sizeof(struct ct_work_end),
	       "timer and work records share their layouts");

static __always_inline int ct_emit_function(__u32 event_type, void *function,
					    void *object)
{
	__u32 cpu;
	struct ct_timer_entry *rec;

	if (!ct_want(event_type, ct_current_tid(), NULL))
		return 0;
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		return 0;
	}
	ct_fill_hdr(rec, event_type, cpu);
	rec->function = (__u64)function;
	rec->timer = (__u64)object;
	ct_submit(rec);
	return 0;
}

static __always_inline int ct_emit_function_end(__u32 event_type, void *object)
{
	__u32 cpu;
	struct ct_timer_exit *rec;

	if (!ct_want(event_type, ct_current_tid(), NULL))
		return 0;
	rec = ct_reserve(event_type, sizeof(*rec), &cpu);
	if (!rec) {
		ct_count_lost(event_type);
		return 0;
	}
	ct_fill_hdr(rec, event_type, cpu);
	rec->timer = (__u64)object;
	ct_submit(rec);
	return 0;
}

SEC("tp/timer/timer_expire_entry")
int handle_timer_expire_entry(struct trace_event_raw_timer_expire_entry *ctx)
{
	return ct_emit_function(CT_EV_TIMER_EXPIRE_ENTRY, ctx->function,
				ctx->timer);
}

SEC("tp/timer/timer_expire_exit")
int handle_timer_expire_exit(struct trace_event_raw_timer_class *ctx)
{
	return ct_emit_function_end(CT_EV_TIMER_EXPIRE_EXIT, ctx->timer);
}

SEC("tp/timer/hrtimer_expire_entry")
int handle_hrtimer_expire_entry(struct trace_event_raw_hrtimer_expire_entry *ctx)
{
	return ct_emit_function(CT_EV_HRTIMER_EXPIRE_ENTRY, ctx->function,
				ctx->hrtimer);
}

SEC("tp/timer/hrtimer_expire_exit")
int handle_hrtimer_expire_exit(struct trace_event_raw_hrtimer_class *ctx)
{
	return ct_emit_function_end(CT_EV_HRTIMER_EXPIRE_EXIT, ctx->hrtimer);
}

SEC("tp/workqueue/workqueue_execute_start")
int handle_workqueue_execute_start(struct trace_event_raw_workqueue_execute_start *ctx)
{
	return ct_emit_function(CT_EV_WORKQUEUE_EXECUTE_START, ctx->function,
				ctx->work);
}

SEC("tp/workqueue/workqueue_execute_end")
int handle_workqueue_execute_end(struct trace_event_raw_workqueue_execute_end *ctx)
{
	return ct_emit_function_end(CT_EV_WORKQUEUE_EXECUTE_END, ctx->work);
}
