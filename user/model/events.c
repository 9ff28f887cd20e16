// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding and printing of ct_abi.h records. The descriptor table is
 * generated from CT_EVENT_TABLE, so every row there has exactly one
 * decoder size and one printer per format here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/htab.h"
#include "model/events.h"

void ct_buf_printf(struct ct_buf *b, const char *fmt, ...)
{
	size_t room = b->pos < b->len ? b->len - b->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->p + b->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n;
}

static void ct_buf_putc(struct ct_buf *b, char c)
{
	if (b->pos + 1 < b->len) {
		b->p[b->pos] = c;
		b->p[b->pos + 1] = '\0';
	}
	b->pos++;
}

void ct_buf_json_str(struct ct_buf *b, const char *s, size_t max)
{
	size_t i;

	ct_buf_putc(b, '"');
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			ct_buf_putc(b, '\\');
			ct_buf_putc(b, (char)c);
		} else if (c < 0x20 || c >= 0x7f) {
			/* comms are bytes, not UTF-8: escape what is not ASCII */
			ct_buf_printf(b, "\\u%04x", c);
		} else {
			ct_buf_putc(b, (char)c);
		}
	}
	ct_buf_putc(b, '"');
}

/*
 * Text for a terminal: a control byte, a byte outside ASCII (task names are
 * bytes, not UTF-8) and a backslash become \xNN, as ls -b and systemd write
 * them, so no process can make coretrace send escape sequences to the
 * terminal of whoever reads its output. Copies @n bytes of @src (stopping at
 * a NUL) to @dst, cut to @cap - 1 bytes and terminated; returns the length.
 */
size_t ct_text_escape(char *dst, size_t cap, const char *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, pos = 0;

	if (!cap)
		return 0;
	for (i = 0; i < n && src[i]; i++) {
		unsigned char c = (unsigned char)src[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (pos + 1 >= cap)
				break;
			dst[pos++] = (char)c;
			continue;
		}
		if (pos + 4 >= cap)
			break;
		dst[pos++] = '\\';
		dst[pos++] = 'x';
		dst[pos++] = hex[c >> 4];
		dst[pos++] = hex[c & 0xf];
	}
	dst[pos] = '\0';
	return pos;
}

/* Writes @n bytes of @line and a newline, escaped for a terminal. */
void ct_put_text_line(FILE *out, const char *line, size_t n)
{
	char escaped[4 * 1024 + 1];
	size_t len;

	if (ct_text_needs_escape(line, n)) {
		len = ct_text_escape(escaped, sizeof(escaped), line, n);
		fwrite(escaped, 1, len, out);
	} else {
		fwrite(line, 1, n, out);
	}
	fputc('\n', out);
}

/* True when @s (up to @n bytes) needs ct_text_escape. */
bool ct_text_needs_escape(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			return true;
	}
	return false;
}

const char *ct_task_state_str(unsigned int state, char *buf, size_t len)
{
	static const char letters[] = "SDTtXZPI";
	struct ct_buf b = { buf, len, 0 };
	unsigned int bit;

	if (len)
		buf[0] = '\0';
	if (!(state & 0xff)) {
		ct_buf_putc(&b, 'R');
	} else {
		for (bit = 0; bit < 8; bit++) {
			if (!(state & (1u << bit)))
				continue;
			if (b.pos)
				ct_buf_putc(&b, '|');
			ct_buf_putc(&b, letters[bit]);
		}
	}
	if (state & CT_STATE_PREEMPTED)
		ct_buf_putc(&b, '+');
	return buf;
}

/* "comm-pid [cpu] secs.usecs: event: ", the ftrace convention */
static void ct_text_prefix(struct ct_buf *b, const union ct_record *rec,
			   uint32_t task_pid, const struct ct_print_ctx *pctx)
{
	char name[CT_COMM_LEN + 16];
	unsigned long long ts = ct_ts(rec);

	ct_buf_printf(b, "%16s-%-7u [%03u] %5llu.%06llu: %s: ",
		      ct_comm_name(pctx->comms, task_pid, rec->hdr.cpu,
				   name, sizeof(name)),
		      task_pid, rec->hdr.cpu, ts / 1000000000ull,
		      ts % 1000000000ull / 1000ull,
		      ct_events[rec->hdr.type].name);
}

