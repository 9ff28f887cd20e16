// SPDX-License-Identifier: GPL-2.0
/*
 * The CTF 1.8 writer. Events are serialized field by field from the
 * tables below, so reserved bytes never reach the disk and strings are
 * written up to their NUL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ctf.h"

#define F(rec, member, ctf_name, kind) \
	{ ctf_name, offsetof(struct rec, member), \
	  sizeof(((struct rec *)0)->member), kind }
#define END { NULL, 0, 0, CT_CTF_UINT }

static const struct ct_ctf_field ct_f_comm[] = {
	F(ct_comm, pid, "_tid", CT_CTF_UINT),
	F(ct_comm, comm, "_comm", CT_CTF_STRING),
	END
};

static const struct ct_ctf_field ct_f_irq_name[] = {
	F(ct_irq_name, irq, "_irq", CT_CTF_UINT),
	F(ct_irq_name, name, "_name", CT_CTF_STRING),
	END
};

static const struct ct_ctf_field ct_f_sched_switch[] = {
	F(ct_sched_switch, prev_pid, "_prev_tid", CT_CTF_UINT),
	F(ct_sched_switch, next_pid, "_next_tid", CT_CTF_UINT),
	/* Trace Compass names threads from it; prev_comm is left out */
	{ "_next_comm", offsetof(struct ct_sched_switch, next_pid), CT_COMM_LEN,
	  CT_CTF_COMM },
	F(ct_sched_switch, prev_state, "_prev_state", CT_CTF_UINT),
	F(ct_sched_switch, prev_prio, "_prev_prio", CT_CTF_UINT),
	F(ct_sched_switch, next_prio, "_next_prio", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_wakeup[] = {
	F(ct_wakeup, pid, "_tid", CT_CTF_UINT),
	F(ct_wakeup, target_cpu, "_target_cpu", CT_CTF_UINT),
	F(ct_wakeup, prio, "_prio", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_migrate[] = {
	F(ct_migrate, pid, "_tid", CT_CTF_UINT),
	F(ct_migrate, orig_cpu, "_orig_cpu", CT_CTF_UINT),
	F(ct_migrate, dest_cpu, "_dest_cpu", CT_CTF_UINT),
	F(ct_migrate, prio, "_prio", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_fork[] = {
	F(ct_fork, parent_pid, "_parent_tid", CT_CTF_UINT),
	F(ct_fork, child_pid, "_child_tid", CT_CTF_UINT),
	F(ct_fork, child_comm, "_child_comm", CT_CTF_STRING),
	END
};

static const struct ct_ctf_field ct_f_exec[] = {
	F(ct_exec, pid, "_tid", CT_CTF_UINT),
	F(ct_exec, old_pid, "_old_tid", CT_CTF_UINT),
	F(ct_exec, filename, "_filename", CT_CTF_STRING),
	END
};

static const struct ct_ctf_field ct_f_exit[] = {
	F(ct_exit, pid, "_tid", CT_CTF_UINT),
	F(ct_exit, prio, "_prio", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_rename[] = {
	F(ct_task_rename, pid, "_tid", CT_CTF_UINT),
	F(ct_task_rename, newcomm, "_newcomm", CT_CTF_STRING),
	END
};

static const struct ct_ctf_field ct_f_cpu_state[] = {
	F(ct_cpu_state, state, "_state", CT_CTF_UINT),
	F(ct_cpu_state, cpu_id, "_cpu_id", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_irq[] = {
	F(ct_irq, irq, "_irq", CT_CTF_UINT),
	F(ct_irq, ret, "_ret", CT_CTF_SINT),
	END
};

static const struct ct_ctf_field ct_f_softirq[] = {
	F(ct_softirq, vec, "_vec", CT_CTF_UINT),
	END
};

static const struct ct_ctf_field ct_f_function[] = {
	F(ct_function, function, "_function", CT_CTF_UINT),
	END
};

_Static_assert(CT_EV_MAX < CT_CTF_ID_EXTENDED,
	       "record types must leave the extended header's id free");

const struct ct_ctf_event ct_ctf_events[CT_EV_MAX] = {
	[CT_EV_COMM] = { "coretrace_comm", ct_f_comm },
	[CT_EV_IRQ_NAME] = { "coretrace_irq_name", ct_f_irq_name },
	[CT_EV_SCHED_SWITCH] = { "sched_switch", ct_f_sched_switch },
	[CT_EV_SCHED_WAKEUP] = { "sched_wakeup", ct_f_wakeup },
	[CT_EV_SCHED_WAKEUP_NEW] = { "sched_wakeup_new", ct_f_wakeup },
	[CT_EV_SCHED_WAKING] = { "sched_waking", ct_f_wakeup },
	[CT_EV_SCHED_MIGRATE_TASK] = { "sched_migrate_task", ct_f_migrate },
	[CT_EV_SCHED_PROCESS_FORK] = { "sched_process_fork", ct_f_fork },
	[CT_EV_SCHED_PROCESS_EXEC] = { "sched_process_exec", ct_f_exec },
	[CT_EV_SCHED_PROCESS_EXIT] = { "sched_process_exit", ct_f_exit },
	[CT_EV_TASK_RENAME] = { "task_rename", ct_f_rename },
	[CT_EV_CPU_IDLE] = { "power_cpu_idle", ct_f_cpu_state },
	[CT_EV_CPU_FREQUENCY] = { "power_cpu_frequency", ct_f_cpu_state },
	[CT_EV_IRQ_HANDLER_ENTRY] = { "irq_handler_entry", ct_f_irq },
	[CT_EV_IRQ_HANDLER_EXIT] = { "irq_handler_exit", ct_f_irq },
	[CT_EV_SOFTIRQ_ENTRY] = { "irq_softirq_entry", ct_f_softirq },
	[CT_EV_SOFTIRQ_EXIT] = { "irq_softirq_exit", ct_f_softirq },
	[CT_EV_TIMER_EXPIRE_ENTRY] = { "timer_expire_entry", ct_f_function },
	[CT_EV_HRTIMER_EXPIRE_ENTRY] = { "timer_hrtimer_expire_entry", ct_f_function },
	[CT_EV_WORKQUEUE_EXECUTE_START] = { "workqueue_execute_start", ct_f_function },
};

static void ct_uuid_text(const unsigned char u[16], char out[37])
{
	snprintf(out, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

/*
 * a TSDL string literal of printable ASCII: what TSDL would misread, and
 * what babeltrace2's lexer refuses (bytes past 0x7e), is dropped
 */
static void ct_tsdl_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++)
		if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20 &&
		    (unsigned char)*s <= 0x7e)
			fputc(*s, f);
	fputc('"', f);
}

static void ct_tsdl_field(FILE *f, const struct ct_ctf_field *field)
{
	if (field->kind == CT_CTF_STRING || field->kind == CT_CTF_COMM)
		fprintf(f, "\t\tstring %s;\n", field->name);
	else
		fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %d; } %s;\n",
			field->size * 8u, field->kind == CT_CTF_SINT, field->name);
}

int ct_ctf_write_metadata(FILE *f, const unsigned char uuid[16],
			  const struct ct_ctf_env *env)
{
	int64_t offset = env->clock_offset_ns;
	char text[37];
	int i, j;

	ct_uuid_text(uuid, text);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; } := ct_clock32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := ct_clock_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n", text);
	fprintf(f, "env {\n\tdomain = \"kernel\";\n\ttracer_name = \"coretrace\";\n"
		"\ttracer_major = 0;\n\ttracer_minor = 2;\n\tcoretrace_abi = %d;\n"
		"\tcoretrace_ctf = %d;\n\tsysname = \"Linux\";\n\tkernel_release = ",
		CT_ABI_VERSION, CT_CTF_FORMAT);
	ct_tsdl_string(f, env->kernel_release);
	fputs(";\n\thostname = ", f);
	ct_tsdl_string(f, env->hostname);
	fputs(";\n};\n\n", f);
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns()\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n"
		"\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = false;\n};\n\n",
		text, (long long)(offset / 1000000000),
		(long long)(offset % 1000000000));
	fputs("stream {\n\tid = 0;\n"
	      "\tevent.header := struct {\n"
	      "\t\tenum : uint8_t { compact = 0 ... 254, extended = 255 } id;\n"
	      "\t\tvariant <id> {\n"
	      "\t\t\tstruct { ct_clock32_t timestamp; } compact;\n"
	      "\t\t\tstruct { uint8_t id; ct_clock_t timestamp; } extended;\n"
	      "\t\t} v;\n\t};\n"
	      "\tpacket.context := struct {\n\t\tct_clock_t timestamp_begin;\n"
	      "\t\tct_clock_t timestamp_end;\n\t\tuint64_t content_size;\n"
	      "\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n"
	      "\t\tuint32_t cpu_id;\n\t};\n};\n", f);
	for (i = 0; i < CT_EV_MAX; i++) {
		fprintf(f, "\nevent {\n\tname = \"%s\";\n\tid = %d;\n\tstream_id = 0;\n"
			"\tfields := struct {\n", ct_ctf_events[i].name, i);
		for (j = 0; ct_ctf_events[i].fields[j].name; j++)
			ct_tsdl_field(f, &ct_ctf_events[i].fields[j]);
		fputs("\t};\n};\n", f);
	}
	fprintf(f, "\nevent {\n\tname = \"coretrace_ksym\";\n\tid = %d;\n\tstream_id = 0;\n"
		"\tfields := struct {\n\t\tuint64_t _addr;\n\t\tstring _name;\n\t};\n};\n",
		CT_CTF_ID_KSYM);
	return ferror(f) ? -EIO : 0;
}

static void ct_put(unsigned char **p, const void *src, size_t n)
{
	memcpy(*p, src, n);
	*p += n;
}

/*
 * A number field: its sizes spelled out so each copy is one move, not a
 * call to memcpy (this runs for every field of every record).
 */
static void ct_put_field(unsigned char **p, const void *src, size_t n)
{
	switch (n) {
	case 1:
		**p = *(const unsigned char *)src;
		break;
	case 2:
		memcpy(*p, src, 2);
		break;
	case 4:
		memcpy(*p, src, 4);
		break;
	case 8:
		memcpy(*p, src, 8);
		break;
	default:
		memcpy(*p, src, n);
	}
	*p += n;
}

/* The event header for @ts, from the clock the reader will have. */
static void ct_put_header(unsigned char **p, struct ct_ctf_stream *s,
			  uint8_t id, uint64_t ts)
{
	uint8_t extended = CT_CTF_ID_EXTENDED;
	uint32_t low = (uint32_t)ts;

	if (ts - s->clock >= (1ull << 32)) {
		ct_put(p, &extended, 1);
		ct_put(p, &id, 1);
		ct_put(p, &ts, 8);	/* little endian, as the metadata says */
	} else {
		ct_put(p, &id, 1);
		ct_put(p, &low, 4);
	}
	s->clock = ts;
}

/* Serialize @rec's event at @out, stamped @ts; returns its size. */
static size_t ct_ctf_serialize(const struct ct_ctf *ctf, struct ct_ctf_stream *s,
			       const union ct_record *rec, uint64_t ts,
			       unsigned char *out)
{
	const struct ct_ctf_field *field = ct_ctf_events[rec->hdr.type].fields;
	const unsigned char *raw = (const unsigned char *)rec;
	const char *text;
	unsigned char *p = out;
	char name[CT_COMM_LEN];
	uint32_t pid;

	ct_put_header(&p, s, rec->hdr.type, ts);
	for (; field->name; field++) {
		switch (field->kind) {
		case CT_CTF_COMM:
			memcpy(&pid, raw + field->offset, sizeof(pid));
			text = ct_comm_name(ctf->comms, pid, rec->hdr.cpu, name,
					    sizeof(name));
			ct_put(&p, text, strnlen(text, CT_COMM_LEN - 1u));
			*p++ = '\0';
			break;
		case CT_CTF_STRING:
			text = (const char *)raw + field->offset;
			ct_put(&p, text, strnlen(text, field->size - 1u));
			*p++ = '\0';
			break;
		default:
			ct_put_field(&p, raw + field->offset, field->size);
		}
	}
	return (size_t)(p - out);
}

static void ct_put_u64(unsigned char **p, uint64_t v)
{
	ct_put(p, &v, 8);
}

/*
 * One packet at the end of @s's file in one writev(2). A short write is
 * cut back, so the file ends on a whole packet; the error is kept.
 */
static int ct_stream_append(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			    const struct iovec *iov, int iovcnt)
{
	size_t want = 0;
	ssize_t n;
	int i;

	for (i = 0; i < iovcnt; i++)
		want += iov[i].iov_len;
	n = writev(s->fd, iov, iovcnt);
	if (n != (ssize_t)want) {
		if (!ctf->error)
			ctf->error = n < 0 ? -errno : -ENOSPC;
		if (n > 0 && ftruncate(s->fd, (off_t)s->bytes))
			ctf->error = -errno;
		lseek(s->fd, (off_t)s->bytes, SEEK_SET);
		return ctf->error;
	}
	s->bytes += want;
	ctf->bytes += want;
	return 0;
}

/*
 * The writer process. A SIGKILL that lands while a packet is being
 * written stops the kernel's copy at a page boundary and leaves half a
 * packet at the end of the file, which CTF readers refuse (babeltrace2
 * then reads nothing at all). So once recording starts the stream files
 * belong to a child: it gets each packet over a pipe and writes only
 * packets it received whole. When coretrace dies, the child sees the end
 * of the pipe, drops a packet it got only part of, and exits.
 */
#define CT_WRITER_END	0xffffffffu	/* a msg.cpu: recording ended well */

struct ct_writer_msg {
	uint32_t cpu;
	uint32_t len;		/* bytes of the packet that follows */
};

struct ct_writer_status {
	int32_t error;		/* first write error, -errno */
	uint32_t done;		/* 1 in the last message, at exit */
	uint64_t bytes;		/* written whole, all streams */
};

static size_t ct_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static int ct_write_full(int fd, struct iovec *iov, int iovcnt)
{
	ssize_t n;

	while (iovcnt > 0) {
		n = writev(fd, iov, iovcnt);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		while (iovcnt > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static void ct_writer_report(struct ct_ctf *ctf, int status_fd, uint32_t done)
{
	struct ct_writer_status st = { ctf->error, done, ctf->bytes };

	if (write(status_fd, &st, sizeof(st)) != sizeof(st))
		return;		/* coretrace is gone: nobody to tell */
}

/* The child keeps only the pipes and its stream files open. */
static void ct_writer_close_others(const struct ct_ctf *ctf, int in_fd,
				   int status_fd)
{
	int fd, max = (int)sysconf(_SC_OPEN_MAX), cpu;

	for (fd = 0; fd < max && fd < 65536; fd++) {
		bool keep = fd == in_fd || fd == status_fd;

		for (cpu = 0; cpu < ctf->ncpus && !keep; cpu++)
			keep = fd == ctf->streams[cpu].fd;
		if (!keep)
			close(fd);
	}
}

/*
 * A CPU that had no event leaves no stream file: a CTF stream holds at
 * least one packet, and an empty file is what a reader should doubt.
 */
static void ct_ctf_drop_empty(const struct ct_ctf *ctf)
{
	char path[4096];
	int cpu;

	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		if (ctf->streams[cpu].bytes)
			continue;
		snprintf(path, sizeof(path), "%s/stream_%d", ctf->dir, cpu);
		unlink(path);
	}
}

/*
 * coretrace went away without closing the capture: say so in a file that
 * CTF readers skip (a dot file) and `coretrace report` reads.
 */
static void ct_writer_mark_cut(const char *dir)
{
	static const char why[] =
		"coretrace record ended without closing this capture (killed?): the records it still held, at most a second's worth, are missing\n";
	char path[4096];
	ssize_t written;
	int fd;

	snprintf(path, sizeof(path), "%s/" CT_CTF_CUT_FILE, dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* even left empty by a full disk, the file marks the cut */
	written = write(fd, why, sizeof(why) - 1);
	close(fd);
	(void)written;
}

static void ct_writer_main(struct ct_ctf *ctf, int in_fd, int status_fd)
{
	unsigned char *packet = malloc(CT_CTF_PACKET_MAX);
	struct ct_writer_msg msg;
	struct iovec iov;
	int cpu, sig, quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	bool ended = false;

	/* coretrace decides when recording ends: the end of the pipe */
	for (sig = 0; sig < (int)(sizeof(quiet) / sizeof(quiet[0])); sig++)
		signal(quiet[sig], SIG_IGN);
	prctl(PR_SET_NAME, "coretrace-write");
	ct_writer_close_others(ctf, in_fd, status_fd);
	if (!packet)
		ctf->error = -ENOMEM;
	while (ct_read_full(in_fd, &msg, sizeof(msg)) == sizeof(msg)) {
		if (msg.cpu == CT_WRITER_END) {
			ended = true;
			break;
		}
		if (msg.cpu >= (uint32_t)ctf->ncpus || msg.len > CT_CTF_PACKET_MAX)
			break;
		if (!packet || ct_read_full(in_fd, packet, msg.len) != msg.len)
			break;		/* coretrace died in the middle of it */
		if (ctf->error)
			continue;	/* keep reading so coretrace never blocks */
		iov.iov_base = packet;
		iov.iov_len = msg.len;
		if (ct_stream_append(ctf, &ctf->streams[msg.cpu], &iov, 1))
			ct_writer_report(ctf, status_fd, 0);
	}
	for (cpu = 0; cpu < ctf->ncpus; cpu++)
		if (close(ctf->streams[cpu].fd) && !ctf->error)
			ctf->error = -errno;
	ct_ctf_drop_empty(ctf);
	if (!ended)
		ct_writer_mark_cut(ctf->dir);
	ct_writer_report(ctf, status_fd, 1);
	_exit(0);
}

/*
 * A writer's status, if one is waiting (the status pipe is non-blocking
 * while recording); @block waits for its last one.
 */
static void ct_ctf_poll_writer(struct ct_ctf *ctf, bool block)
{
	struct ct_writer_status st;

	if (block)
		fcntl(ctf->status_fd, F_SETFL,
		      fcntl(ctf->status_fd, F_GETFL) & ~O_NONBLOCK);
	while (ct_read_full(ctf->status_fd, &st, sizeof(st)) == sizeof(st)) {
		if (st.error && !ctf->error)
			ctf->error = st.error;
		if (st.done) {
			ctf->bytes = st.bytes;
			return;
		}
	}
	if (block && !ctf->error)
		ctf->error = -EPIPE;	/* the writer died without its report */
}

static void ct_ctf_send(struct ct_ctf *ctf, int cpu, struct iovec *packet)
{
	struct ct_writer_msg msg = { (uint32_t)cpu, 0 };
	struct iovec iov[3] = { { &msg, sizeof(msg) }, packet[0], packet[1] };
	int err;

	msg.len = (uint32_t)(packet[0].iov_len + packet[1].iov_len);
	err = ct_write_full(ctf->pipe_fd, iov, 3);
	if (err && !ctf->error)
		ctf->error = err;
	ctf->bytes += msg.len;		/* until the writer's own count */
}

int ct_ctf_start_writer(struct ct_ctf *ctf)
{
	int to_writer[2], from_writer[2], cpu;
	pid_t pid;

	if (pipe2(to_writer, O_CLOEXEC))
		return -errno;
	if (pipe2(from_writer, O_CLOEXEC)) {
		close(to_writer[0]);
		close(to_writer[1]);
		return -errno;
	}
	/* a dead writer is an error to report, not a reason to die */
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		ct_writer_main(ctf, to_writer[0], from_writer[1]);
	close(to_writer[0]);
	close(from_writer[1]);
	if (pid < 0) {
		close(to_writer[1]);
		close(from_writer[0]);
		return -errno;
	}
	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		close(ctf->streams[cpu].fd);
		ctf->streams[cpu].fd = -1;
	}
	ctf->pipe_fd = to_writer[1];
	ctf->status_fd = from_writer[0];
	fcntl(ctf->status_fd, F_SETFL,
	      fcntl(ctf->status_fd, F_GETFL) | O_NONBLOCK);
	ctf->writer_pid = pid;
	return 0;
}

static int ct_ctf_write_packet(struct ct_ctf *ctf, int cpu)
{
	struct ct_ctf_stream *s = &ctf->streams[cpu];
	unsigned char head[CT_CTF_HEADER_BYTES + CT_CTF_CONTEXT_BYTES], *p = head;
	uint64_t bits = (uint64_t)(sizeof(head) + s->used) * 8;
	uint32_t magic = CT_CTF_MAGIC, stream_id = 0, cpu_id = (uint32_t)cpu;
	struct iovec iov[2];

	if (!s->used)
		return 0;
	ct_put(&p, &magic, 4);
	ct_put(&p, ctf->uuid, 16);
	ct_put(&p, &stream_id, 4);
	ct_put_u64(&p, s->ts_begin);
	ct_put_u64(&p, s->ts_end);
	ct_put_u64(&p, bits);		/* content_size */
	ct_put_u64(&p, bits);		/* packet_size: no padding */
	ct_put_u64(&p, s->events_discarded);
	ct_put(&p, &cpu_id, 4);
	iov[0].iov_base = head;
	iov[0].iov_len = sizeof(head);
	iov[1].iov_base = s->packet;
	iov[1].iov_len = s->used;
	if (ctf->writer_pid)
		ct_ctf_send(ctf, cpu, iov);
	else
		ct_stream_append(ctf, s, iov, 2);
	s->used = 0;
	return ctf->error;
}

static bool ct_is_function(const union ct_record *rec)
{
	return rec->hdr.type == CT_EV_TIMER_EXPIRE_ENTRY ||
	       rec->hdr.type == CT_EV_HRTIMER_EXPIRE_ENTRY ||
	       rec->hdr.type == CT_EV_WORKQUEUE_EXECUTE_START;
}

/* True the first time @addr is seen (or when the set is full). */
static bool ct_ctf_first_sight(struct ct_ctf *ctf, uint64_t addr)
{
	uint32_t i = (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 52), probes;
	uint64_t *slot;

	for (probes = 0; probes < CT_CTF_ANNOUNCED; probes++) {
		slot = &ctf->announced[(i + probes) % CT_CTF_ANNOUNCED];
		if (*slot == addr)
			return false;
		if (!*slot) {
			*slot = addr;
			return true;
		}
	}
	return true;
}

/* coretrace_ksym: @addr's name, ahead of the record that needs it */
static void ct_ctf_put_ksym(struct ct_ctf *ctf, struct ct_ctf_stream *s,
			    uint64_t ts, uint64_t addr)
{
	const char *name = ct_ksyms_lookup(ctf->ksyms, addr);
	unsigned char *p = s->packet + s->used;
	size_t len;

	if (!name)
		return;
	len = strnlen(name, CT_CTF_KSYM_NAME - 1u);
	ct_put_header(&p, s, CT_CTF_ID_KSYM, ts);
	ct_put(&p, &addr, 8);
	ct_put(&p, name, len);
	*p++ = '\0';
	s->used = (size_t)(p - s->packet);
	ctf->ksym_events++;
}

int ct_ctf_add(struct ct_ctf *ctf, const union ct_record *rec, uint64_t now_ns)
{
	struct ct_ctf_stream *s;
	int cpu = rec->hdr.cpu;
	uint64_t ts;
	size_t n;

	if (cpu >= ctf->ncpus)
		return -ERANGE;
	s = &ctf->streams[cpu];
	/* room for the largest event and a name: serialize in place */
	if (s->used + 2 * CT_CTF_EVENT_MAX > CT_CTF_PACKET_MAX -
					     CT_CTF_HEADER_BYTES -
					     CT_CTF_CONTEXT_BYTES)
		ct_ctf_write_packet(ctf, cpu);
	/*
	 * A stream's clock never goes back: a record that reached the ring
	 * after a later one of its CPU (an interrupt's, between the handler
	 * reading the clock and reserving) is stamped with the later time.
	 */
	ts = rec->hdr.ts > s->clock ? rec->hdr.ts : s->clock;
	if (!s->used) {
		s->ts_begin = ts;	/* the reader's clock at the packet */
		s->clock = ts;
		s->first_added_ns = now_ns;
	}
	s->ts_end = ts;
	if (ctf->ksyms && ctf->announced && ct_is_function(rec) &&
	    ct_ctf_first_sight(ctf, rec->function.function))
		ct_ctf_put_ksym(ctf, s, ts, rec->function.function);
	n = ct_ctf_serialize(ctf, s, rec, ts, s->packet + s->used);
	s->used += n;
	s->events++;
	ctf->events++;
	ctf->type_events[rec->hdr.type]++;
	ctf->type_bytes[rec->hdr.type] += n;
	return ctf->error;
}

void ct_ctf_set_discarded(struct ct_ctf *ctf, int cpu, uint64_t lost)
{
	if (cpu >= 0 && cpu < ctf->ncpus)
		ctf->streams[cpu].events_discarded = lost;
}

int ct_ctf_flush_old(struct ct_ctf *ctf, uint64_t now_ns, uint64_t max_wait_ns)
{
	int cpu;

	if (ctf->writer_pid)
		ct_ctf_poll_writer(ctf, false);
	for (cpu = 0; cpu < ctf->ncpus; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		if (s->used && now_ns - s->first_added_ns >= max_wait_ns)
			ct_ctf_write_packet(ctf, cpu);
	}
	return ctf->error;
}

static int ct_ctf_make_uuid(unsigned char uuid[16])
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, uuid, 16) : -1;

	if (fd >= 0)
		close(fd);
	if (n != 16)
		return -EIO;
	uuid[6] = (uuid[6] & 0x0f) | 0x40;	/* version 4 */
	uuid[8] = (uuid[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	return 0;
}

int ct_ctf_open(struct ct_ctf *ctf, const char *dir, int ncpus,
		const struct ct_ctf_env *env)
{
	char path[4096];
	FILE *meta;
	int cpu, err;

	memset(ctf, 0, sizeof(*ctf));
	ctf->pipe_fd = -1;
	ctf->status_fd = -1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	err = ct_ctf_make_uuid(ctf->uuid);
	if (err)
		return err;
	ctf->dir = strdup(dir);
	ctf->ncpus = ncpus;
	ctf->announced = calloc(CT_CTF_ANNOUNCED, sizeof(*ctf->announced));
	ctf->streams = calloc((size_t)ncpus, sizeof(*ctf->streams));
	if (!ctf->dir || !ctf->streams || !ctf->announced)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus; cpu++)
		ctf->streams[cpu].fd = -1;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	meta = fopen(path, "w");
	if (!meta)
		return -errno;
	err = ct_ctf_write_metadata(meta, ctf->uuid, env);
	if (fclose(meta) && !err)
		err = -errno;
	for (cpu = 0; cpu < ncpus && !err; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		snprintf(path, sizeof(path), "%s/stream_%d", dir, cpu);
		s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		s->packet = malloc(CT_CTF_PACKET_MAX);
		if (s->fd < 0 || !s->packet)
			err = s->fd >= 0 ? -ENOMEM : -errno;
	}
	return err;
}

int ct_ctf_close(struct ct_ctf *ctf)
{
	bool own_files = !ctf->writer_pid;
	int cpu;

	for (cpu = 0; ctf->streams && cpu < ctf->ncpus; cpu++) {
		struct ct_ctf_stream *s = &ctf->streams[cpu];

		if (s->fd >= 0 || ctf->writer_pid)
			ct_ctf_write_packet(ctf, cpu);
		if (s->fd >= 0 && close(s->fd) && !ctf->error)
			ctf->error = -errno;
		s->fd = -1;
		free(s->packet);
	}
	if (own_files && ctf->streams && ctf->dir)
		ct_ctf_drop_empty(ctf);
	if (ctf->writer_pid) {
		struct ct_writer_msg end = { CT_WRITER_END, 0 };

		if (write(ctf->pipe_fd, &end, sizeof(end)) != sizeof(end) &&
		    !ctf->error)
			ctf->error = -EPIPE;
		close(ctf->pipe_fd);
		ct_ctf_poll_writer(ctf, true);
		close(ctf->status_fd);
		waitpid(ctf->writer_pid, NULL, 0);
		ctf->writer_pid = 0;
	}
	free(ctf->streams);
	free(ctf->dir);
	free(ctf->announced);
	ctf->announced = NULL;
	ctf->streams = NULL;
	ctf->dir = NULL;
	return ctf->error;
}
