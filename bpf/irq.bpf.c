// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts: hardware interrupt handlers (irq:irq_handler_entry, _exit)
 * and softirqs (irq:softirq_entry, softirq_exit).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"
#include "helpers/trigger.h"

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

static __always_inline int ct_emit_softirq(__u32 event_type,
					   struct trace_event_raw_softirq *ctx)
{
	__u32 cpu;
	struct ct_softirq *rec;
	__u64 now;

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

