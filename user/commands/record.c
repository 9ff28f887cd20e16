// SPDX-License-Identifier: GPL-2.0
/*
 * `coretrace record`: configure and load the BPF object, attach the
 * programs of the selected events, drain the ring buffer(s) until told to
 * stop, and account for every record.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "base/clock.h"
#include "base/broker.h"
#include "base/privs.h"
#include "base/signals.h"
#include "capture/capture_output.h"
#include "capture/recorder.h"
#include "commands/common.h"
#include "commands/record.h"
#include "commands/trigger.h"
#include "loader/loader.h"
#include "loader/sys.h"
#include "model/output.h"
#include "views/lines.h"
#include "views/live_top.h"

#define CT_POLL_MS		100	/* records wait at most this long */
#define CT_COMM_CAPACITY	65536

struct ct_session {
	const struct ct_record_opts *opts;
	struct ct_names names;
	struct ct_output *out;		/* lines, the capture or the overview */
	unsigned long long received[CT_EV_MAX];
	/* records user space wrote: the groups when tracing began */
	unsigned long long announced[CT_EV_MAX];
	unsigned long long corrupt;
	/* record -g: the stacks the callchain records received carry */
	unsigned long long stacks_received[2];
	unsigned long long stacks_unknown;	/* ...whose frames are not here */
	struct ct_trigger_ctl triggers;
	unsigned long long trigger_records;
	/*
	 * ct_stats, mapped at first use until the session ends:
	 * mapping and unmapping it at every 100 ms pass was two thirds of
	 * what an idle record -o cost the machine (6.7 M emulated
	 * instructions per 10 s on the stock kernel, 2.7 M mapped once)
	 */
	const struct ct_counts *stats;
	size_t stats_bytes;
	int stats_ncpus;
	struct ct_privs privs;		/* what is given up once attached */
	struct ct_broker broker;	/* -g: opens other processes' files */
};

static volatile sig_atomic_t ct_stop_requested;
static volatile sig_atomic_t ct_snapshot_requested;


static void ct_on_signal(int sig)
{
	if (sig == SIGUSR1)
		ct_snapshot_requested = 1;
	else
		ct_stop_requested = 1;
}

/*
 * A stack message into the stack table; a user stack's frames given as
 * addresses become files and offsets while the process still runs, and
 * the files it maps are learnt (their build IDs, for the capture)
 */
static int ct_stack_message(struct ct_names *names, const void *data,
			    size_t len)
{
	struct ct_uframe frames[CT_USTACK_DEPTH];
	struct ct_stack_msg m;

	if (len < sizeof(m))
		return ct_stacks_message(&names->stacks, data, len);
	memcpy(&m, data, sizeof(m));
	if (m.type != CT_REC_USTACK || !names->usyms || m.nr > CT_USTACK_DEPTH ||
	    len < sizeof(m) + m.nr * sizeof(frames[0]))
		return ct_stacks_message(&names->stacks, data, len);
	memcpy(frames, (const unsigned char *)data + sizeof(m),
	       m.nr * sizeof(frames[0]));
	ct_usyms_resolve_ips(names->usyms, m.tgid, frames, m.nr);
	return ct_stacks_put(&names->stacks, true, m.id, m.tgid, m.nr, frames);
}

static int ct_on_record(void *ctx, void *data, size_t len)
{
	struct ct_session *s = ctx;
	const union ct_record *rec = data;

	/* read in the ring, where it is: every reader bounds its strings */
	if (__builtin_expect(ct_check_record(data, len) == CT_DECODE_OK, 1)) {
		s->received[rec->hdr.type]++;
		if (__builtin_expect(rec->hdr.type == CT_EV_CALLCHAIN, 0)) {
			s->stacks_received[0] += rec->callchain.kstack != 0;
			s->stacks_received[1] += rec->callchain.ustack != 0;
			s->stacks_unknown +=
				(rec->callchain.kstack &&
				 !ct_stacks_get(&s->names.stacks, rec->callchain.kstack)) +
				(rec->callchain.ustack &&
				 !ct_stacks_get(&s->names.stacks, rec->callchain.ustack));
			ct_trigger_callchain(&s->triggers, &rec->callchain);
		}
		return ct_output_feed(s->out, rec);
	}
	if (ct_is_stack_message(data, len)) {
		/* a stack's frames, once, ahead of the records that use it */
		if (ct_stack_message(&s->names, data, len))
			s->corrupt++;
		return 0;
	}
	if (len >= sizeof(struct ct_trigger) &&
	    ((const struct ct_hdr *)data)->type == CT_REC_TRIGGER) {
		/* a message to the recorder, not a record of the trace */
		s->trigger_records++;
		ct_trigger_seen(&s->triggers, data, &s->names);
		return 0;
	}
	s->corrupt++;
	return 0;
}

