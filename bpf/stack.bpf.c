// SPDX-License-Identifier: GPL-2.0
/*
 * record -g: call stacks. At sched_switch, the stack of the task leaving
 * the CPU (where it blocked, or was preempted); at sched_waking, the
 * stack of the waker (from where it made a task runnable). Programs of
 * their own on the same tracepoints, loaded only with -g and attached
 * after the record handlers, so that on its CPU a ct_callchain record
 * follows the record it belongs to, and without -g the handlers are
 * what they are without it.
 *
 * A stack is walked into a CPU's scratch, hashed, and looked up in
 * ct_stack_ids; a stack not found there gets the next id and its frames
 * go to the ring first (a message, ct_control.h), then into the table:
 * a CPU that finds an id finds one whose frames are ahead of it in the
 * ring. Two CPUs meeting a new stack at once each send it, under ids of
 * their own. A stack that could not be walked or sent is counted lost
 * (ct_stats, CT_STATS_KSTACK/USTACK) and its record says 0; so is one
 * whose record found no room. So stacks attempted = those records carry
 * + lost + none (a kernel thread's user stack).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "helpers/filter.h"
#include "helpers/announce.h"

#define CT_HASH_MUL		0x9e3779b97f4a7c15ull
#define CT_KSTACK_SEED		0x6b73746b00000000ull
#define CT_USTACK_SEED		0x7573746b00000000ull

/* -p/-t/-c/-C/-G as the record handler applied them, counting nothing */
static __always_inline bool ct_stack_wanted(__u32 tid_a, const char *comm_a,
					    __u32 tid_b, const char *comm_b)
{
	if (!ct_tracing)
		return false;
	if (!ct_checks)
		return true;
	return ct_cpu_ok() && (ct_task_ok(tid_a, comm_a) ||
			       (comm_b && ct_task_ok(tid_b, comm_b)));
}

/* A 64-bit hash of @n words at @words */
static __always_inline __u64 ct_stack_hash(const __u64 *words, __u32 n,
					   __u64 h)
{
	__u32 i;

	for (i = 0; i < CT_KSTACK_DEPTH; i++) {
		if (i >= n)
			break;
		h ^= words[i];
		h *= CT_HASH_MUL;
		h ^= h >> 29;
	}
	return h;
}

/*
 * The id of the current task's stack, kernel or @user, sent first when
 * new; 0 when there is none (a kernel thread has no user stack) or it
 * was lost (counted).
 */
static __always_inline __u32 ct_take_stack(void *ctx, bool user, __u32 tgid,
					   __u32 cpu)
{
	struct ct_counts *counts = ct_counts_at(cpu, user ? CT_STATS_USTACK :
						CT_STATS_KSTACK);
	struct ct_stack_scratch *sc;
	__u32 zero = 0, id, *known;
	void *ring;
	__u64 key;
	long bytes;

	if (counts)
		counts->attempted++;
	sc = bpf_map_lookup_elem(&ct_stack_scratch, &zero);
	if (!sc)
		goto lost;
	if (user)
		bytes = bpf_get_stack(ctx, sc->frames, CT_USTACK_DEPTH * 8,
				      BPF_F_USER_STACK);
	else
		bytes = bpf_get_stack(ctx, sc->frames, CT_KSTACK_DEPTH * 8, 0);
	if (bytes == 0 && user) {
		if (counts)
			counts->filtered++;
		return 0;
	}
	if (bytes <= 0)
		goto lost;
	key = ct_stack_hash(sc->frames, (__u32)bytes / 8,
			    user ? CT_USTACK_SEED | tgid : CT_KSTACK_SEED);
	/* each CPU's ring gives its own stacks: they are read ring by ring */
	if (ct_per_cpu_rings)
		key ^= (__u64)(cpu + 1) << 40;
	known = bpf_map_lookup_elem(&ct_stack_ids, &key);
	if (known)
		return *known;

	/* new: its frames to the ring, then its id to the table */
	if (user) {
		bytes = bpf_get_stack(ctx, sc->frames,
				      CT_USTACK_DEPTH * sizeof(struct ct_uframe),
				      BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
		if (bytes <= 0)
			goto lost;
	}
	id = __sync_fetch_and_add(&ct_stack_next_id, 1) + 1;
	ct_fill_hdr(&sc->msg, user ? CT_REC_USTACK : CT_REC_KSTACK, cpu);
	sc->msg.id = id;
	sc->msg.tgid = user ? tgid : 0;
	sc->msg.nr = (__u32)bytes / (user ? sizeof(struct ct_uframe) : 8);
	sc->msg.reserved[0] = 0;
	sc->msg.reserved[1] = 0;
	ring = ct_ring_of(cpu);
	/*
	 * A new user stack wakes the reader: it reads the process's maps to
	 * learn the files of the frames, and a short-lived process is gone
	 * soon (a new stack is rare once a program has run a while)
	 */
	if (!ring || bytes > (long)sizeof(sc->frames) ||
	    bpf_ringbuf_output(ring, sc, sizeof(sc->msg) + bytes,
			       user ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP))
		goto lost;
	bpf_map_update_elem(&ct_stack_ids, &key, &id, BPF_ANY);
	return id;
lost:
	if (counts)
		counts->lost++;
	return 0;
}

static __always_inline void ct_count_stack_lost(__u32 cpu, __u32 slot,
						__u32 id)
{
	struct ct_counts *counts;

	if (!id)
		return;
	counts = ct_counts_at(cpu, slot);
	if (counts)
		counts->lost++;
}

/* The stacks of the current task and the record that gives them */
static __always_inline void ct_emit_callchain(void *ctx, __u8 event,
					      __u32 pid, __u32 target)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	__u32 kstack = 0, ustack = 0;
	struct ct_callchain *rec;

	if (ct_stacks & CT_STACK_KERNEL)
		kstack = ct_take_stack(ctx, false, tgid, cpu);
	if ((ct_stacks & CT_STACK_USER) && pid)
		ustack = ct_take_stack(ctx, true, tgid, cpu);
	rec = ct_reserve(CT_EV_CALLCHAIN, sizeof(*rec), &cpu);
	if (!rec) {
		/* the stacks taken are lost with the record that had them */
		ct_count_lost(CT_EV_CALLCHAIN);
		ct_count_stack_lost(cpu, CT_STATS_KSTACK, kstack);
		ct_count_stack_lost(cpu, CT_STATS_USTACK, ustack);
		return;
	}
	ct_fill_hdr(rec, CT_EV_CALLCHAIN, cpu);
	rec->pid = pid;
	rec->target = target;
	rec->kstack = kstack;
	rec->ustack = ustack;
	rec->event = event;
	ct_submit(rec);
}

SEC("tp/sched/sched_switch")
int stack_sched_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u32 prev_pid = ctx->prev_pid;

	/* the idle task's own stack says nothing */
	if (!prev_pid || !ct_stack_wanted(prev_pid, ctx->prev_comm,
					  ctx->next_pid, ctx->next_comm))
		return 0;
	ct_emit_callchain(ctx, CT_EV_SCHED_SWITCH, prev_pid, ctx->next_pid);
	return 0;
}

SEC("tp/sched/sched_waking")
int stack_sched_waking(struct trace_event_raw_sched_wakeup_template *ctx)
{
	__u32 waker = ct_current_tid();

	if (!ct_stack_wanted(ctx->pid, ctx->comm, 0, 0))
		return 0;
	/* the waker is named like any task a record is about */
	ct_announce_task(waker, 0, true);
	ct_emit_callchain(ctx, CT_EV_SCHED_WAKING, waker, ctx->pid);
	return 0;
}