/* the name a switch carries for the task it switches in */
static const char *ct_next_name(const struct ct_sched_switch *sw, char *buf,
				size_t len)
{
	size_t n = strnlen(sw->next_comm, sizeof(sw->next_comm));

	snprintf(buf, len, "%.*s", (int)n, sw->next_comm);
	return buf;
}

static void ct_text_sched_switch(struct ct_buf *b, const union ct_record *rec,
				 const struct ct_print_ctx *pctx)
{
	const struct ct_sched_switch *sw = &rec->sched_switch;
	char prev[CT_COMM_LEN + 16], next[CT_COMM_LEN + 16], state[24];

	ct_text_prefix(b, rec, sw->prev_pid, pctx);
	ct_buf_printf(b, "%s:%u [%u] %s ==> %s:%u [%u]",
		      ct_comm_name(pctx->comms, sw->prev_pid, sw->cpu,
				   prev, sizeof(prev)),
		      sw->prev_pid, sw->prev_prio,
		      ct_task_state_str(sw->prev_state, state, sizeof(state)),
		      ct_next_name(sw, next, sizeof(next)),
		      sw->next_pid, sw->next_prio);
	if (sw->flags & CT_F_PID_MISMATCH)
		ct_buf_printf(b, " (prev_pid is not the current task)");
}

static void ct_text_task_rename(struct ct_buf *b, const union ct_record *rec,
				const struct ct_print_ctx *pctx)
{
	const struct ct_task_rename *rn = &rec->task_rename;
	char old[CT_COMM_LEN + 16];

	ct_text_prefix(b, rec, rn->pid, pctx);
	ct_buf_printf(b, "pid=%u oldcomm=%s newcomm=%.*s", rn->pid,
		      ct_comm_name(pctx->comms, rn->pid, rn->cpu, old,
				   sizeof(old)),
		      (int)strnlen(rn->newcomm, sizeof(rn->newcomm)), rn->newcomm);
}

/* "comm=NAME pid=N" of @pid, for the events about one task */
static void ct_text_task(struct ct_buf *b, const struct ct_print_ctx *pctx,
			 uint32_t pid, unsigned int cpu)
{
	char name[CT_COMM_LEN + 16];

	ct_buf_printf(b, "comm=%s pid=%u",
		      ct_comm_name(pctx->comms, pid, cpu, name, sizeof(name)),
		      pid);
}

/* the current task is unknown for most events: the prefix names the
 * task the event is about, as perf and trace-cmd name the current one */
static void ct_text_wakeup(struct ct_buf *b, const union ct_record *rec,
			   const struct ct_print_ctx *pctx)
{
	const struct ct_wakeup *w = &rec->wakeup;

	ct_text_prefix(b, rec, w->pid, pctx);
	ct_text_task(b, pctx, w->pid, w->cpu);
	ct_buf_printf(b, " prio=%u target_cpu=%03u", w->prio, w->target_cpu);
}

#define ct_text_sched_wakeup		ct_text_wakeup
#define ct_text_sched_wakeup_new	ct_text_wakeup
#define ct_text_sched_waking		ct_text_wakeup

static void ct_text_sched_migrate_task(struct ct_buf *b,
				       const union ct_record *rec,
				       const struct ct_print_ctx *pctx)
{
	const struct ct_migrate *m = &rec->migrate;

	ct_text_prefix(b, rec, m->pid, pctx);
	ct_text_task(b, pctx, m->pid, m->cpu);
	ct_buf_printf(b, " prio=%u orig_cpu=%u dest_cpu=%u", m->prio,
		      m->orig_cpu, m->dest_cpu);
}

static void ct_text_sched_process_fork(struct ct_buf *b,
				       const union ct_record *rec,
				       const struct ct_print_ctx *pctx)
{
	const struct ct_fork *f = &rec->fork;

	ct_text_prefix(b, rec, f->parent_pid, pctx);
	ct_text_task(b, pctx, f->parent_pid, f->cpu);
	ct_buf_printf(b, " child_comm=%.*s child_pid=%u",
		      (int)strnlen(f->child_comm, sizeof(f->child_comm)),
		      f->child_comm, f->child_pid);
}

