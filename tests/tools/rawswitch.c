// SPDX-License-Identifier: GPL-2.0
/*
 * rawswitch: read raw sched_switch records the way perf does, through
 * perf_event_open(PERF_TYPE_TRACEPOINT, PERF_SAMPLE_RAW) on every CPU,
 * while a command runs, and check them using the offsets the kernel
 * publishes in the tracefs format file.
 *
 *   rawswitch OUTFILE COMMAND [ARGS...]
 *
 * Writes one line per sample to OUTFILE, "PREV_PID NEXT_PID FPREV FNEXT":
 * the pids at the offsets the format file gives, then the pids read the
 * way powertop 1.9x read them, by casting the record to a C struct frozen
 * at build time (the stock 6.1 layout) - the negative control. Prints
 *   rawswitch: samples=N lost=N has_padding=0|1 padding_nonzero=N
 *              comm_at8=N comm_at12=N raw_pad_nonzero=N
 * has_padding and padding_nonzero come from the format file's offsets;
 * the rest from the bytes alone: how many samples of the workload (prev_comm
 * "ct-ping" or "ct-pong") have prev_comm right after an 8-byte
 * trace_entry or after a 12-byte one, and of the latter how many carry a
 * non-zero int at byte 8.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "loader/layout.h"

#define EVENT_DIR	"/sys/kernel/tracing/events/sched/sched_switch"
#define RING_PAGES	512
#define MAX_CPUS	64

struct field {
	const char *name;
	int offset;
	int size;
};

struct stats {
	unsigned long samples, lost, padding_nonzero;
	unsigned long comm_at8, comm_at12, raw_pad_nonzero;
	FILE *out;
};

static struct field fields[] = {
	{ "common_padding", -1, 0 },
	{ "prev_pid", -1, 0 },
	{ "next_pid", -1, 0 },
};

enum { F_PADDING, F_PREV_PID, F_NEXT_PID };

/* sched_switch as a stock 6.1 kernel lays it out, frozen at build time */
struct frozen_sched_switch {
	unsigned short common_type;
	unsigned char common_flags;
	unsigned char common_preempt_count;
	int common_pid;
	char prev_comm[16];
	int prev_pid;
	int prev_prio;
	long prev_state;
	char next_comm[16];
	int next_pid;
	int next_prio;
};

static int read_format(int *id)
{
	struct ct_tp_format fmt;
	size_t i;
	FILE *f;
	int err;

	f = fopen(EVENT_DIR "/id", "r");
	if (!f || fscanf(f, "%d", id) != 1) {
		fprintf(stderr, "rawswitch: cannot read %s/id\n", EVENT_DIR);
		return -1;
	}
	fclose(f);
	f = fopen(EVENT_DIR "/format", "r");
	if (!f) {
		fprintf(stderr, "rawswitch: cannot read %s/format\n", EVENT_DIR);
		return -1;
	}
	err = ct_format_parse(f, &fmt);
	fclose(f);
	if (err) {
		fprintf(stderr, "rawswitch: cannot parse %s/format\n", EVENT_DIR);
		return -1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct ct_format_field *ff = ct_format_find(&fmt, fields[i].name);

		fields[i].offset = ff ? ff->offset : -1;
		fields[i].size = ff ? ff->size : 0;
	}
	if (fields[F_PREV_PID].offset < 0 || fields[F_NEXT_PID].offset < 0) {
		fprintf(stderr, "rawswitch: no prev_pid/next_pid in the format file\n");
		return -1;
	}
	return 0;
}

static int32_t get_s32(const unsigned char *raw, uint32_t size, int offset)
{
	int32_t value = 0;

	if (offset >= 0 && (uint32_t)offset + 4 <= size)
		memcpy(&value, raw + offset, 4);
	return value;
}

/* where the workload's name sits in the bytes, with no format file */
static bool is_workload_comm(const unsigned char *raw, uint32_t size, int at)
{
	return (uint32_t)at + 8 <= size &&
	       (!memcmp(raw + at, "ct-ping", 8) || !memcmp(raw + at, "ct-pong", 8));
}

static void account_raw_layout(struct stats *st, const unsigned char *raw,
			       uint32_t size)
{
	int32_t pad;

	if (is_workload_comm(raw, size, 8))
		st->comm_at8++;
	if (is_workload_comm(raw, size, 12)) {
		st->comm_at12++;
		memcpy(&pad, raw + 8, 4);
		if (pad)
			st->raw_pad_nonzero++;
	}
}