/* Names of every task alive now, so early records are not nameless. */
static void ct_scan_proc_comms(struct ct_comm_cache *comms)
{
	char path[64], comm[CT_COMM_LEN + 2];
	struct dirent *pe, *te;
	DIR *proc, *tasks;
	FILE *f;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((pe = readdir(proc))) {
		if (pe->d_name[0] < '1' || pe->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/task", pe->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;
		while ((te = readdir(tasks))) {
			if (te->d_name[0] < '1' || te->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%.16s/task/%.16s/comm",
				 pe->d_name, te->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(comm, sizeof(comm), f)) {
				comm[strcspn(comm, "\n")] = '\0';
				ct_comm_cache_set(comms,
						  (uint32_t)strtoul(te->d_name, NULL, 10),
						  comm);
			}
			fclose(f);
		}
		closedir(tasks);
	}
	closedir(proc);
}

struct ct_cg_start {
	struct ct_session *s;
	char mnt[PATH_MAX];
	uint64_t ts;
	int err;
};

/* one announcement, stamped before any record BPF wrote */
static int ct_cg_feed(struct ct_cg_start *c, union ct_record *rec, int type)
{
	ct_set_ts(rec, c->ts);
	rec->hdr.type = (uint8_t)type;
	rec->hdr.flags = 0;
	rec->hdr.cpu = 0;
	c->s->announced[type]++;
	return ct_output_feed(c->s->out, rec) ? -EIO : 0;
}

static int ct_cg_group(uint64_t id, uint32_t level, const char *path, void *arg)
{
	union ct_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.cgroup_name.cgroup_id = id;
	rec.cgroup_name.level = level;
	snprintf(rec.cgroup_name.path, sizeof(rec.cgroup_name.path), "%s", path);
	return ct_cg_feed(arg, &rec, CT_EV_CGROUP_NAME);
}

/* The group of thread @tid of process @pid, announced */
static void ct_cg_task(struct ct_cg_start *c, const char *pid, const char *tid)
{
	char file[96], text[CT_CGROUP_PATH_LEN + 64], path[CT_CGROUP_PATH_LEN];
	char dir[PATH_MAX + CT_CGROUP_PATH_LEN];
	union ct_record rec;
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(file, sizeof(file), "/proc/%.16s/task/%.16s/cgroup", pid, tid);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;		/* gone meanwhile */
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	if (ct_cgroup_of_task(text, path, sizeof(path)))
		return;
	snprintf(dir, sizeof(dir), "%s%s", c->mnt, path);
	if (stat(dir, &st))
		return;
	memset(&rec, 0, sizeof(rec));
	rec.task_cgroup.pid = (uint32_t)strtoul(tid, NULL, 10);
	rec.task_cgroup.cgroup_id = (uint64_t)st.st_ino;
	if (!c->err)
		c->err = ct_cg_feed(c, &rec, CT_EV_TASK_CGROUP);
}

/*
 * The groups and the tasks' groups when tracing starts, as announcements
 * stamped @ts (before BPF's first record): BPF announces what changes
 * from then on, and a task it has not seen switched out yet (one that
 * spins) still has its group.
 */
static int ct_announce_cgroups(struct ct_session *s, uint64_t ts)
{
	struct ct_cg_start c = { .s = s, .ts = ts };
	struct dirent *pe, *te;
	char path[64];
	DIR *proc, *tasks;
	int n;

	if (ct_cgroup_find_mount(c.mnt, sizeof(c.mnt)))
		return 0;	/* no cgroup2 mount: nothing to name */
	n = ct_cgroup_groups(c.mnt, 64, ct_cg_group, &c);
	if (n < 0)
		return n == -EIO ? n : 0;
	proc = opendir("/proc");
	while (proc && (pe = readdir(proc)) && !c.err) {
		if (pe->d_name[0] < '1' || pe->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/task", pe->d_name);
		tasks = opendir(path);
		while (tasks && (te = readdir(tasks)))
			if (te->d_name[0] >= '1' && te->d_name[0] <= '9')
				ct_cg_task(&c, pe->d_name, te->d_name);
		if (tasks)
			closedir(tasks);
	}
	if (proc)
		closedir(proc);
	return c.err;
}

/* The session's counters, mapped at first use until ct_unmap_stats() */
static const struct ct_counts *ct_session_stats(struct coretrace_bpf *skel,
						struct ct_session *s)
{
	if (!s->stats)
		s->stats = ct_loader_counts(skel, &s->stats_ncpus, &s->stats_bytes);
	return s->stats;
}

static void ct_unmap_stats(struct ct_session *s)
{
	if (s->stats)
		munmap((void *)s->stats, s->stats_bytes);
	s->stats = NULL;
}

/* Sum the per-CPU counters of every event type. */
static int ct_read_counts(struct coretrace_bpf *skel, struct ct_session *s,
			  struct ct_counts totals[CT_EV_MAX])
{
	const struct ct_counts *rows = ct_session_stats(skel, s), *c;
	int cpu, type;

	if (!rows)
		return -errno;
	memset(totals, 0, CT_EV_MAX * sizeof(*totals));
	for (cpu = 0; cpu < s->stats_ncpus; cpu++) {
		for (type = 0; type < CT_EV_MAX; type++) {
			c = &rows[(size_t)cpu * CT_STATS_STRIDE + (size_t)type];
			totals[type].filtered += c->filtered;
			totals[type].attempted += c->attempted;
			totals[type].lost += c->lost;
		}
	}
	return 0;
}

/* events_discarded of each stream: records lost so far on that CPU */
static void ct_update_discarded(struct coretrace_bpf *skel, struct ct_session *s)
{
	const struct ct_counts *rows;
	unsigned long long lost;
	int cpu, type;

	if (!ct_output_counts_losses(s->out))
		return;
	rows = ct_session_stats(skel, s);
	if (!rows)
		return;
	for (cpu = 0; cpu < s->stats_ncpus; cpu++) {
		lost = 0;
		for (type = 0; type < CT_EV_MAX; type++)
			lost += rows[(size_t)cpu * CT_STATS_STRIDE + (size_t)type].lost;
		ct_output_losses(s->out, (unsigned int)cpu, lost);
	}
}

/* After each drain pass: 0 go on, 1 the output ends the session, -errno */
static int ct_tick(struct coretrace_bpf *skel, struct ct_session *s)
{
	ct_update_discarded(skel, s);
	return ct_output_tick(s->out, ct_mono_ns());
}

/* -v: one line a second with the running totals */
static void ct_print_progress(struct coretrace_bpf *skel,
			      struct ct_session *s, double elapsed)
{
	struct ct_counts totals[CT_EV_MAX];
	unsigned long long received = 0, lost = 0, filtered = 0;
	int i;

	if (ct_read_counts(skel, s, totals))
		return;
	for (i = 0; i < CT_EV_MAX; i++) {
		received += s->received[i];
		lost += totals[i].lost;
		filtered += totals[i].filtered;
	}
	fprintf(stderr, "coretrace: %7.1fs: %llu received, %llu lost, %llu filtered\n",
		elapsed, received, lost, filtered);
}

/* -v: one event's counts; @missed -1 where the kernel does not count */
static void ct_print_event_counts(const struct ct_event_desc *ev,
				  const struct ct_counts *counts,
				  unsigned long long received, long long missed)
{
	fprintf(stderr, "coretrace:   %-24s attempted %llu, lost %llu, received %llu, filtered %llu, missed ",
		ev->name, (unsigned long long)counts->attempted,
		(unsigned long long)counts->lost, received,
		(unsigned long long)counts->filtered);
	if (missed < 0)
		fprintf(stderr, "-\n");
	else
		fprintf(stderr, "%lld\n", missed);
}

/*
 * record -g: stacks taken, lost and absent, kernel and user, and whether
 * they add up: attempted = carried by the records received + lost +
 * none (a kernel thread has no user stack)
 */
static void ct_print_stacks(struct coretrace_bpf *skel, struct ct_session *s)
{
	static const char *const kind[2] = { "kernel", "user" };
	const struct ct_counts *rows = ct_session_stats(skel, s), *c;
	struct ct_counts sum[2];
	unsigned long long expected;
	struct ct_usyms_stats us;
	int cpu, k;

	if (!s->opts->stacks || !rows)
		return;
	memset(sum, 0, sizeof(sum));
	for (cpu = 0; cpu < s->stats_ncpus; cpu++) {
		for (k = 0; k < 2; k++) {
			c = &rows[(size_t)cpu * CT_STATS_STRIDE +
				  (k ? CT_STATS_USTACK : CT_STATS_KSTACK)];
			sum[k].attempted += c->attempted;
			sum[k].lost += c->lost;
			sum[k].filtered += c->filtered;
		}
	}
	fprintf(stderr, "coretrace: stacks: %llu kernel (%llu lost), %llu user (%llu lost, %llu tasks without a user stack); %llu distinct stacks sent\n",
		(unsigned long long)sum[0].attempted, (unsigned long long)sum[0].lost,
		(unsigned long long)sum[1].attempted, (unsigned long long)sum[1].lost,
		(unsigned long long)sum[1].filtered,
		(unsigned long long)s->names.stacks.count +
		s->names.stacks.replaced);
	for (k = 0; k < 2; k++) {
		expected = sum[k].attempted - sum[k].lost - sum[k].filtered;
		if (expected != s->stacks_received[k])
			fprintf(stderr, "coretrace: warning: BPF took %llu %s stacks but %llu arrived\n",
				expected, kind[k], s->stacks_received[k]);
	}
	/* the frames of a stack a record names: here, or counted */
	if (s->stacks_unknown || s->names.stacks.refused)
		fprintf(stderr, "coretrace: warning: %llu stacks named by records had no frames here (%llu messages of frames refused, %llu stacks given up for newer ones)\n",
			s->stacks_unknown,
			(unsigned long long)s->names.stacks.refused,
			(unsigned long long)s->names.stacks.replaced);
	if (s->names.usyms && s->opts->session.verbose) {
		ct_usyms_stats(s->names.usyms, &us);
		fprintf(stderr, "coretrace: user frames: %llu files known, %llu frames named, %llu not, %llu maps and %llu files read\n",
			(unsigned long long)us.modules,
			(unsigned long long)us.names,
			(unsigned long long)us.unnamed,
			(unsigned long long)us.maps_read,
			(unsigned long long)us.files_read);
	}
}

static void ct_print_summary(struct coretrace_bpf *skel,
			     struct ct_session *s)
{
	struct ct_counts totals[CT_EV_MAX];
	unsigned long long received = 0, lost = 0, expected = 0;
	unsigned long long misses[CT_EV_MAX], missed;
	bool counted;
	int i;

	missed = ct_loader_misses(skel, misses);
	if (ct_read_counts(skel, s, totals)) {
		fprintf(stderr, "coretrace: could not read the loss counters\n");
		return;
	}
	counted = ct_loader_counts_misses();
	for (i = 0; i < CT_EV_MAX; i++) {
		received += s->received[i];
		lost += totals[i].lost;
		expected += totals[i].attempted - totals[i].lost;
		if (s->opts->session.verbose && (totals[i].attempted || totals[i].filtered ||
					 misses[i]))
			ct_print_event_counts(&ct_events[i], &totals[i],
					      s->received[i],
					      counted ? (long long)misses[i] : -1);
	}
	fprintf(stderr, "coretrace: %llu records received, %llu lost\n",
		received, lost);
	ct_print_stacks(skel, s);
	if (s->announced[CT_EV_CGROUP_NAME])
		fprintf(stderr, "coretrace: %llu groups and %llu tasks' groups announced from /sys/fs/cgroup and /proc when tracing began\n",
			s->announced[CT_EV_CGROUP_NAME],
			s->announced[CT_EV_TASK_CGROUP]);
	if (missed)
		fprintf(stderr, "coretrace: %llu tracepoint hits missed: the kernel skips a handler while another BPF program runs on that CPU (-v: per event)\n",
			missed);
	else if (!counted && s->opts->session.verbose)
		fprintf(stderr, "coretrace: missed: this kernel does not count the tracepoint hits it skips while another BPF program runs on the same CPU (Linux counts them from %d.%d)\n",
			CT_MISSES_MAJOR, CT_MISSES_MINOR);
	if (s->corrupt)
		fprintf(stderr, "coretrace: %llu records could not be decoded\n",
			s->corrupt);
	if (expected != received)
		fprintf(stderr, "coretrace: warning: BPF wrote %llu records but %llu arrived\n",
			expected, received);
}

/* What the triggers did, BPF's counts beside user space's */
static void ct_print_triggers(struct coretrace_bpf *skel,
			      const struct ct_session *s)
{
	struct ct_trigger_state st = { 0, 0, 0, 0, 0 };
	const struct ct_trigger_ctl *t = &s->triggers;

	ct_loader_trigger_state(skel, &st);
	/* what coretrace's own start did to the machine is not a trigger */
	fprintf(stderr, "coretrace: triggers armed once tracing had started: %llu condition%s that began before not counted",
		(unsigned long long)st.before_armed, st.before_armed == 1 ? "" : "s");
	if (t->earliest_ns)
		fprintf(stderr, "; the earliest fired began %.3f ms after arming",
			((double)t->earliest_ns - (double)t->armed_ns) / 1e6);
	fputc('\n', stderr);
	fprintf(stderr, "coretrace: triggers: %llu fired in BPF (%llu more held back by the cooldown or the maximum, %llu lost to a full ring), %llu received; %u snapshot%s taken, %u inside a snapshot's window, %u refused\n",
		(unsigned long long)st.fired, (unsigned long long)st.held_back,
		(unsigned long long)st.lost, s->trigger_records, t->taken,
		t->taken == 1 ? "" : "s", t->merged, t->refused);
}

static void ct_take_snapshot(struct ct_session *s, const char *reason)
{
	static bool said;
	int err = ct_output_snapshot(s->out, reason, 0);

	if (err == -EOPNOTSUPP && !said)
		fprintf(stderr, "coretrace: %s asks for a snapshot, which only a flight recorder (--flight-recorder) takes; ignored\n",
			reason);
	else if (err == -ENODATA)
		fprintf(stderr, "coretrace: %s: no snapshot, the flight recorder holds nothing yet\n",
			reason);
	said |= err == -EOPNOTSUPP;
}

static int ct_drain(struct ring_buffer *rb, struct coretrace_bpf *skel,
		    struct ct_session *s)
{
	const struct ct_record_opts *opts = s->opts;
	double start = ct_mono_s(), next_report = start + 1.0, now;
	double deadline = opts->session.duration > 0 ? start + opts->session.duration : 0;
	int err;

	while (!ct_stop_requested) {
		/* woken early only when a ring is a quarter full */
		err = ring_buffer__poll(rb, CT_POLL_MS);
		if (err >= 0)
			err = ring_buffer__consume(rb);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "coretrace: reading the ring buffer failed: %s\n",
				strerror(-err));
			return err;
		}
		err = ct_tick(skel, s);
		if (err < 0)
			return -EIO;
		if (err)
			break;
		if (ct_snapshot_requested) {
			ct_snapshot_requested = 0;
			ct_take_snapshot(s, "SIGUSR1");
		}
		ct_trigger_poll(&s->triggers, s->out, ct_mono_ns(), false);
		now = ct_mono_s();
		if (opts->session.verbose && now >= next_report) {
			ct_print_progress(skel, s, now - start);
			next_report += 1.0;
		}
		if (deadline && now >= deadline)
			break;
	}
	return 0;
}