static void ct_text_sched_process_exec(struct ct_buf *b,
				       const union ct_record *rec,
				       const struct ct_print_ctx *pctx)
{
	const struct ct_exec *e = &rec->exec;

	ct_text_prefix(b, rec, e->pid, pctx);
	ct_buf_printf(b, "filename=%.*s pid=%u old_pid=%u",
		      (int)strnlen(e->filename, sizeof(e->filename)),
		      e->filename, e->pid, e->old_pid);
}

static void ct_text_sched_process_exit(struct ct_buf *b,
				       const union ct_record *rec,
				       const struct ct_print_ctx *pctx)
{
	const struct ct_exit *e = &rec->exit;

	ct_text_prefix(b, rec, e->pid, pctx);
	ct_text_task(b, pctx, e->pid, e->cpu);
	ct_buf_printf(b, " prio=%u", e->prio);
}

/* the per-CPU events name no task: the prefix shows "-" for it */
static void ct_text_cpu_prefix(struct ct_buf *b, const union ct_record *rec)
{
	unsigned long long ts = ct_ts(rec);

	ct_buf_printf(b, "%16s-%-7s [%03u] %5llu.%06llu: %s: ", "", "",
		      rec->hdr.cpu, ts / 1000000000ull,
		      ts % 1000000000ull / 1000ull,
		      ct_events[rec->hdr.type].name);
}

static void ct_text_cpu_idle(struct ct_buf *b, const union ct_record *rec,
			     const struct ct_print_ctx *pctx)
{
	const struct ct_cpu_idle *c = &rec->cpu_idle;

	(void)pctx;
	ct_text_cpu_prefix(b, rec);
	if (c->state == CT_IDLE_EXIT)
		ct_buf_printf(b, "state=-1 cpu_id=%u (exit)", c->cpu_id);
	else
		ct_buf_printf(b, "state=%u cpu_id=%u", c->state, c->cpu_id);
}

static void ct_text_cpu_frequency(struct ct_buf *b, const union ct_record *rec,
				  const struct ct_print_ctx *pctx)
{
	const struct ct_cpu_frequency *c = &rec->cpu_frequency;

	(void)pctx;
	ct_text_cpu_prefix(b, rec);
	ct_buf_printf(b, "state=%u cpu_id=%u", c->state, c->cpu_id);
}

static const char *ct_irq_name_of(const struct ct_print_ctx *pctx,
				  uint32_t irq)
{
	const char *name = pctx->irqs ? ct_irq_names_get(pctx->irqs, irq) : NULL;

	return name ? name : "?";
}

static void ct_text_irq_handler_entry(struct ct_buf *b,
				      const union ct_record *rec,
				      const struct ct_print_ctx *pctx)
{
	ct_text_cpu_prefix(b, rec);
	ct_buf_printf(b, "irq=%u name=%s", rec->irq_entry.irq,
		      ct_irq_name_of(pctx, rec->irq_entry.irq));
}

static const char *ct_irq_ret_str(int32_t ret)
{
	return ret ? "handled" : "unhandled";
}

static void ct_text_irq_handler_exit(struct ct_buf *b,
				     const union ct_record *rec,
				     const struct ct_print_ctx *pctx)
{
	(void)pctx;
	ct_text_cpu_prefix(b, rec);
	ct_buf_printf(b, "irq=%u ret=%s", rec->irq_exit.irq,
		      ct_irq_ret_str(rec->irq_exit.ret));
}

const char *ct_softirq_name(unsigned int vec)
{
	/* the kernel's softirq_to_name[], in vector order (6.1) */
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : "?";
}

static void ct_text_softirq(struct ct_buf *b, const union ct_record *rec,
			    const struct ct_print_ctx *pctx)
{
	(void)pctx;
	ct_text_cpu_prefix(b, rec);
	ct_buf_printf(b, "vec=%u [action=%s]", rec->softirq.vec,
		      ct_softirq_name(rec->softirq.vec));
}

#define ct_text_softirq_entry	ct_text_softirq
#define ct_text_softirq_exit	ct_text_softirq

const char *ct_function_name(const struct ct_print_ctx *pctx, uint64_t addr)
{
	if (pctx->ksyms)
		return ct_ksyms_lookup(pctx->ksyms, addr);
	return pctx->syms ? ct_symtab_get(pctx->syms, addr) : NULL;
}