static void account_sample(struct stats *st, const unsigned char *raw,
			   uint32_t size)
{
	int prev = get_s32(raw, size, fields[F_PREV_PID].offset);
	int next = get_s32(raw, size, fields[F_NEXT_PID].offset);

	st->samples++;
	account_raw_layout(st, raw, size);
	if (fields[F_PADDING].offset >= 0 &&
	    get_s32(raw, size, fields[F_PADDING].offset) != 0)
		st->padding_nonzero++;
	struct frozen_sched_switch frozen;

	memset(&frozen, 0, sizeof(frozen));
	memcpy(&frozen, raw, size < sizeof(frozen) ? size : sizeof(frozen));
	fprintf(st->out, "%d %d %d %d\n", prev, next, frozen.prev_pid,
		frozen.next_pid);
}

/* Copy @len bytes at ring offset @pos, unwrapping the circular buffer. */
static void ring_copy(const unsigned char *data, uint64_t data_size,
		      uint64_t pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos % data_size), first = len;

	if (off + len > data_size)
		first = (size_t)(data_size - off);
	memcpy(dst, data + off, first);
	memcpy((unsigned char *)dst + first, data, len - first);
}

static void drain(struct perf_event_mmap_page *meta, struct stats *st)
{
	const unsigned char *data = (const unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size, tail = meta->data_tail;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	static unsigned char rec[65536];

	while (tail < head) {
		struct perf_event_header hdr;
		uint32_t raw_size;

		ring_copy(data, size, tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr))
			break;
		ring_copy(data, size, tail, rec, hdr.size);
		if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >= sizeof(hdr) + 4) {
			memcpy(&raw_size, rec + sizeof(hdr), 4);
			if (raw_size <= hdr.size - sizeof(hdr) - 4)
				account_sample(st, rec + sizeof(hdr) + 4,
					       raw_size);
		} else if (hdr.type == PERF_RECORD_LOST) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(hdr) + 8, 8);
			st->lost += lost;
		}
		tail += hdr.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static int open_events(int id, int *fds, void **rings, int ncpus)
{
	size_t len = (size_t)(RING_PAGES + 1) * (size_t)getpagesize();
	struct perf_event_attr attr;
	int cpu;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (uint64_t)id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.disabled = 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fds[cpu] = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fds[cpu] < 0) {
			fprintf(stderr, "rawswitch: perf_event_open on cpu %d: %s\n",
				cpu, strerror(errno));
			return -1;
		}
		rings[cpu] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				  fds[cpu], 0);
		if (rings[cpu] == MAP_FAILED) {
			fprintf(stderr, "rawswitch: mmap: %s\n", strerror(errno));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fds[MAX_CPUS], ncpus, id, cpu, status;
	void *rings[MAX_CPUS];
	struct stats st = { 0 };
	int argi = 2;
	pid_t child;

	if (argc < 3) {
		fprintf(stderr, "usage: rawswitch OUTFILE COMMAND [ARGS...]\n");
		return 2;
	}
	st.out = fopen(argv[1], "w");
	if (!st.out) {
		fprintf(stderr, "rawswitch: cannot write %s\n", argv[1]);
		return 1;
	}
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	if (read_format(&id) || open_events(id, fds, rings, ncpus))
		return 1;
	for (cpu = 0; cpu < ncpus; cpu++)
		ioctl(fds[cpu], PERF_EVENT_IOC_ENABLE, 0);
	child = fork();
	if (child == 0) {
		execvp(argv[argi], argv + argi);
		_exit(127);
	}
	waitpid(child, &status, 0);
	for (cpu = 0; cpu < ncpus; cpu++) {
		ioctl(fds[cpu], PERF_EVENT_IOC_DISABLE, 0);
		drain(rings[cpu], &st);
	}
	fclose(st.out);
	printf("rawswitch: samples=%lu lost=%lu has_padding=%d padding_nonzero=%lu comm_at8=%lu comm_at12=%lu raw_pad_nonzero=%lu\n",
	       st.samples, st.lost, fields[F_PADDING].offset >= 0,
	       st.padding_nonzero, st.comm_at8, st.comm_at12,
	       st.raw_pad_nonzero);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