static void ct_announce_start(const struct coretrace_bpf *skel,
			      const struct ct_record_opts *opts)
{
	const char *traced[2 * CT_EV_MAX];
	int i, n = ct_loader_traced(skel, traced, 2 * CT_EV_MAX);

	fprintf(stderr, "coretrace: tracing %d event%s", n, n == 1 ? "" : "s");
	for (i = 0; opts->session.verbose && i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : ":", traced[i]);
	if (opts->session.duration > 0)
		fprintf(stderr, " for %g s", opts->session.duration);
	fprintf(stderr, "; Ctrl-C to stop\n");
}

static bool ct_needs_ksyms(const struct ct_record_opts *opts)
{
	return (opts->events & CT_FUNCTION_RECORDS) ||
	       (opts->stacks & CT_STACK_KERNEL);
}

static int ct_session_init(struct ct_session *s,
			   const struct ct_record_opts *opts)
{
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->broker.sock = -1;
	s->opts = opts;
	ct_trigger_init(&s->triggers, &opts->trigger);
	if (opts->stacks && ct_triggers_on(&opts->trigger) &&
	    ct_trigger_keep_stacks(&s->triggers))
		return -ENOMEM;
	if (ct_names_init(&s->names, CT_COMM_CAPACITY))
		return -ENOMEM;
	ct_comm_cache_prefault(&s->names.comms);
	ct_cgroup_names_prefault(&s->names.cgroups);
	if ((opts->stacks & CT_STACK_USER) &&
	    ct_names_name_user_frames(&s->names, true))
		return -ENOMEM;
	if (ct_needs_ksyms(opts)) {
		f = fopen("/proc/kallsyms", "r");
		if (f) {
			if (ct_names_load_ksyms(&s->names, f))
				fprintf(stderr, "coretrace: warning: out of memory reading /proc/kallsyms\n");
			fclose(f);
		}
		if (!s->names.ksyms.count)
			fprintf(stderr, "coretrace: warning: no kernel symbols in /proc/kallsyms; functions print as addresses\n");
	}
	return 0;
}