static void ct_text_symbol(struct ct_buf *b, const struct ct_print_ctx *pctx,
			   uint64_t addr)
{
	const char *sym = ct_function_name(pctx, addr);

	if (sym)
		ct_buf_printf(b, "function=%s", sym);
	else
		ct_buf_printf(b, "function=0x%llx", (unsigned long long)addr);
}

const char *ct_frame_name(const struct ct_print_ctx *pctx,
			  const struct ct_stack *s, unsigned int i,
			  char *buf, size_t len)
{
	const struct ct_uframe *f;
	const char *name, *module, *base;
	uint64_t ip;

	if (s->user) {
		f = ct_stack_uframe(s, i);
		name = pctx->usyms ? ct_usyms_name(pctx->usyms, f, !i) :
		       NULL;
		if (name)
			return name;
		module = pctx->usyms && f->status == CT_UFRAME_VALID ?
			 ct_usyms_module(pctx->usyms, f->build_id) : NULL;
		if (!module)
			return ct_uframe_str(f, buf, len);
		base = strrchr(module, '/');
		snprintf(buf, len, "%s+0x%llx", base ? base + 1 : module,
			 (unsigned long long)f->offset);
		return buf;
	}
	ip = ct_stack_ip(s, i);
	name = ct_function_name(pctx, ip);
	if (name)
		return name;
	snprintf(buf, len, "0x%llx", (unsigned long long)ip);
	return buf;
}

bool ct_frame_is_scheduler(const char *name)
{
	static const char *const frames[] = {
		"__schedule", "schedule", "preempt_schedule",
		"preempt_schedule_common", "preempt_schedule_irq",
		"preempt_schedule_notrace", "__cond_resched", "_cond_resched",
		"schedule_idle", "try_to_wake_up", "wake_up_process",
		"wake_up_state", "wake_up_q", "__wake_up", "__wake_up_common",
		"__wake_up_common_lock", "__wake_up_sync_key",
		"autoremove_wake_function", "default_wake_function",
	};
	size_t i;

	/* a tracepoint's own function, where a kernel does not inline it */
	if (!strncmp(name, "trace_sched_", 12))
		return true;
	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		if (!strcmp(name, frames[i]))
			return true;
	return false;
}

/* @name into @b, at most @max bytes, what is not plain ASCII as '?' */
static void ct_buf_plain(struct ct_buf *b, const char *name, size_t max)
{
	size_t i;

	for (i = 0; name[i] && i < max; i++) {
		unsigned char c = (unsigned char)name[i];

		ct_buf_putc(b, c < 0x20 || c > 0x7e || c == '"' || c == '\\' ?
			    '?' : (char)c);
	}
}

const char *ct_stack_where(const struct ct_print_ctx *pctx, uint32_t kstack,
			   uint32_t ustack, char *buf, size_t len)
{
	const struct ct_stack *k = NULL, *u = NULL;
	struct ct_buf b = { buf, len, 0 };
	char name[256];
	const char *n;
	unsigned int i, shown = 0;

	if (len)
		buf[0] = '\0';
	if (pctx->stacks) {
		k = kstack ? ct_stacks_get(pctx->stacks, kstack) : NULL;
		u = ustack ? ct_stacks_get(pctx->stacks, ustack) : NULL;
	}
	for (i = 0; k && i < k->nr; i++) {
		n = ct_frame_name(pctx, k, i, name, sizeof(name));
		if (!ct_frame_is_scheduler(n)) {
			ct_buf_plain(&b, n, 64);
			break;
		}
	}
	for (i = 0; u && i < u->nr && shown < 2; i++, shown++) {
		ct_buf_printf(&b, "%s", shown ? " <- " : b.pos ? " (" : "(");
		ct_buf_plain(&b, ct_frame_name(pctx, u, i, name, sizeof(name)), 64);
	}
	if (shown)
		ct_buf_putc(&b, ')');
	return buf;
}

