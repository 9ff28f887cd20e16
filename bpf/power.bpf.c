// SPDX-License-Identifier: GPL-2.0
/*
 * Power: CPU idle states and frequencies (power:cpu_idle,
 * cpu_frequency).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "helpers/filter.h"

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
	return ct_emit_cpu_state(CT_EV_CPU_IDLE, ctx);
}

SEC("tp/power/cpu_frequency")
int handle_cpu_frequency(struct trace_event_raw_cpu *ctx)
{
	return ct_emit_cpu_state(CT_EV_CPU_FREQUENCY, ctx);
}

