// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding and printing of ct_abi.h records. The descriptor table is
 * generated from CT_EVENT_TABLE, so every row there has exactly one
 * decoder size and one printer per format here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "events.h"

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
	unsigned long long ts = rec->hdr.ts;

	ct_buf_printf(b, "%16s-%-7u [%03u] %5llu.%06llu: %s: ",
		      ct_comm_name(pctx->comms, task_pid, rec->hdr.cpu,
				   name, sizeof(name)),
		      task_pid, rec->hdr.cpu, ts / 1000000000ull,
		      ts % 1000000000ull / 1000ull,
		      ct_events[rec->hdr.type].name);
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
		      ct_comm_name(pctx->comms, sw->next_pid, sw->cpu,
				   next, sizeof(next)),
		      sw->next_pid, sw->next_prio);
	if (sw->flags & CT_F_PID_MISMATCH)
		ct_buf_printf(b, " (prev_pid is not the current task)");
}

static void ct_json_sched_switch(struct ct_buf *b, const union ct_record *rec,
				 const struct ct_print_ctx *pctx)
{
	const struct ct_sched_switch *sw = &rec->sched_switch;
	char name[CT_COMM_LEN + 16], state[24];

	ct_buf_printf(b, ",\"prev_comm\":");
	ct_buf_json_str(b, ct_comm_name(pctx->comms, sw->prev_pid, sw->cpu,
					name, sizeof(name)), sizeof(name));
	ct_buf_printf(b, ",\"prev_pid\":%u,\"prev_prio\":%u,\"prev_state\":\"%s\"",
		      sw->prev_pid, sw->prev_prio,
		      ct_task_state_str(sw->prev_state, state, sizeof(state)));
	ct_buf_printf(b, ",\"next_comm\":");
	ct_buf_json_str(b, ct_comm_name(pctx->comms, sw->next_pid, sw->cpu,
					name, sizeof(name)), sizeof(name));
	ct_buf_printf(b, ",\"next_pid\":%u,\"next_prio\":%u",
		      sw->next_pid, sw->next_prio);
	if (sw->flags & CT_F_PID_MISMATCH)
		ct_buf_printf(b, ",\"pid_mismatch\":true");
}

static void ct_text_task_rename(struct ct_buf *b, const union ct_record *rec,
				const struct ct_print_ctx *pctx)
{
	const struct ct_task_rename *rn = &rec->task_rename;

	ct_text_prefix(b, rec, rn->pid, pctx);
	ct_buf_printf(b, "pid=%u newcomm=%s", rn->pid, rn->newcomm);
}

static void ct_json_task_rename(struct ct_buf *b, const union ct_record *rec,
				const struct ct_print_ctx *pctx)
{
	const struct ct_task_rename *rn = &rec->task_rename;

	(void)pctx;
	ct_buf_printf(b, ",\"pid\":%u,\"newcomm\":", rn->pid);
	ct_buf_json_str(b, rn->newcomm, sizeof(rn->newcomm));
}

/* comm records only feed the comm cache; they print nothing */
#define ct_text_comm NULL
#define ct_json_comm NULL

const struct ct_event_desc ct_events[CT_EV_MAX] = {
#define CT_X_DESC(id, ev, cat, tp, rec)				\
	[id] = {						\
		.type = id,					\
		.name = #ev,					\
		.tp_category = cat,				\
		.tp_name = tp,					\
		.size = sizeof(struct rec),			\
		.print_text = ct_text_##ev,			\
		.print_json = ct_json_##ev,			\
	},
	CT_EVENT_TABLE(CT_X_DESC)
#undef CT_X_DESC
};

const struct ct_event_desc *ct_event_by_name(const char *name)
{
	int i;

	for (i = 0; i < CT_EV_MAX; i++)
		if (!strcmp(ct_events[i].name, name))
			return &ct_events[i];
	return NULL;
}

/* the string fields of each record, NUL-terminated after decoding */
static void ct_terminate_strings(union ct_record *rec)
{
	switch (rec->hdr.type) {
	case CT_EV_COMM:
		rec->comm.comm[CT_COMM_LEN - 1] = '\0';
		break;
	case CT_EV_TASK_RENAME:
		rec->task_rename.newcomm[CT_COMM_LEN - 1] = '\0';
		break;
	default:
		break;
	}
}

int ct_decode(const void *data, size_t len, union ct_record *out)
{
	const unsigned char *bytes = data;
	const struct ct_event_desc *desc;
	unsigned int type;

	if (!data || len < CT_HDR_SIZE)
		return CT_DECODE_SHORT;
	type = bytes[offsetof(struct ct_hdr, type)];
	if (type >= CT_EV_MAX)
		return CT_DECODE_UNKNOWN_TYPE;
	desc = &ct_events[type];
	if (len < desc->size)
		return CT_DECODE_TRUNCATED;
	memcpy(out, data, desc->size);
	ct_terminate_strings(out);
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
	if (fmt == CT_FORMAT_TEXT) {
		if (!desc->print_text)
			return 0;
		desc->print_text(&b, rec, pctx);
	} else {
		if (!desc->print_json)
			return 0;
		ct_buf_printf(&b, "{\"ts\":%llu,\"cpu\":%u,\"event\":\"%s\"",
			      (unsigned long long)rec->hdr.ts, rec->hdr.cpu,
			      desc->name);
		desc->print_json(&b, rec, pctx);
		ct_buf_putc(&b, '}');
	}
	return (int)b.pos;
}