static void ct_session_free(struct ct_session *s)
{
	ct_broker_stop(&s->broker);
	ct_trigger_free(&s->triggers);
	ct_names_free(&s->names);
}

/* -o: a capture, with what the CTF env says of this machine */
static int ct_open_capture(struct ct_session *s)
{
	struct ct_ctf_env env = { "unknown", "unknown", 0 };
	struct ct_outdir_opts out;
	char why[CT_OUTDIR_WHY] = "";
	struct timespec real, mono;
	struct utsname uts;
	int err;

	ct_outdir_defaults(&out);
	out.file_mode = s->opts->file_mode;
	/* written as the user it runs as once attached, by a writer that gives up root too */
	out.uid = s->privs.uid;
	out.gid = s->privs.gid;
	out.privs = &s->privs;

	if (!uname(&uts)) {
		env.kernel_release = uts.release;
		env.hostname = uts.nodename;
	}
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	env.clock_offset_ns = ((int64_t)real.tv_sec - mono.tv_sec) * 1000000000ll +
			      (real.tv_nsec - mono.tv_nsec);
	if (s->opts->flight_bytes || s->opts->chunk_bytes ||
	    s->opts->chunk_time > 0) {
		struct ct_parts_opts parts = {
			.dir = s->opts->output_dir,
			.flight_bytes = s->opts->flight_bytes,
			.chunk_bytes = s->opts->chunk_bytes,
			.chunk_ns = (uint64_t)(s->opts->chunk_time * 1e9),
			.max_chunks = s->opts->max_chunks,
			.verbose = s->opts->session.verbose,
			.out = out,
		};

		s->out = ct_parts_output(&parts, libbpf_num_possible_cpus(),
					 &env, &s->names, ct_mono_ns(), &err,
					 why);
	} else {
		s->out = ct_capture_output(s->opts->output_dir,
					   libbpf_num_possible_cpus(), &env,
					   &out, &s->names, ct_mono_ns(), &err,
					   why);
	}
	if (!s->out && why[0])
		fprintf(stderr, "coretrace: refusing to write a capture: %s\n",
			why);
	else if (!s->out)
		fprintf(stderr, "coretrace: cannot write a capture to %s: %s\n",
			s->opts->output_dir, strerror(-err));
	return s->out ? 0 : err;
}

