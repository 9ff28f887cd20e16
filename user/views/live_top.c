// SPDX-License-Identifier: GPL-2.0
/* The live overview: an analysis window per interval, on a terminal or not. */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "model/offcpu.h"
#include "views/live_top.h"

#define CT_LIVE_STACK_ROWS	8	/* -g: the stacks shown */

struct ct_live_top {
	struct ct_analysis an;
	struct ct_print_ctx names;
	FILE *out;
	int in_fd;
	bool tty;			/* redraw in place, read keys */
	bool termios_saved;
	struct termios saved;
	uint64_t interval_ns, next_ns;
	unsigned int rows;
	bool by_cgroup;
	char *frame;			/* the last frame, built in memory */
	size_t frame_len;
	struct ct_offcpu *offcpu;	/* -g: time off the CPU by stack */
	uint64_t window_ns;		/* when this window began */
};

static void ct_live_raw_keys(struct ct_live_top *t)
{
	struct termios raw;

	if (tcgetattr(t->in_fd, &t->saved))
		return;
	raw = t->saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (!tcsetattr(t->in_fd, TCSANOW, &raw))
		t->termios_saved = true;
}

struct ct_live_top *ct_live_top_open(FILE *out, int in_fd,
				     const struct ct_live_view *view, int ncpus,
				     const struct ct_print_ctx *names,
				     uint64_t now_ns)
{
	struct ct_live_top *t = calloc(1, sizeof(*t));

	if (!t || ct_analysis_init(&t->an, ncpus, 32768)) {
		free(t);
		return NULL;
	}
	t->names = *names;
	t->out = out;
	t->in_fd = in_fd;
	t->tty = isatty(fileno(out)) && isatty(in_fd);
	t->interval_ns = (uint64_t)(view->interval_s * 1e9);
	t->next_ns = now_ns + t->interval_ns;
	t->rows = view->rows;
	t->by_cgroup = view->by_cgroup;
	t->an.window_start = now_ns;
	t->window_ns = now_ns;
	if (view->stacks) {
		t->offcpu = calloc(1, sizeof(*t->offcpu));
		if (!t->offcpu || ct_offcpu_init(t->offcpu, names->comms)) {
			free(t->offcpu);
			ct_analysis_free(&t->an);
			free(t);
			return NULL;
		}
		t->offcpu->window_ns = now_ns;
	}
	if (t->tty) {
		ct_live_raw_keys(t);
		fputs("\033[?1049h\033[H\033[2Jcoretrace top: gathering the first interval...\n",
		      out);
		fflush(out);
	}
	return t;
}

void ct_live_top_feed(struct ct_live_top *t, const union ct_record *rec)
{
	ct_analysis_feed(&t->an, rec);
	if (t->offcpu)
		ct_offcpu_feed(t->offcpu, rec);
}

static bool ct_live_quit_pressed(struct ct_live_top *t)
{
	struct pollfd pfd = { .fd = t->in_fd, .events = POLLIN };
	char keys[32];
	ssize_t n, i;

	if (!t->tty || poll(&pfd, 1, 0) <= 0)
		return false;
	n = read(t->in_fd, keys, sizeof(keys));
	for (i = 0; i < n; i++)
		if (keys[i] == 'q' || keys[i] == 'Q')
			return true;
	return false;
}

/* On a terminal: the frame cut to the screen, drawn over the last one. */
static void ct_live_draw(struct ct_live_top *t)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	const char *line = t->frame, *end = t->frame + t->frame_len, *nl;
	unsigned int row = 0;
	size_t len;

	ioctl(fileno(t->out), TIOCGWINSZ, &ws);
	fputs("\033[H\033[2J", t->out);
	while (line < end && row + 1 < ws.ws_row) {
		nl = memchr(line, '\n', (size_t)(end - line));
		len = nl ? (size_t)(nl - line) : (size_t)(end - line);
		fwrite(line, 1, len < ws.ws_col ? len : ws.ws_col, t->out);
		fputc('\n', t->out);
		row++;
		line = nl ? nl + 1 : end;
	}
	fputs("q: quit", t->out);
	fflush(t->out);
}

static unsigned int ct_live_rows(const struct ct_live_top *t)
{
	struct winsize ws;
	int cpus = 0, cpu;

	if (t->rows)
		return t->rows;
	if (!t->tty || ioctl(fileno(t->out), TIOCGWINSZ, &ws) || !ws.ws_row)
		return 30;
	for (cpu = 0; cpu < t->an.ncpus; cpu++)
		cpus += t->an.cpus[cpu].seen;
	/* header 3 lines, CPU pane 2 + one per CPU, the key line */
	return ws.ws_row > (unsigned int)cpus + 7 ? ws.ws_row - (unsigned int)cpus - 7 : 1;
}

bool ct_live_top_tick(struct ct_live_top *t, uint64_t now_ns)
{
	FILE *mem;

	if (ct_live_quit_pressed(t))
		return true;
	if (now_ns < t->next_ns)
		return false;
	ct_analysis_settle(&t->an, now_ns);
	free(t->frame);
	t->frame = NULL;
	mem = open_memstream(&t->frame, &t->frame_len);
	if (mem) {
		ct_top_print(mem, CT_OUT_TEXT, &t->an, &t->names,
			     ct_live_rows(t), "live", t->by_cgroup);
		if (t->offcpu)
			ct_offcpu_top(t->offcpu, mem, &t->names,
				      CT_LIVE_STACK_ROWS, now_ns - t->window_ns);
		fclose(mem);
	}
	if (t->frame && t->tty) {
		ct_live_draw(t);
	} else if (t->frame) {
		fwrite(t->frame, 1, t->frame_len, t->out);
		fputc('\n', t->out);
		fflush(t->out);
	}
	ct_analysis_new_window(&t->an, now_ns);
	if (t->offcpu)
		ct_offcpu_new_window(t->offcpu, now_ns);
	t->window_ns = now_ns;
	while (t->next_ns <= now_ns)
		t->next_ns += t->interval_ns;
	return false;
}

void ct_live_top_close(struct ct_live_top *t)
{
	if (!t)
		return;
	if (t->tty) {
		/* leave the alternate screen, then repeat the last frame */
		fputs("\033[?1049l", t->out);
		if (t->frame)
			fwrite(t->frame, 1, t->frame_len, t->out);
		fflush(t->out);
	}
	if (t->termios_saved)
		tcsetattr(t->in_fd, TCSANOW, &t->saved);
	ct_analysis_free(&t->an);
	if (t->offcpu)
		ct_offcpu_free(t->offcpu);
	free(t->offcpu);
	free(t->frame);
	free(t);
}
