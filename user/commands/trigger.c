// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers in user space (trigger.h): no work per event here; only the
 * rare ct_trigger record BPF sends when a condition held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/trigger.h"

void ct_trigger_init(struct ct_trigger_ctl *ctl,
		     const struct ct_trigger_opts *opts)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->opts = opts;
}

int ct_trigger_keep_stacks(struct ct_trigger_ctl *ctl)
{
	ctl->stacks = calloc(CT_TRIG_STACK_SLOTS, sizeof(*ctl->stacks));
	return ctl->stacks ? 0 : -ENOMEM;
}

void ct_trigger_free(struct ct_trigger_ctl *ctl)
{
	free(ctl->stacks);
	ctl->stacks = NULL;
}

static struct ct_trig_stacks *ct_trig_slot(const struct ct_trigger_ctl *ctl,
					   uint32_t pid)
{
	return ctl->stacks ? &ctl->stacks[pid & (CT_TRIG_STACK_SLOTS - 1)] : NULL;
}

void ct_trigger_callchain(struct ct_trigger_ctl *ctl,
			  const struct ct_callchain *c)
{
	struct ct_trig_stacks *t;

	if (c->event == CT_EV_SCHED_SWITCH) {
		t = ct_trig_slot(ctl, c->pid);
		if (t)
			*t = (struct ct_trig_stacks){ c->pid, c->kstack, c->ustack,
						      0, 0, 0 };
		return;
	}
	t = ct_trig_slot(ctl, c->target);
	if (!t || c->event != CT_EV_SCHED_WAKING)
		return;
	if (t->pid != c->target)
		*t = (struct ct_trig_stacks){ .pid = c->target };
	t->waker = c->pid;
	t->waker_kstack = c->kstack;
	t->waker_ustack = c->ustack;
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

/* "; left the CPU in X, woken by tid N (name) in Y", or nothing */
static void ct_trigger_where(const struct ct_trigger_ctl *ctl, uint32_t pid,
			     const struct ct_names *names, char *buf, size_t len)
{
	const struct ct_trig_stacks *t = ct_trig_slot(ctl, pid);
	char left[160], woke[160], comm[CT_COMM_LEN + 1];
	size_t n = strlen(buf);

	if (!t || t->pid != pid || n >= len)
		return;
	ct_stack_where(&names->pctx, t->kstack, t->ustack, left, sizeof(left));
	ct_stack_where(&names->pctx, t->waker_kstack, t->waker_ustack, woke,
		       sizeof(woke));
	ct_plain_name(ct_comm_cache_get(&names->comms, t->waker), comm,
		      sizeof(comm));
	if (left[0])
		n += (size_t)snprintf(buf + n, len - n, "; left the CPU in %s", left);
	if (t->waker && n < len)
		snprintf(buf + n, len - n, "%s woken by tid %u (%s)%s%s",
			 left[0] ? "," : ";", t->waker, comm[0] ? comm : "?",
			 woke[0] ? " in " : "", woke);
}

const char *ct_trigger_describe(const struct ct_trigger_ctl *ctl,
				const struct ct_trigger *t,
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
		ct_trigger_where(ctl, t->pid, names, buf, len);
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
	ct_trigger_describe(ctl, t, names, ctl->reason, sizeof(ctl->reason));
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
