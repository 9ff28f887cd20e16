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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "coretrace.skel.h"
#include "ct_serve.h"
#include "layout.h"
#include "objopen.h"
#include "live_top.h"
#include "record.h"
#include "output.h"
#include "sys.h"
#include "trigger.h"

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
};

static volatile sig_atomic_t ct_stop_requested;
static volatile sig_atomic_t ct_snapshot_requested;
static int ct_libbpf_verbosity;

/* libbpf's warnings while loading, to explain a failed load in a sentence */
static char ct_load_log[1 << 16];
static size_t ct_load_log_len;

static void ct_on_signal(int sig)
{
	if (sig == SIGUSR1)
		ct_snapshot_requested = 1;
	else
		ct_stop_requested = 1;
}

static int ct_libbpf_print(enum libbpf_print_level level, const char *fmt,
			   va_list args)
{
	if (level == LIBBPF_WARN)
		ct_log_append(ct_load_log, sizeof(ct_load_log), &ct_load_log_len,
			      fmt, args);
	/* -v passes libbpf's log through, -vv with its debug lines */
	if ((level == LIBBPF_INFO && ct_libbpf_verbosity < 1) ||
	    (level == LIBBPF_DEBUG && ct_libbpf_verbosity < 2))
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void ct_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ct_on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a signal must interrupt the ring's epoll wait */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a flight recorder's snapshot; otherwise said and ignored */
	sigaction(SIGUSR1, &sa, NULL);
	/* a closed pipe shows up as EPIPE, and we end quietly */
	signal(SIGPIPE, SIG_IGN);
}