/* The session's one output: the overview, a capture, or lines */
static int ct_open_output(struct ct_session *s)
{
	if (s->opts->top_interval > 0) {
		struct ct_live_view view = {
			.interval_s = s->opts->top_interval,
			.rows = s->opts->top_rows,
			.by_cgroup = s->opts->top_by_cgroup,
			.stacks = s->opts->stacks != 0,
		};

		s->out = ct_top_output(stdout, STDIN_FILENO, &view,
				       libbpf_num_possible_cpus(), &s->names,
				       ct_mono_ns());
		if (!s->out)
			fprintf(stderr, "coretrace: out of memory for the overview\n");
		return s->out ? 0 : -ENOMEM;
	}
	if (s->opts->output_dir)
		return ct_open_capture(s);
	s->out = ct_lines_output(stdout, s->opts->format, &s->names,
				 "coretrace");
	if (!s->out)
		fprintf(stderr, "coretrace: out of memory\n");
	return s->out ? 0 : -ENOMEM;
}

static int ct_run(struct coretrace_bpf *skel, struct ct_session *s)
{
	char why[CT_PRIVS_WHY];
	struct ring_buffer *rb;
	uint64_t start_ns;
	bool quiet;
	int err;

	rb = ct_loader_rings(skel, s->opts, ct_on_record, s);
	if (!rb) {
		fprintf(stderr, "coretrace: could not map the ring buffer: %s\n",
			strerror(errno));
		return -EIO;
	}
	err = s->opts->top_interval > 0 ? 0 : ct_open_output(s);
	start_ns = ct_mono_ns();
	if (!err)
		err = ct_loader_attach(skel);
	if (!err && s->opts->ncgroups)
		err = ct_loader_seed_cgroups(skel, s->opts);
	if (err) {
		if (s->out)
			ct_output_close(s->out, &quiet);
		ring_buffer__free(rb);
		return err;
	}
	/*
	 * Names of the tasks alive once the gate is open: a task forked
	 * while the programs were loading has no fork record, and its first
	 * records may not name it (a rename's old name). Tasks forked from
	 * now on have fork records; records are read only after this.
	 */
	ct_scan_proc_comms(&s->names.comms);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	/* the overview starts its first interval now */
	if (s->opts->top_interval > 0)
		err = ct_open_output(s);
	if (!err && ct_loader_names_groups(skel))
		err = ct_announce_cgroups(s, start_ns);
	/*
	 * record -g's user frames: other processes' files are opened by a
	 * broker that keeps what that takes (broker.h), not by the tracer
	 */
	if (!err && s->names.usyms && !ct_broker_start(&s->broker))
		ct_usyms_set_broker(s->names.usyms, &s->broker);
	/* nothing from here on needs a capability, nor root's uid */
	if (!err) {
		int dropped = ct_privs_drop(&s->privs, CT_PRIVS_TRACER,
					    ct_loader_map_fd(skel), why,
					    sizeof(why));

		if (dropped < 0) {
			fprintf(stderr, "coretrace: %s\n", why);
			err = -EPERM;
		} else if (dropped && s->opts->session.verbose) {
			fprintf(stderr, "coretrace: this kernel has no seccomp (CONFIG_SECCOMP): privileges given up, no system call filter\n");
		}
	}
	/* settled: from now on a trigger's condition is the machine's */
	if (!err && ct_triggers_on(&s->opts->trigger))
		s->triggers.armed_ns = ct_loader_arm_triggers(skel);
	/* "tracing": set up, the first record is read next */
	if (!err)
		ct_announce_start(skel, s->opts);
	if (!err)
		err = ct_drain(rb, skel, s);

	/* stop every program at once, then take what is still in the ring */
	ct_loader_detach(skel);
	ring_buffer__consume(rb);
	quiet = false;
	if (s->out) {
		ct_update_discarded(skel, s);
		/* a trigger whose window after is cut by the end */
		ct_trigger_poll(&s->triggers, s->out, 0, true);
		if (ct_output_close(s->out, &quiet) && !err)
			err = -EIO;
		s->out = NULL;
	}
	if (!quiet)
		ct_print_summary(skel, s);
	if (!quiet && ct_triggers_on(&s->opts->trigger))
		ct_print_triggers(skel, s);
	ct_unmap_stats(s);
	ring_buffer__free(rb);
	return err;
}

