// SPDX-License-Identifier: GPL-2.0
/*
 * Timers and work: timer, hrtimer and workqueue functions as they run
 * (timer:*_expire_entry/exit, workqueue:workqueue_execute_start/end).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"

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