const char *ct_stack_line(const struct ct_print_ctx *pctx, uint32_t kstack,
			  uint32_t ustack, unsigned int max, char *buf,
			  size_t len)
{
	struct ct_buf b = { buf, len, 0 };
	char name[256], escaped[4 * 256 + 1];
	const struct ct_stack *s;
	uint32_t ids[2] = { kstack, ustack };
	unsigned int i, k, shown = 0;
	const char *n;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < 2 && pctx->stacks; k++) {
		s = ids[k] ? ct_stacks_get(pctx->stacks, ids[k]) : NULL;
		for (i = 0; s && i < s->nr && shown < max; i++) {
			n = ct_frame_name(pctx, s, i, name, sizeof(name));
			if (!k && ct_frame_is_scheduler(n))
				continue;
			ct_text_escape(escaped, sizeof(escaped), n, strlen(n));
			ct_buf_printf(&b, "%s%s", shown++ ? " <- " : "", escaped);
		}
	}
	return buf;
}

void ct_json_stack_frames(struct ct_buf *b, const struct ct_print_ctx *pctx,
			  uint32_t id)
{
	const struct ct_stack *s = id && pctx->stacks ?
				   ct_stacks_get(pctx->stacks, id) : NULL;
	char name[256];
	unsigned int i;

	/* a stack the records name but whose frames are not here */
	if (id && !s) {
		ct_buf_printf(b, "null");
		return;
	}
	ct_buf_putc(b, '[');
	for (i = 0; s && i < s->nr; i++) {
		if (i)
			ct_buf_putc(b, ',');
		ct_buf_json_str(b, ct_frame_name(pctx, s, i, name, sizeof(name)),
				sizeof(name));
	}
	ct_buf_putc(b, ']');
}

/* " => frame" lines, each escaped here (the line view writes them as they are) */
static void ct_text_frames(struct ct_buf *b, const struct ct_print_ctx *pctx,
			   uint32_t id)
{
	const struct ct_stack *s;
	char name[256], escaped[4 * 256 + 1];
	unsigned int i;

	if (!id)
		return;
	s = pctx->stacks ? ct_stacks_get(pctx->stacks, id) : NULL;
	if (!s) {
		ct_buf_printf(b, "\n => [stack %u: not in the recording]", id);
		return;
	}
	for (i = 0; i < s->nr; i++) {
		const char *n = ct_frame_name(pctx, s, i, name, sizeof(name));

		ct_text_escape(escaped, sizeof(escaped), n, strlen(n));
		ct_buf_printf(b, "\n => %s", escaped);
	}
}

/*
 * record -g: the stack of a task switched out, or of a waker, on the
 * lines after the record's own, as ftrace's stacktrace option gives
 * them: kernel frames, then user frames, innermost first
 */
static void ct_text_callchain(struct ct_buf *b, const union ct_record *rec,
			      const struct ct_print_ctx *pctx)
{
	const struct ct_callchain *c = &rec->callchain;
	char name[CT_COMM_LEN + 16], line[256], escaped[4 * sizeof(line)];
	struct ct_buf head = { line, sizeof(line), 0 };

	/*
	 * Lines, not a line: all of it is escaped here, the task names too
	 * (a newline in a name must not start a line of its own), and the
	 * line view writes it as it is
	 */
	line[0] = '\0';
	ct_text_prefix(&head, rec, c->pid, pctx);
	ct_buf_printf(&head, "%s of %s:%u (%s %s:%u)",
		      c->event == CT_EV_SCHED_WAKING ? "waker" : "blocked",
		      ct_comm_name(pctx->comms, c->pid, c->cpu, name,
				   sizeof(name)), c->pid,
		      c->event == CT_EV_SCHED_WAKING ? "woke" : "switched to",
		      ct_comm_name(pctx->comms, c->target, c->cpu, name,
				   sizeof(name)), c->target);
	ct_text_escape(escaped, sizeof(escaped), line,
		       head.pos < sizeof(line) ? head.pos : sizeof(line) - 1);
	ct_buf_printf(b, "%s", escaped);
	ct_text_frames(b, pctx, c->kstack);
	ct_text_frames(b, pctx, c->ustack);
}

/*
 * The entries of timers and work items ("function=NAME timer=0x...") and
 * their exits ("timer=0x..."): the object is a timer, an hrtimer or a work
 * item, named after the record's second field.
 */
static void ct_text_function(struct ct_buf *b, const union ct_record *rec,
			     const struct ct_print_ctx *pctx)
{
	const struct ct_event_desc *desc = &ct_events[rec->hdr.type];

	ct_text_cpu_prefix(b, rec);
	ct_text_symbol(b, pctx, rec->timer_entry.function);
	ct_buf_printf(b, " %s=0x%llx", desc->fields[1].json_name,
		      (unsigned long long)rec->timer_entry.timer);
}