static double ct_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int ct_on_record(void *ctx, void *data, size_t len)
{
	struct ct_session *s = ctx;
	const union ct_record *rec = data;

	/* read in the ring, where it is: every reader bounds its strings */
	if (__builtin_expect(ct_check_record(data, len) == CT_DECODE_OK, 1)) {
		s->received[rec->hdr.type]++;
		return ct_output_feed(s->out, rec);
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

/*
 * -p, --trigger-pid: the threads the process has now, into @map; BPF
 * learns later ones itself.
 */
static int ct_seed_tids(struct bpf_map *map, uint32_t pid)
{
	int fd = bpf_map__fd(map);
	struct dirent *te;
	char path[64];
	__u8 one = 1;
	DIR *tasks;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	tasks = opendir(path);
	if (!tasks) {
		fprintf(stderr, "coretrace: no process with pid %u\n", pid);
		return -ESRCH;
	}
	while ((te = readdir(tasks))) {
		__u32 tid;

		if (te->d_name[0] < '1' || te->d_name[0] > '9')
			continue;
		tid = (__u32)strtoul(te->d_name, NULL, 10);
		if (!bpf_map_update_elem(fd, &tid, &one, BPF_ANY))
			n++;
	}
	closedir(tasks);
	return n ? 0 : -ESRCH;
}

/* The events a trigger watches: traced whatever -e says */
static uint64_t ct_trigger_events(const struct ct_trigger_opts *t)
{
	uint64_t mask = 0;

	if (t->delay_ns)
		mask |= 1ull << CT_EV_SCHED_SWITCH | 1ull << CT_EV_SCHED_WAKEUP |
			1ull << CT_EV_SCHED_WAKEUP_NEW;
	if (t->irq_ns)
		mask |= 1ull << CT_EV_IRQ_HANDLER_ENTRY |
			1ull << CT_EV_IRQ_HANDLER_EXIT |
			1ull << CT_EV_SOFTIRQ_ENTRY | 1ull << CT_EV_SOFTIRQ_EXIT;
	if (t->exec_len)
		mask |= 1ull << CT_EV_SCHED_PROCESS_EXEC;
	return mask;
}

/*
 * cgroup v2: every task's group is announced where the kernel has cgroups
 * (its cgroup tracepoints); -G needs them.
 */
static int ct_select_cgroup_programs(struct coretrace_bpf *skel,
				     const struct ct_record_opts *opts,
				     const char *events)
{
	const struct ct_event_desc *d = ct_cgroup_progs;
	bool moves = ct_tracepoint_exists(events, d->tp_category, d->tp_name);
	struct bpf_program *prog;
	char name[64];
	int i;

	if (opts->ncgroups && !moves) {
		fprintf(stderr, "coretrace: -G needs the tracepoint %s:%s, which this kernel does not have\n",
			d->tp_category, d->tp_name);
		return -ENOENT;
	}
	skel->rodata->ct_cgroup_records = moves && !opts->no_cgroup_names;
	for (i = 0; i < CT_CGROUP_PROGS; i++) {
		d = &ct_cgroup_progs[i];
		snprintf(name, sizeof(name), "handle_%s", d->name);
		prog = bpf_object__find_program_by_name(skel->obj, name);
		/* without names, only -G needs the moves */
		if (prog)
			bpf_program__set_autoload(prog, moves &&
				(skel->rodata->ct_cgroup_records ||
				 (i == 0 && opts->ncgroups)) &&
				ct_tracepoint_exists(events, d->tp_category,
						     d->tp_name));
	}
	return 0;
}

/*
 * Attach the selected events the kernel has; warn about the others. Two
 * families of programs share the tracepoints: the record handlers
 * (handle_<event>) and serve's (serve_<event>); only the one asked for
 * is loaded.
 */
static int ct_select_programs(struct coretrace_bpf *skel,
			      const struct ct_record_opts *opts)
{
	const char *events = ct_tracefs_events();
	uint64_t wanted = opts->events | ct_trigger_events(&opts->trigger);
	const char *family = opts->aggregate ? "serve_" : "handle_";
	struct bpf_program *prog;
	char prog_name[64];
	bool selected, exists;
	int i, enabled = 0;

	if (!events) {
		fprintf(stderr, "coretrace: tracefs is not mounted (try: mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -ENOENT;
	}
	bpf_object__for_each_program(prog, skel->obj)
		if (strncmp(bpf_program__name(prog), family, strlen(family)))
			bpf_program__set_autoload(prog, false);
	for (i = 0; i < CT_EV_MAX; i++) {
		const struct ct_event_desc *desc = &ct_events[i];

		if (!desc->tp_name[0])
			continue;
		snprintf(prog_name, sizeof(prog_name), "%s%s", family, desc->name);
		prog = bpf_object__find_program_by_name(skel->obj, prog_name);
		if (!prog)
			continue;
		selected = wanted & (1ull << i);
		exists = ct_tracepoint_exists(events, desc->tp_category,
					      desc->tp_name);
		if (i == CT_EV_TASK_RENAME && exists) {
			/*
			 * Always attached: when not asked for, it only
			 * re-announces a renamed task's name, so that names
			 * follow exec and prctl(PR_SET_NAME).
			 */
			skel->rodata->ct_rename_records = selected;
			enabled += selected;
			continue;
		}
		if ((i == CT_EV_SCHED_PROCESS_FORK ||
		     i == CT_EV_SCHED_PROCESS_EXIT) && opts->ncgroups && exists) {
			/* -G: children join their parent's group, the dead leave */
			if (i == CT_EV_SCHED_PROCESS_FORK)
				skel->rodata->ct_fork_records = selected;
			else
				skel->rodata->ct_exit_records = selected;
			enabled += selected;
			continue;
		}
		if (!selected) {
			bpf_program__set_autoload(prog, false);
			continue;
		}
		if (exists) {
			enabled++;
			continue;
		}
		fprintf(stderr, "coretrace: warning: this kernel has no tracepoint %s:%s; skipping it\n",
			desc->tp_category, desc->tp_name);
		bpf_program__set_autoload(prog, false);
	}
	if (!enabled) {
		fprintf(stderr, "coretrace: this kernel has none of the selected tracepoints\n");
		return -ENOENT;
	}
	return ct_select_cgroup_programs(skel, opts, events);
}

static void ct_configure_triggers(struct coretrace_bpf__rodata *ro,
				  const struct ct_trigger_opts *t)
{
	ro->ct_trig_delay_ns = t->delay_ns;
	ro->ct_trig_tgid = t->pid;
	ro->ct_trig_tid = t->tid;
	ro->ct_trig_irq_ns = t->irq_ns;
	ro->ct_trig_exec_len = t->exec_len;
	memcpy((char *)ro->ct_trig_exec_comm, t->exec, CT_COMM_LEN);
	ro->ct_trig_cooldown_ns = (__u64)(t->cooldown * 1e9);
	ro->ct_trig_max = t->max;
}

static void ct_configure_cgroups(struct coretrace_bpf__rodata *ro,
				 const struct ct_record_opts *opts)
{
	unsigned int i;

	ro->ct_filter_cgroups = opts->ncgroups;
	for (i = 0; i < opts->ncgroups; i++) {
		const struct ct_cgroup *cg = &opts->cgroups[i];

		ro->ct_cg_id[i] = cg->id;
		ro->ct_cg_level[i] = cg->level;
		ro->ct_cg_path_len[i] = (__u32)strlen(cg->path);
		memcpy((char *)ro->ct_cg_path[i], cg->path, CT_CGROUP_PATH_LEN);
	}
}

static int ct_cg_seed_one(uint32_t tid, void *arg)
{
	int fd = *(int *)arg;
	__u32 key = tid / 64;
	__u64 word;

	/*
	 * BPF sets and clears bits of the same word meanwhile: a bit lost
	 * to this read-modify-write is written back the next time its task
	 * is the current one
	 */
	if (tid >= CT_PID_LIMIT || bpf_map_lookup_elem(fd, &key, &word))
		return tid >= CT_PID_LIMIT ? 0 : -errno;
	word |= 1ull << (tid & 63);
	return bpf_map_update_elem(fd, &key, &word, BPF_ANY) ? -errno : 0;
}

/*
 * -G: the threads in the groups when tracing starts. Seeded once every
 * handler runs, so that a task forked meanwhile is learnt by them.
 */
static int ct_seed_cgroups(struct coretrace_bpf *skel,
			   const struct ct_record_opts *opts)
{
	int fd = bpf_map__fd(skel->maps.ct_cg_tids), n;
	unsigned int i;

	for (i = 0; i < opts->ncgroups; i++) {
		n = ct_cgroup_threads(opts->cgroups[i].arg, 64, ct_cg_seed_one, &fd);
		if (n < 0) {
			fprintf(stderr, "coretrace: cannot list the threads of group %s: %s\n",
				opts->cgroups[i].arg, strerror(-n));
			return n;
		}
		if (opts->verbose)
			fprintf(stderr, "coretrace: %d threads in group %s (%s, id %llu)\n",
				n, opts->cgroups[i].arg, opts->cgroups[i].path[0] ?
				opts->cgroups[i].path : "/",
				(unsigned long long)opts->cgroups[i].id);
	}
	return 0;
}

/*
 * coretrace serve: the handlers add up in the ct_agg_ maps (one entry
 * each otherwise), and the ring, which nothing is written to, is the
 * smallest there is.
 */
static int ct_configure_aggregate(struct coretrace_bpf *skel,
				  const struct ct_record_opts *opts, int ncpus)
{
	if (ncpus <= 0)
		return -EINVAL;
	/* the groups' entries, and the unknown and folded ones */
	return bpf_map__set_max_entries(skel->maps.ct_agg_groups,
					opts->agg_cgroups + CT_AGG_IDX_FIRST) ||
	       bpf_map__set_max_entries(skel->maps.ct_agg_group_ids,
					opts->agg_cgroups) ||
	       bpf_map__set_max_entries(skel->maps.ct_agg_free,
					opts->agg_cgroups) ||
	       bpf_map__set_max_entries(skel->maps.ct_agg_folded,
					CT_AGG_FOLDED_KEPT) ||
	       bpf_map__set_max_entries(skel->maps.ct_agg_cpus, (__u32)ncpus) ||
	       bpf_map__set_max_entries(skel->maps.ct_agg_irqs, CT_AGG_IRQS) ?
	       -EINVAL : 0;
}

/* Filters and ring layout go into .rodata before the object is loaded. */
static int ct_configure(struct coretrace_bpf *skel,
			const struct ct_record_opts *opts)
{
	struct coretrace_bpf__rodata *ro = skel->rodata;
	int ncpus = libbpf_num_possible_cpus();
	int err;

	ro->ct_filter_tgid = opts->pid;
	ro->ct_filter_tid = opts->tid;
	ro->ct_filter_comm_len = opts->comm_len;
	ro->ct_filter_comm_prefix = opts->comm_prefix;
	memcpy((char *)ro->ct_filter_comm, opts->comm, CT_COMM_LEN);
	ro->ct_filter_tasks = opts->pid || opts->tid || opts->comm_len ||
			      opts->ncgroups;
	ro->ct_filter_cpus = opts->cpus_set;
	ct_configure_cgroups(ro, opts);
	memcpy((__u8 *)ro->ct_cpu_allowed, opts->cpus, CT_MAX_CPUS);
	ro->ct_wakeup_always = opts->wakeup_always;
	ro->ct_wakeup_bytes = opts->buffer_size / 4;
	ro->ct_per_cpu_rings = opts->per_cpu_rings;
	ct_configure_triggers(ro, &opts->trigger);
	ro->ct_checks = ro->ct_filter_tasks || ro->ct_filter_cpus ||
			ro->ct_filter_tgid || ro->ct_trig_tgid;
	/* the delay trigger's table, only when it is asked for (or serving) */
	if (!opts->trigger.delay_ns && !opts->aggregate &&
	    bpf_map__set_max_entries(skel->maps.ct_runnable, 1))
		return -EINVAL;
	if (opts->aggregate && ct_configure_aggregate(skel, opts, ncpus))
		return -EINVAL;
	/* -G's tasks, only when it is given (512 KiB otherwise unused) */
	if (!opts->ncgroups &&
	    bpf_map__set_max_entries(skel->maps.ct_cg_tids, 1))
		return -EINVAL;

	if (ncpus <= 0)
		return -EINVAL;
	/* a row of counters per CPU that can exist */
	err = bpf_map__set_max_entries(skel->maps.ct_stats,
				       (__u32)ncpus * CT_STATS_STRIDE);
	if (err)
		return err;
	if (opts->per_cpu_rings) {
		/*
		 * The rings themselves are created after load, each of
		 * buffer_size (the kernel does not compare an inner ring's
		 * size with the template's).
		 */
		err = bpf_map__set_max_entries(skel->maps.ct_rings, ncpus);
		/* the shared ring is unused: keep it at its minimum */
		if (!err)
			err = bpf_map__set_max_entries(skel->maps.ct_ring,
						       CT_MIN_BUFFER_SIZE);
		return err;
	}
	return bpf_map__set_max_entries(skel->maps.ct_ring, opts->buffer_size);
}

/* One sentence: the field a program could not find, or the errno. */
static void ct_explain_load_failure(struct coretrace_bpf *skel, int err)
{
	struct bpf_program *prog;
	char sentence[256];

	bpf_object__for_each_program(prog, skel->obj) {
		if (bpf_program__autoload(prog) &&
		    strstr(ct_load_log, bpf_program__name(prog)) &&
		    ct_core_failure_sentence(ct_load_log, bpf_program__name(prog),
					     sentence, sizeof(sentence))) {
			fprintf(stderr, "coretrace: %s\n", sentence);
			return;
		}
	}
	fprintf(stderr, "coretrace: could not load the BPF programs: %s (run with -vv for libbpf's log)\n",
		strerror(-err));
}

static int ct_open_and_load(const struct ct_record_opts *opts,
			    struct coretrace_bpf **skelp)
{
	struct coretrace_bpf *skel;
	struct ct_layout layout;
	int err;

	err = ct_layout_prepare(&layout, &opts->layout, stderr);
	if (err) {
		ct_layout_free(&layout);
		return err;
	}
	/* -v: a kernel without BTF is served from its format files */
	if (layout.source == CT_LAYOUT_FORMATS && !opts->layout.from_formats &&
	    opts->verbose)
		fprintf(stderr, "coretrace: the kernel has no BTF: the record layouts come from the tracepoints' format files\n");
	skel = ct_layout_open(&layout);
	if (!skel) {
		err = -errno;
		fprintf(stderr, "coretrace: could not open the BPF object: %s\n",
			strerror(-err));
		ct_layout_free(&layout);
		return err;
	}
	err = ct_configure(skel, opts);
	if (err)
		fprintf(stderr, "coretrace: could not size the BPF maps: %s\n",
			strerror(-err));
	if (!err)
		err = ct_select_programs(skel, opts);
	if (!err)
		ct_layout_drop(&layout, skel, stderr);
	if (!err) {
		err = coretrace_bpf__load(skel);
		if (err == -EPERM || err == -EACCES)
			fprintf(stderr, "coretrace: the kernel refused to load BPF programs: run as root (sudo) or with CAP_BPF and CAP_PERFMON\n");
		else if (err)
			ct_explain_load_failure(skel, err);
	}
	ct_layout_free(&layout);
	if (!err && opts->pid)
		err = ct_seed_tids(skel->maps.ct_tids, opts->pid);
	if (!err && opts->trigger.pid)
		err = ct_seed_tids(skel->maps.ct_trig_tids, opts->trigger.pid);
	if (err) {
		coretrace_bpf__destroy(skel);
		return err;
	}
	*skelp = skel;
	return 0;
}

static int ct_attach(struct coretrace_bpf *skel)
{
	int err = coretrace_bpf__attach(skel);

	if (err)
		fprintf(stderr, "coretrace: could not attach to the tracepoints: %s\n",
			strerror(-err));
	else
		skel->bss->ct_tracing = true;	/* every program at once */
	return err;
}

/* One ring for all CPUs, or one ring per CPU put into ct_rings. */
static struct ring_buffer *ct_open_rings(struct coretrace_bpf *skel,
					 const struct ct_record_opts *opts,
					 struct ct_session *s)
{
	int outer = bpf_map__fd(skel->maps.ct_rings);
	int ncpus = libbpf_num_possible_cpus();
	struct ring_buffer *rb = NULL;
	__u32 cpu;
	int fd;

	if (!opts->per_cpu_rings)
		return ring_buffer__new(bpf_map__fd(skel->maps.ct_ring),
					ct_on_record, s, NULL);
	for (cpu = 0; cpu < (__u32)ncpus; cpu++) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0,
				    opts->buffer_size, NULL);
		if (fd < 0 || bpf_map_update_elem(outer, &cpu, &fd, BPF_ANY)) {
			fprintf(stderr, "coretrace: could not create the ring of CPU %u: %s\n",
				cpu, strerror(errno));
			ring_buffer__free(rb);
			return NULL;
		}
		if (!rb)
			rb = ring_buffer__new(fd, ct_on_record, s, NULL);
		else if (ring_buffer__add(rb, fd, ct_on_record, s))
			rb = (ring_buffer__free(rb), NULL);
		close(fd);	/* the outer map and the mapping keep it */
		if (!rb)
			return NULL;
	}
	return rb;
}

/*
 * The counters, CPU by CPU (ct_stats: a row per CPU), read where BPF
 * writes them: @rows (ncpus x CT_STATS_STRIDE), for ct_session_stats().
 */
static const struct ct_counts *ct_map_counts(struct coretrace_bpf *skel,
					     int *ncpus, size_t *bytes)
{
	const struct bpf_map *map = skel->maps.ct_stats;
	long page = sysconf(_SC_PAGESIZE);
	void *rows;

	*ncpus = libbpf_num_possible_cpus();
	*bytes = (size_t)bpf_map__max_entries(map) * sizeof(struct ct_counts);
	*bytes = (*bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
	if (*ncpus <= 0 || (size_t)*ncpus * CT_STATS_STRIDE > bpf_map__max_entries(map)) {
		errno = EINVAL;
		return NULL;
	}
	rows = mmap(NULL, *bytes, PROT_READ, MAP_SHARED, bpf_map__fd(map), 0);
	return rows == MAP_FAILED ? NULL : rows;
}

/* The session's counters, mapped at first use until ct_unmap_stats() */
static const struct ct_counts *ct_session_stats(struct coretrace_bpf *skel,
						struct ct_session *s)
{
	if (!s->stats)
		s->stats = ct_map_counts(skel, &s->stats_ncpus, &s->stats_bytes);
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

static uint64_t ct_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/*
 * Hits the kernel did not run a handler for: a tracepoint that fires while
 * another BPF program runs on the same CPU (an interrupt arriving during a
 * handler, or during a BPF map call of a process there) runs none of its
 * programs (trace_call_bpf). Linux counts such a hit in the programs'
 * recursion_misses from 6.7 on; before, nothing counts it, and how many
 * were missed cannot be told.
 */
#define CT_MISSES_MAJOR		6
#define CT_MISSES_MINOR		7

static bool ct_kernel_counts_misses(void)
{
	struct utsname uts;

	return !uname(&uts) &&
	       ct_release_at_least(uts.release, CT_MISSES_MAJOR,
				   CT_MISSES_MINOR);
}

static unsigned long long ct_read_misses(struct coretrace_bpf *skel,
					 unsigned long long misses[CT_EV_MAX])
{
	unsigned long long total = 0;
	char name[64];
	int i;

	for (i = 0; i < CT_EV_MAX; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		struct bpf_program *prog;

		misses[i] = 0;
		snprintf(name, sizeof(name), "handle_%s", ct_events[i].name);
		prog = bpf_object__find_program_by_name(skel->obj, name);
		if (!prog || bpf_program__fd(prog) < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		misses[i] = info.recursion_misses;
		total += misses[i];
	}
	return total;
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

static void ct_print_summary(struct coretrace_bpf *skel,
			     struct ct_session *s)
{
	struct ct_counts totals[CT_EV_MAX];
	unsigned long long received = 0, lost = 0, expected = 0;
	unsigned long long misses[CT_EV_MAX], missed;
	bool counted;
	int i;

	missed = ct_read_misses(skel, misses);
	if (ct_read_counts(skel, s, totals)) {
		fprintf(stderr, "coretrace: could not read the loss counters\n");
		return;
	}
	counted = ct_kernel_counts_misses();
	for (i = 0; i < CT_EV_MAX; i++) {
		received += s->received[i];
		lost += totals[i].lost;
		expected += totals[i].attempted - totals[i].lost;
		if (s->opts->verbose && (totals[i].attempted || totals[i].filtered ||
					 misses[i]))
			ct_print_event_counts(&ct_events[i], &totals[i],
					      s->received[i],
					      counted ? (long long)misses[i] : -1);
	}
	fprintf(stderr, "coretrace: %llu records received, %llu lost\n",
		received, lost);
	if (s->announced[CT_EV_CGROUP_NAME])
		fprintf(stderr, "coretrace: %llu groups and %llu tasks' groups announced from /sys/fs/cgroup and /proc when tracing began\n",
			s->announced[CT_EV_CGROUP_NAME],
			s->announced[CT_EV_TASK_CGROUP]);
	if (missed)
		fprintf(stderr, "coretrace: %llu tracepoint hits missed: the kernel skips a handler while another BPF program runs on that CPU (-v: per event)\n",
			missed);
	else if (!counted && s->opts->verbose)
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
	struct ct_trigger_state st = { 0, 0, 0, 0 };
	const struct ct_trigger_ctl *t = &s->triggers;
	__u32 zero = 0;

	bpf_map_lookup_elem(bpf_map__fd(skel->maps.ct_trig_state), &zero, &st);
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
	double start = ct_now(), next_report = start + 1.0, now;
	double deadline = opts->duration > 0 ? start + opts->duration : 0;
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
		now = ct_now();
		if (opts->verbose && now >= next_report) {
			ct_print_progress(skel, s, now - start);
			next_report += 1.0;
		}
		if (deadline && now >= deadline)
			break;
	}
	return 0;
}

static bool ct_is_cgroup_program(const struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog);
	int i;

	for (i = 0; i < CT_CGROUP_PROGS; i++)
		if (!strncmp(name, "handle_", 7) &&
		    !strcmp(name + 7, ct_cgroup_progs[i].name))
			return true;
	return false;
}

/* Does @prog trace its event (not only keep names up to date)? */
static bool ct_program_traces(const struct coretrace_bpf *skel,
			      const struct bpf_program *prog)
{
	if (prog == skel->progs.handle_task_rename)
		return skel->rodata->ct_rename_records && bpf_program__autoload(prog);
	if (prog == skel->progs.handle_sched_process_fork)
		return skel->rodata->ct_fork_records && bpf_program__autoload(prog);
	if (prog == skel->progs.handle_sched_process_exit)
		return skel->rodata->ct_exit_records && bpf_program__autoload(prog);
	if (ct_is_cgroup_program(prog))
		return false;	/* they announce groups; no event of their own */
	return bpf_program__autoload(prog);
}

static void ct_announce_start(const struct coretrace_bpf *skel,
			      const struct ct_record_opts *opts)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, skel->obj)
		n += ct_program_traces(skel, prog);
	fprintf(stderr, "coretrace: tracing %d event%s", n, n == 1 ? "" : "s");
	if (opts->verbose) {
		const char *sep = ":";

		bpf_object__for_each_program(prog, skel->obj) {
			if (!ct_program_traces(skel, prog))
				continue;
			fprintf(stderr, "%s %s", sep,
				bpf_program__section_name(prog) + 3);
			sep = ",";
		}
	}
	if (opts->duration > 0)
		fprintf(stderr, " for %g s", opts->duration);
	fprintf(stderr, "; Ctrl-C to stop\n");
}

static bool ct_needs_ksyms(const struct ct_record_opts *opts)
{
	return opts->events & CT_FUNCTION_RECORDS;
}

static int ct_session_init(struct ct_session *s,
			   const struct ct_record_opts *opts)
{
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->opts = opts;
	ct_trigger_init(&s->triggers, &opts->trigger);
	if (ct_names_init(&s->names, CT_COMM_CAPACITY))
		return -ENOMEM;
	ct_comm_cache_prefault(&s->names.comms);
	ct_cgroup_names_prefault(&s->names.cgroups);
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
	ct_names_free(&s->names);
}

/* -o: a capture, with what the CTF env says of this machine */
static int ct_open_capture(struct ct_session *s)
{
	struct ct_ctf_env env = { "unknown", "unknown", 0 };
	struct timespec real, mono;
	struct utsname uts;
	int err;

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
			.verbose = s->opts->verbose,
		};

		s->out = ct_parts_output(&parts, libbpf_num_possible_cpus(),
					 &env, &s->names, ct_mono_ns(), &err);
	} else {
		s->out = ct_capture_output(s->opts->output_dir,
					   libbpf_num_possible_cpus(), &env,
					   &s->names, ct_mono_ns(), &err);
	}
	if (!s->out)
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
	struct ring_buffer *rb;
	uint64_t start_ns;
	bool quiet;
	int err;

	rb = ct_open_rings(skel, s->opts, s);
	if (!rb) {
		fprintf(stderr, "coretrace: could not map the ring buffer: %s\n",
			strerror(errno));
		return -EIO;
	}
	err = s->opts->top_interval > 0 ? 0 : ct_open_output(s);
	start_ns = ct_mono_ns();
	if (!err)
		err = ct_attach(skel);
	if (!err && s->opts->ncgroups)
		err = ct_seed_cgroups(skel, s->opts);
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
	if (!err && skel->rodata->ct_cgroup_records)
		err = ct_announce_cgroups(s, start_ns);
	/* "tracing": set up, the first record is read next */
	if (!err)
		ct_announce_start(skel, s->opts);
	if (!err)
		err = ct_drain(rb, skel, s);

	/* stop every program at once, then take what is still in the ring */
	skel->bss->ct_tracing = false;
	coretrace_bpf__detach(skel);
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

int ct_programs_open(const struct ct_record_opts *opts,
		     struct coretrace_bpf **skel)
{
	ct_libbpf_verbosity = opts->verbose;
	libbpf_set_print(ct_libbpf_print);
	if (!ct_can_trace()) {
		fprintf(stderr, "coretrace: tracing needs root or the CAP_BPF and CAP_PERFMON capabilities; run it with sudo\n");
		return -EPERM;
	}
	return ct_open_and_load(opts, skel);
}

int ct_programs_attach(struct coretrace_bpf *skel)
{
	return ct_attach(skel);
}

int ct_record(const struct ct_record_opts *opts)
{
	struct ct_session *session;
	struct coretrace_bpf *skel = NULL;
	int err;

	ct_libbpf_verbosity = opts->verbose;
	libbpf_set_print(ct_libbpf_print);
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
	ct_install_signals();
	err = ct_open_and_load(opts, &skel);
	if (!err) {
		err = ct_run(skel, session);
		coretrace_bpf__destroy(skel);
	}
	ct_session_free(session);
	free(session);
	return err ? CT_EXIT_FAILURE : CT_EXIT_OK;
}
