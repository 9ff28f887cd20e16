// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers in user space (trigger.h): no work per event here; only the
 * rare ct_trigger record BPF sends when a condition held.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "commands/trigger.h"

void ct_trigger_init(struct ct_trigger_ctl *ctl,
		     const struct ct_trigger_opts *opts)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->opts = opts;
}

/* @name as printable ASCII without quotes or backslashes, into @buf */
static const char *ct_plain_name(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name && name[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)name[i] < 0x20 ||
			 (unsigned char)name[i] > 0x7e || name[i] == '"' ||
			 name[i] == '\\' ? '?' : name[i];
	buf[i] = '\0';
	return buf;
}

const char *ct_trigger_describe(const struct ct_trigger *t,
				const struct ct_names *names, char *buf,
				size_t len)
{
	const char *raw = ct_comm_cache_get(&names->comms, t->pid);
	char comm[CT_COMM_LEN + 1], irq[CT_IRQ_NAME_LEN + 1];
	double ms = (double)t->value_ns / 1e6;

	ct_plain_name(raw ? raw : "?", comm, sizeof(comm));
	switch (t->kind) {
	case CT_TRIG_DELAY:
		snprintf(buf, len, "sched delay: tid %u (%s) waited %.3f ms to run on CPU %u",
			 t->pid, comm, ms, t->cpu);
		break;
	case CT_TRIG_IRQ:
		ct_plain_name(ct_irq_names_get(&names->irqs, t->source), irq,
			      sizeof(irq));
		snprintf(buf, len, "irq: irq %u (%s) ran %.3f ms on CPU %u",
			 t->source, irq[0] ? irq : "?", ms, t->cpu);
		break;
	case CT_TRIG_SOFTIRQ:
		snprintf(buf, len, "softirq: %s ran %.3f ms on CPU %u",
			 ct_softirq_name(t->source), ms, t->cpu);
		break;
	case CT_TRIG_EXEC:
		snprintf(buf, len, "exec: %s by tid %u on CPU %u", comm,
			 t->pid, t->cpu);
		break;
	default:
		snprintf(buf, len, "trigger of unknown kind %u", t->kind);
		break;
	}
	return buf;
}

void ct_trigger_seen(struct ct_trigger_ctl *ctl, const struct ct_trigger *t,
		     const struct ct_names *names)
{
	const struct ct_trigger_opts *o = ctl->opts;
	uint64_t cooldown = (uint64_t)(o->cooldown * 1e9);
	uint64_t began = ct_ts(t) - t->value_ns;

	if (!ctl->earliest_ns || began < ctl->earliest_ns)
		ctl->earliest_ns = began;
	if (ctl->pending) {
		ctl->merged++;
		return;
	}
	if ((o->max && ctl->taken >= o->max) ||
	    (ctl->taken && ct_ts(t) < ctl->fired_ns + cooldown)) {
		ctl->refused++;
		return;
	}
	ctl->pending = true;
	ctl->fired_ns = ct_ts(t);
	ctl->due_ns = ct_ts(t) + (uint64_t)(o->after * 1e9);
	ct_trigger_describe(t, names, ctl->reason, sizeof(ctl->reason));
}

int ct_trigger_poll(struct ct_trigger_ctl *ctl, struct ct_output *out,
		    uint64_t now_ns, bool force)
{
	uint64_t before = (uint64_t)(ctl->opts->before * 1e9), since = 0;
	char reason[sizeof(ctl->reason) + 16];
	int err;

	if (!ctl->pending || (!force && now_ns < ctl->due_ns))
		return 0;
	if (before)
		since = ctl->fired_ns > before ? ctl->fired_ns - before : 1;
	snprintf(reason, sizeof(reason), "trigger %s", ctl->reason);
	ctl->pending = false;
	ctl->taken++;
	err = ct_output_snapshot(out, reason, since);
	return err;
}