static void ct_text_function_end(struct ct_buf *b, const union ct_record *rec,
				 const struct ct_print_ctx *pctx)
{
	const struct ct_event_desc *desc = &ct_events[rec->hdr.type];

	(void)pctx;
	ct_text_cpu_prefix(b, rec);
	ct_buf_printf(b, "%s=0x%llx", desc->fields[0].json_name,
		      (unsigned long long)rec->timer_exit.timer);
}

#define ct_text_timer_expire_entry	ct_text_function
#define ct_text_hrtimer_expire_entry	ct_text_function
#define ct_text_workqueue_execute_start	ct_text_function
#define ct_text_timer_expire_exit	ct_text_function_end
#define ct_text_hrtimer_expire_exit	ct_text_function_end
#define ct_text_workqueue_execute_end	ct_text_function_end

/* name announcements only feed the tables; they print nothing */
#define ct_text_comm NULL
#define ct_text_irq_name NULL
#define ct_text_task_cgroup NULL
#define ct_text_cgroup_name NULL

/* --- JSON: every field of the table, by its kind */

static uint64_t ct_field_uint(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;

	/* little endian, as the records are */
	memcpy(&v, p, size < sizeof(v) ? size : sizeof(v));
	return v;
}

static int64_t ct_field_sint(const unsigned char *p, unsigned int size)
{
	uint64_t v = ct_field_uint(p, size);
	unsigned int bits = size * 8;

	if (bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~0ull << bits;
	return (int64_t)v;
}

static void ct_json_name(struct ct_buf *b, const char *key, const char *value,
			 size_t max)
{
	ct_buf_printf(b, ",\"%s\":", key);
	ct_buf_json_str(b, value, max);
}

static void ct_json_field(struct ct_buf *b, const union ct_record *rec,
			  const struct ct_field *f,
			  const struct ct_print_ctx *pctx)
{
	const unsigned char *p = (const unsigned char *)rec + f->offset;
	uint64_t v = f->kind == CT_FK_STRING ? 0 : ct_field_uint(p, f->size);
	char name[CT_COMM_LEN + 16], state[24];
	const char *sym;

	switch (f->kind) {
	case CT_FK_STRING:
		ct_json_name(b, f->json_name, (const char *)p, f->size);
		return;
	case CT_FK_TASK:
		if (f->companion)
			ct_json_name(b, f->companion,
				     ct_comm_name(pctx->comms, (uint32_t)v,
						  rec->hdr.cpu, name, sizeof(name)),
				     sizeof(name));
		break;
	case CT_FK_STATE:
		ct_buf_printf(b, ",\"%s\":\"%s\"", f->json_name,
			      ct_task_state_str((unsigned int)v, state,
						sizeof(state)));
		return;
	case CT_FK_IDLE:
		ct_buf_printf(b, ",\"%s\":%lld", f->json_name,
			      v == CT_IDLE_EXIT ? -1ll : (long long)v);
		return;
	case CT_FK_IRQ_RET:
		ct_buf_printf(b, ",\"%s\":\"%s\"", f->json_name,
			      ct_irq_ret_str((int32_t)v));
		return;
	case CT_FK_SINT:
		ct_buf_printf(b, ",\"%s\":%lld", f->json_name,
			      (long long)ct_field_sint(p, f->size));
		return;
	case CT_FK_KFUNC:
		sym = ct_function_name(pctx, v);
		if (sym)
			ct_json_name(b, f->json_name, sym, 256);
		else
			ct_buf_printf(b, ",\"%s\":\"0x%llx\"", f->json_name,
				      (unsigned long long)v);
		ct_buf_printf(b, ",\"%s\":\"0x%llx\"", f->companion,
			      (unsigned long long)v);
		return;
	case CT_FK_ADDR:
		ct_buf_printf(b, ",\"%s\":\"0x%llx\"", f->json_name,
			      (unsigned long long)v);
		return;
	case CT_FK_STACK:
		ct_buf_printf(b, ",\"%s\":%llu", f->json_name,
			      (unsigned long long)v);
		if (f->companion) {
			ct_buf_printf(b, ",\"%s\":", f->companion);
			ct_json_stack_frames(b, pctx, (uint32_t)v);
		}
		return;
	case CT_FK_EVENT:
		ct_buf_printf(b, ",\"%s\":\"%s\"", f->json_name,
			      v < CT_EV_MAX ? ct_events[v].name : "unknown");
		return;
	default:
		break;
	}
	ct_buf_printf(b, ",\"%s\":%llu", f->json_name, (unsigned long long)v);
	if (f->kind == CT_FK_IRQ && f->companion)
		ct_json_name(b, f->companion, ct_irq_name_of(pctx, (uint32_t)v),
			     CT_IRQ_NAME_LEN);
	else if (f->kind == CT_FK_SOFTIRQ && f->companion)
		ct_buf_printf(b, ",\"%s\":\"%s\"", f->companion,
			      ct_softirq_name((unsigned int)v));
}

static void ct_json_fields(struct ct_buf *b, const union ct_record *rec,
			   const struct ct_print_ctx *pctx)
{
	const struct ct_event_desc *desc = &ct_events[rec->hdr.type];
	unsigned int i;

	for (i = 0; i < desc->nfields; i++)
		if (desc->fields[i].json_name)
			ct_json_field(b, rec, &desc->fields[i], pctx);
	if (rec->hdr.flags & CT_F_PID_MISMATCH)
		ct_buf_printf(b, ",\"pid_mismatch\":true");
}

void ct_irq_names_set(struct ct_irq_names *names, uint32_t irq,
		      const char *name)
{
	struct ct_probe probe = ct_probe(irq, CT_IRQ_SLOTS - 1, CT_IRQ_SLOTS);
	size_t len = strnlen(name, CT_IRQ_NAME_LEN - 1);
	uint32_t idx;
	bool found = false;

	while (!found && ct_probe_next(&probe, &idx))
		found = !names->slot[idx].used || names->slot[idx].irq == irq;
	if (!found)
		idx = ct_probe_home(irq, CT_IRQ_SLOTS - 1);	/* full: replace the home slot */
	names->slot[idx].irq = irq;
	names->slot[idx].used = 1;
	memcpy(names->slot[idx].name, name, len);
	names->slot[idx].name[len] = '\0';
}

const char *ct_irq_names_get(const struct ct_irq_names *names, uint32_t irq)
{
	struct ct_probe probe = ct_probe(irq, CT_IRQ_SLOTS - 1, CT_IRQ_SLOTS);
	uint32_t idx;

	while (ct_probe_next(&probe, &idx)) {
		if (!names->slot[idx].used)
			return NULL;
		if (names->slot[idx].irq == irq)
			return names->slot[idx].name;
	}
	return NULL;
}

void ct_learn_names(const union ct_record *rec, struct ct_comm_cache *comms,
		    struct ct_irq_names *irqs)
{
	switch (rec->hdr.type) {
	case CT_EV_COMM:
		ct_comm_cache_set(comms, rec->comm.pid, rec->comm.comm);
		break;
	case CT_EV_TASK_RENAME:
		ct_comm_cache_set(comms, rec->task_rename.pid,
				  rec->task_rename.newcomm);
		break;
	case CT_EV_SCHED_PROCESS_FORK:
		ct_comm_cache_set(comms, rec->fork.child_pid,
				  rec->fork.child_comm);
		break;
	case CT_EV_IRQ_NAME:
		if (irqs)
			ct_irq_names_set(irqs, rec->irq_name.irq,
					 rec->irq_name.name);
		break;
	default:
		break;
	}
}

/* each record's fields, from its list in ct_abi.h */
#define CT_X_FIELD(R, kind, type, member, array, ctf, json, comp)	\
	{ ctf, json, comp, offsetof(struct R, member), sizeof(type array), \
	  CT_FK_##kind },
#define CT_X_FIELDS(id, ev, ctf, cat, tp, rec, flags)			\
	static const struct ct_field ct_fields_##ev[] = {		\
		CT_FIELDS_##rec(CT_X_FIELD, rec)			\
	};
CT_EVENT_TABLE(CT_X_FIELDS)
#undef CT_X_FIELDS

/* what the capture path needs of a record: sizes and offsets, constant */
#define CT_X_STRING(R, kind, type, member, array, ctf, json, comp)	\
	+ (CT_FK_##kind == CT_FK_STRING ? sizeof(type array) : 0)
#define CT_X_KFUNC(R, kind, type, member, array, ctf, json, comp)	\
	+ (CT_FK_##kind == CT_FK_KFUNC ? offsetof(struct R, member) : 0)

const struct ct_event_desc ct_events[CT_EV_MAX] = {
#define CT_X_DESC(id, ev, ctf, cat, tp, rec, evflags)			\
	[id] = {							\
		.type = id,						\
		.name = #ev,						\
		.ctf_name = ctf,					\
		.tp_category = cat,					\
		.tp_name = tp,						\
		.size = sizeof(struct rec),				\
		.fixed_end = CT_RECORD_FIXED_END(rec),			\
		.string_max = 0 CT_FIELDS_##rec(CT_X_STRING, rec),	\
		.kfunc_offset = 0 CT_FIELDS_##rec(CT_X_KFUNC, rec),	\
		.flags = evflags,					\
		.fields = ct_fields_##ev,				\
		.nfields = sizeof(ct_fields_##ev) / sizeof(struct ct_field), \
		.print_text = ct_text_##ev,				\
	},
	CT_EVENT_TABLE(CT_X_DESC)
#undef CT_X_DESC
};

const struct ct_event_desc ct_cgroup_progs[CT_CGROUP_PROGS] = {
	{ .type = CT_EV_TASK_CGROUP, .name = "cgroup_attach_task",
	  .tp_category = "cgroup", .tp_name = "cgroup_attach_task" },
	{ .type = CT_EV_CGROUP_NAME, .name = "cgroup_mkdir",
	  .tp_category = "cgroup", .tp_name = "cgroup_mkdir" },
	{ .type = CT_EV_CGROUP_NAME, .name = "cgroup_rename",
	  .tp_category = "cgroup", .tp_name = "cgroup_rename" },
};

const struct ct_event_desc *ct_event_by_name(const char *name)
{
	int i;

	for (i = 0; i < CT_EV_MAX; i++)
		if (!strcmp(ct_events[i].name, name))
			return &ct_events[i];
	return NULL;
}

int ct_check_record(const void *data, size_t len)
{
	const unsigned char *bytes = data;
	unsigned int type;

	if (!data || len < CT_HDR_SIZE)
		return CT_DECODE_SHORT;
	type = bytes[offsetof(struct ct_hdr, type)];
	if (type >= CT_EV_MAX)
		return CT_DECODE_UNKNOWN_TYPE;
	if (len < ct_events[type].size)
		return CT_DECODE_TRUNCATED;
	return CT_DECODE_OK;
}

int ct_decode(const void *data, size_t len, union ct_record *out)
{
	const struct ct_event_desc *desc;
	int err = ct_check_record(data, len);

	if (err)
		return err;
	desc = &ct_events[((const struct ct_hdr *)data)->type];
	memcpy(out, data, desc->size);
	if (desc->string_max)
		((char *)out)[desc->fixed_end + desc->string_max - 1] = '\0';
	return CT_DECODE_OK;
}

const char *ct_decode_strerror(int err)
{
	switch (err) {
	case CT_DECODE_OK:
		return "ok";
	case CT_DECODE_SHORT:
		return "record shorter than its header";
	case CT_DECODE_UNKNOWN_TYPE:
		return "unknown record type";
	case CT_DECODE_TRUNCATED:
		return "record shorter than its type's size";
	default:
		return "unknown decode error";
	}
}

int ct_format(enum ct_format fmt, const union ct_record *rec,
	      const struct ct_print_ctx *pctx, char *buf, size_t len)
{
	const struct ct_event_desc *desc = &ct_events[rec->hdr.type];
	struct ct_buf b = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	if (desc->flags & CT_EVF_SILENT)
		return 0;
	if (fmt == CT_FORMAT_TEXT) {
		desc->print_text(&b, rec, pctx);
	} else {
		ct_buf_printf(&b, "{\"ts\":%llu,\"cpu\":%u,\"event\":\"%s\"",
			      (unsigned long long)ct_ts(rec), rec->hdr.cpu,
			      desc->name);
		ct_json_fields(&b, rec, pctx);
		ct_buf_putc(&b, '}');
	}
	return (int)b.pos;
}