int ct_record(const struct ct_record_opts *opts)
{
	struct ct_session *session;
	struct coretrace_bpf *skel = NULL;
	char why[CT_PRIVS_WHY];
	int err;

	if (!ct_can_trace()) {
		fprintf(stderr, "coretrace: tracing needs root or the CAP_BPF and CAP_PERFMON capabilities; run it with sudo\n");
		return CT_EXIT_FAILURE;
	}
	session = malloc(sizeof(*session));
	if (!session || ct_session_init(session, opts)) {
		fprintf(stderr, "coretrace: out of memory\n");
		free(session);
		return CT_EXIT_FAILURE;
	}
	if (ct_privs_prepare(&session->privs, opts->session.user, why,
			     sizeof(why))) {
		fprintf(stderr, "coretrace: %s\n", why);
		ct_session_free(session);
		free(session);
		return CT_EXIT_FAILURE;
	}
	ct_signals_install(ct_on_signal, true);
	err = ct_loader_open(opts, &skel);
	if (!err) {
		err = ct_run(skel, session);
		ct_loader_close(skel);
	}
	ct_session_free(session);
	free(session);
	return err ? CT_EXIT_FAILURE : CT_EXIT_OK;
}

/* --- record's options (the groups it shares with top: common.c) */

enum {
	CT_OPT_PER_CPU_RINGS = CT_OPT_COMMON_END,
	CT_OPT_WAKEUP,
	CT_OPT_FLIGHT,
	CT_OPT_CHUNK_SIZE,
	CT_OPT_CHUNK_TIME,
	CT_OPT_MAX_CHUNKS,
	CT_OPT_FILE_MODE,
	CT_OPT_TRIG_DELAY,
	CT_OPT_TRIG_PID,
	CT_OPT_TRIG_TID,
	CT_OPT_TRIG_IRQ,
	CT_OPT_TRIG_EXEC,
	CT_OPT_TRIG_BEFORE,
	CT_OPT_TRIG_AFTER,
	CT_OPT_TRIG_COOLDOWN,
	CT_OPT_TRIG_MAX,
};

static int ct_parse_format(const char *arg, enum ct_format *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = CT_FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = CT_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

/* --trigger-delay, --trigger-irq: a time from 1 us to 1 h, in ns */
static int ct_trigger_time(const char *arg, uint64_t *ns, FILE *err,
			   const char *what)
{
	double seconds;

	if (!ct_parse_seconds(arg, &seconds) && seconds >= 1e-6 &&
	    seconds <= 3600.0) {
		*ns = (uint64_t)(seconds * 1e9 + 0.5);
		return 0;
	}
	fprintf(err, "coretrace record: invalid %s '%s' (want a time from 1us to 1h, e.g. 20ms, 0.5)\n",
		what, arg);
	return -1;
}

/* --trigger-before/-after/-cooldown: seconds, 0 allowed */
static int ct_trigger_seconds(const char *arg, double *seconds, FILE *err,
			      const char *what)
{
	if (!strcmp(arg, "0")) {
		*seconds = 0;
		return 0;
	}
	if (!ct_parse_seconds(arg, seconds) && *seconds <= 3600.0)
		return 0;
	fprintf(err, "coretrace record: invalid %s '%s' (want seconds from 0 to 3600, e.g. 5, 500ms)\n",
		what, arg);
	return -1;
}

/* The --trigger-* options; 0, or -1 after saying why */
static int ct_trigger_option(int c, const char *arg, struct ct_trigger_opts *t,
			     FILE *err)
{
	bool prefix;

	switch (c) {
	case CT_OPT_TRIG_DELAY:
		return ct_trigger_time(arg, &t->delay_ns, err, "trigger delay");
	case CT_OPT_TRIG_IRQ:
		return ct_trigger_time(arg, &t->irq_ns, err, "trigger interrupt time");
	case CT_OPT_TRIG_PID:
	case CT_OPT_TRIG_TID:
		if (!ct_parse_pid(arg, c == CT_OPT_TRIG_PID ? &t->pid : &t->tid))
			return 0;
		fprintf(err, "coretrace record: invalid %s '%s' (want a number from 1 to %d)\n",
			c == CT_OPT_TRIG_PID ? "trigger pid" : "trigger tid",
			arg, CT_PID_MAX);
		return -1;
	case CT_OPT_TRIG_EXEC:
		if (!ct_parse_comm(arg, t->exec, &t->exec_len, &prefix) && !prefix)
			return 0;
		fprintf(err, "coretrace record: invalid program name '%s' (want 1 to 15 characters, as the task is named)\n",
			arg);
		return -1;
	case CT_OPT_TRIG_BEFORE:
		return ct_trigger_seconds(arg, &t->before, err, "time before the trigger");
	case CT_OPT_TRIG_AFTER:
		return ct_trigger_seconds(arg, &t->after, err, "time after the trigger");
	case CT_OPT_TRIG_COOLDOWN:
		return ct_trigger_seconds(arg, &t->cooldown, err, "trigger cooldown");
	default:
		if (!ct_parse_count(arg, &t->max))
			return 0;
		fprintf(err, "coretrace record: invalid trigger count '%s' (want a number, 0 for no limit)\n",
			arg);
		return -1;
	}
}

#define CT_PART_MIN_BYTES	(256ull << 10)	/* a flight recorder, a chunk */
#define CT_PART_MAX_BYTES	(1ull << 40)

/* --flight-recorder, --chunk-size: 256K to 1T */
static int ct_part_size(const char *arg, uint64_t *bytes, FILE *err,
			const char *cmd, const char *what)
{
	if (!ct_parse_size(arg, bytes) && *bytes >= CT_PART_MIN_BYTES &&
	    *bytes <= CT_PART_MAX_BYTES)
		return 0;
	fprintf(err, "coretrace %s: invalid %s '%s' (want 256K to 1T, e.g. 64M)\n",
		cmd, what, arg);
	return -1;
}

/* One of record's own options; returns 0 or prints why it is wrong. */
static int ct_record_option(int c, const char *arg, struct ct_record_opts *opts,
			    FILE *err, const char *cmd)
{
	switch (c) {
	case 'f':
		if (!ct_parse_format(arg, &opts->format))
			return 0;
		fprintf(err, "coretrace %s: unknown format '%s' (want text or json)\n", cmd,
			arg);
		return -1;
	case 'o':
		if (!*arg) {
			fprintf(err, "coretrace %s: -o needs a directory\n", cmd);
			return -1;
		}
		opts->output_dir = arg;
		return 0;
	case CT_OPT_PER_CPU_RINGS:
		opts->per_cpu_rings = true;
		return 0;
	case CT_OPT_WAKEUP:
		if (!strcmp(arg, "batch") || !strcmp(arg, "always")) {
			opts->wakeup_always = !strcmp(arg, "always");
			return 0;
		}
		fprintf(err, "coretrace %s: unknown wakeup mode '%s' (want batch or always)\n", cmd,
			arg);
		return -1;
	case CT_OPT_FLIGHT:
		return ct_part_size(arg, &opts->flight_bytes, err, cmd,
				    "flight recorder size");
	case CT_OPT_CHUNK_SIZE:
		return ct_part_size(arg, &opts->chunk_bytes, err, cmd,
				    "chunk size");
	case CT_OPT_CHUNK_TIME:
		if (!ct_parse_seconds(arg, &opts->chunk_time))
			return 0;
		fprintf(err, "coretrace %s: invalid chunk time '%s' (want seconds, e.g. 30, 10m)\n",
			cmd, arg);
		return -1;
	case CT_OPT_MAX_CHUNKS:
		if (!ct_parse_count(arg, &opts->max_chunks) && opts->max_chunks)
			return 0;
		fprintf(err, "coretrace %s: invalid chunk count '%s' (want a number from 1)\n",
			cmd, arg);
		return -1;
	case CT_OPT_FILE_MODE:
		if (!ct_parse_file_mode(arg, &opts->file_mode))
			return 0;
		fprintf(err, "coretrace %s: invalid file mode '%s' (want octal permission bits of at most 0644, e.g. 0640: others may read, never write)\n",
			cmd, arg);
		return -1;
	case CT_OPT_TRIG_DELAY ... CT_OPT_TRIG_MAX:
		return ct_trigger_option(c, arg, &opts->trigger, err);
	default:
		return -1;
	}
}

/* Triggers take snapshots: they need a flight recorder */
static int ct_check_triggers(const struct ct_record_opts *opts, FILE *err)
{
	const struct ct_trigger_opts *t = &opts->trigger;

	if (ct_triggers_on(t) && !opts->flight_bytes) {
		fprintf(err, "coretrace record: a trigger takes a snapshot of a flight recorder: add --flight-recorder SIZE and -o DIR\n");
		return -1;
	}
	if ((t->pid || t->tid) && !t->delay_ns) {
		fprintf(err, "coretrace record: --trigger-pid and --trigger-tid narrow --trigger-delay, which is not given\n");
		return -1;
	}
	return 0;
}

/* The always-on options go with -o, and one kind at a time */
static int ct_check_parts(const struct ct_record_opts *opts, FILE *err)
{
	bool chunks = opts->chunk_bytes || opts->chunk_time > 0;

	if ((opts->flight_bytes || chunks || opts->max_chunks) && !opts->output_dir) {
		fprintf(err, "coretrace record: --flight-recorder and the chunk options need -o DIR\n");
		return -1;
	}
	if (opts->flight_bytes && (chunks || opts->max_chunks)) {
		fprintf(err, "coretrace record: --flight-recorder keeps the capture in memory; it does not take the chunk options\n");
		return -1;
	}
	if (opts->max_chunks && !chunks) {
		fprintf(err, "coretrace record: --max-chunks needs --chunk-size or --chunk-time\n");
		return -1;
	}
	return ct_check_triggers(opts, err);
}


static int ct_set_record(int id, const char *arg, void *opts, FILE *err,
			 const char *cmd)
{
	return ct_record_option(id, arg, opts, err, cmd);
}


static const struct ct_opt ct_record_output_opts[] = {
	{ 'o', "output", "DIR", "write a CTF 1.8 capture to DIR (read it with\n"
	  "babeltrace2 or Trace Compass) instead of lines", ct_set_record },
	{ 'f', "format", "FORMAT", "text (default) or json, one object per line",
	  ct_set_record },
	{ CT_OPT_PER_CPU_RINGS, "per-cpu-rings", NULL,
	  "one ring per CPU (each of --buffer-size)\n"
	  "instead of one shared ring", ct_set_record },
	{ CT_OPT_FILE_MODE, "file-mode", "MODE",
	  "permission bits of the capture's files (default\n"
	  "0600: its owner only; 0640 lets its group read);\n"
	  "its directories get search bits where readable", ct_set_record },
	{ CT_OPT_WAKEUP, "wakeup", "MODE", "batch (default: drain every 100 ms or when a\n"
	  "ring is a quarter full) or always (wake the\n"
	  "reader for every record)", ct_set_record },
	{ 0 },
};

static const struct ct_opt ct_always_on_opts[] = {
	{ CT_OPT_FLIGHT, "flight-recorder", "SIZE",
	  "keep only the newest SIZE of the capture in\n"
	  "memory (e.g. 64M), overwriting the oldest; a\n"
	  "snapshot writes it to DIR/snapshot-N on SIGUSR1\n"
	  "and at the end", ct_set_record },
	{ CT_OPT_CHUNK_SIZE, "chunk-size", "SIZE",
	  "write DIR/chunk-N, each a capture of at most\n"
	  "SIZE (e.g. 256M), then begin the next", ct_set_record },
	{ CT_OPT_CHUNK_TIME, "chunk-time", "SECONDS",
	  "begin the next chunk after SECONDS (e.g. 10m)", ct_set_record },
	{ CT_OPT_MAX_CHUNKS, "max-chunks", "N",
	  "keep the newest N chunks, removing the oldest\n"
	  "(default: keep all)", ct_set_record },
	{ 0 },
};

static const struct ct_opt ct_trigger_table[] = {
	{ CT_OPT_TRIG_DELAY, "trigger-delay", "TIME",
	  "a task waited longer than TIME (e.g. 20ms)\n"
	  "from its wakeup or preemption to running", ct_set_record },
	{ CT_OPT_TRIG_PID, "trigger-pid", "PID", "... only a thread of process PID",
	  ct_set_record },
	{ CT_OPT_TRIG_TID, "trigger-tid", "TID", "... only thread TID",
	  ct_set_record },
	{ CT_OPT_TRIG_IRQ, "trigger-irq", "TIME",
	  "an interrupt or softirq ran longer than TIME", ct_set_record },
	{ CT_OPT_TRIG_EXEC, "trigger-exec", "NAME",
	  "a program named NAME (1-15 chars) was exec'd", ct_set_record },
	{ CT_OPT_TRIG_BEFORE, "trigger-before", "SECONDS",
	  "keep SECONDS before the trigger in its\n"
	  "snapshot (default: all the recorder holds)", ct_set_record },
	{ CT_OPT_TRIG_AFTER, "trigger-after", "SECONDS",
	  "go on recording SECONDS after it before\n"
	  "the snapshot is written (default 1, 0: none)", ct_set_record },
	{ CT_OPT_TRIG_COOLDOWN, "trigger-cooldown", "SECONDS",
	  "no trigger sooner than SECONDS after\n"
	  "the last (default 10)", ct_set_record },
	{ CT_OPT_TRIG_MAX, "trigger-max", "N",
	  "at most N triggers (default 10, 0: no limit)", ct_set_record },
	{ 0 },
};

static void ct_record_init(void *p)
{
	struct ct_record_opts *opts = p;

	opts->buffer_size = CT_DEFAULT_BUFFER_SIZE;
	opts->format = CT_FORMAT_TEXT;
	opts->file_mode = CT_FILE_MODE_DEFAULT;
	opts->events = ct_all_events();
	opts->trigger.after = 1.0;
	opts->trigger.cooldown = 10.0;
	opts->trigger.max = 10;
}

static int ct_record_finish(void *opts, int argc, char **argv, int first,
			    FILE *err)
{
	if (first < argc) {
		fprintf(err, "coretrace record: unexpected argument '%s'\n",
			argv[first]);
		return -1;
	}
	return ct_check_stacks(opts, err, "record") ? -1 :
	       ct_check_parts(opts, err);
}

static const struct ct_opt_group ct_record_groups[] = {
	{ "what to trace:", ct_trace_table, CT_TRACE_NOTE },
	{ "output and buffering:", ct_record_output_opts, NULL },
	{ NULL, ct_session_table, NULL },
	{ "always on (with -o DIR, which may exist and hold earlier parts):",
	  ct_always_on_opts, NULL },
	{ "triggers (with --flight-recorder; decided in the kernel, each takes a\n"
	  "snapshot; their events are traced whatever -e says):",
	  ct_trigger_table, NULL },
	{ NULL, NULL, NULL },
};

const struct ct_command ct_record_command = {
	.name = "record",
	.summary = "trace events and print them, one line each",
	.usage = "[options]",
	.description =
		"Trace until Ctrl-C, SIGTERM or the end of --duration, one line per\n"
		"event on stdout, then a summary of records received and lost on\n"
		"stderr. Filters run in the kernel: what they reject never reaches\n"
		"the ring buffer.\n",
	.groups = ct_record_groups,
	.footer =
		"exit status: 0 when tracing ended normally, 1 when it could not start\n"
		"(no privileges, no BTF) or failed, 2 for a bad command line.\n",
	.opts_size = sizeof(struct ct_record_opts),
	.init = ct_record_init,
	.finish = ct_record_finish,
};
