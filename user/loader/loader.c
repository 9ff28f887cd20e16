// SPDX-License-Identifier: GPL-2.0
/*
 * The loader: everything coretrace says to the kernel. It opens the BPF
 * object against the layouts it chose (objopen.c), writes the settings of
 * a recording into it, picks the programs of the events asked for (the
 * record handlers, or serve's), loads and attaches them, seeds the
 * filters' maps, and gives the rings and the counters to its caller
 * (loader.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "base/clock.h"
#include "coretrace.skel.h"
#include "ct_serve.h"
#include "loader/layout.h"
#include "loader/loader.h"
#include "loader/sys.h"

static int ct_libbpf_verbosity;

/* libbpf's warnings while loading, to explain a failed load in a sentence */
static char ct_load_log[1 << 16];
static size_t ct_load_log_len;

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
 * -g: the stack programs of the switch and the wakeup handlers loaded,
 * attached by ct_loader_attach() after them (so that their records
 * follow). Without -g, they are not loaded and their table has one entry.
 */
static const struct {
	enum ct_event_type type;
	const char *prog;
} ct_stack_progs[] = {
	{ CT_EV_SCHED_SWITCH, "stack_sched_switch" },
	{ CT_EV_SCHED_WAKING, "stack_sched_waking" },
};

static void ct_select_stack_programs(struct coretrace_bpf *skel,
				     const struct ct_record_opts *opts)
{
	struct bpf_program *prog, *handler;
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(ct_stack_progs) / sizeof(ct_stack_progs[0]); i++) {
		prog = bpf_object__find_program_by_name(skel->obj,
							ct_stack_progs[i].prog);
		snprintf(name, sizeof(name), "handle_%s",
			 ct_events[ct_stack_progs[i].type].name);
		handler = bpf_object__find_program_by_name(skel->obj, name);
		if (!prog)
			continue;
		bpf_program__set_autoattach(prog, false);
		bpf_program__set_autoload(prog, opts->stacks && !opts->aggregate &&
					  handler && bpf_program__autoload(handler));
	}
}

/* Attach the stack programs loaded, after the handlers; 0 or -errno */
static int ct_attach_stack_programs(struct coretrace_bpf *skel)
{
	struct bpf_program *prog;
	struct bpf_link *link;
	size_t i;

	for (i = 0; i < sizeof(ct_stack_progs) / sizeof(ct_stack_progs[0]); i++) {
		prog = bpf_object__find_program_by_name(skel->obj,
							ct_stack_progs[i].prog);
		if (!prog || !bpf_program__autoload(prog))
			continue;
		link = bpf_program__attach(prog);
		if (!link)
			return -errno;
		/* the skeleton's links: detached and freed with the others */
		if (prog == skel->progs.stack_sched_switch)
			skel->links.stack_sched_switch = link;
		else
			skel->links.stack_sched_waking = link;
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
	ct_select_stack_programs(skel, opts);
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
int ct_loader_seed_cgroups(struct coretrace_bpf *skel,
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
		if (opts->session.verbose)
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
	ro->ct_stacks = opts->stacks;
	if (!opts->stacks &&
	    bpf_map__set_max_entries(skel->maps.ct_stack_ids, 1))
		return -EINVAL;
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

	err = ct_layout_prepare(&layout, &opts->session.layout, stderr);
	if (err) {
		ct_layout_free(&layout);
		return err;
	}
	/* -v: a kernel without BTF is served from its format files */
	if (layout.source == CT_LAYOUT_FORMATS && !opts->session.layout.from_formats &&
	    opts->session.verbose)
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

int ct_loader_attach(struct coretrace_bpf *skel)
{
	int err = coretrace_bpf__attach(skel);

	if (!err)
		err = ct_attach_stack_programs(skel);
	if (err)
		fprintf(stderr, "coretrace: could not attach to the tracepoints: %s\n",
			strerror(-err));
	else
		skel->bss->ct_tracing = true;	/* every program at once */
	return err;
}

/* One ring for all CPUs, or one ring per CPU put into ct_rings. */
struct ring_buffer *ct_loader_rings(struct coretrace_bpf *skel,
				    const struct ct_record_opts *opts,
				    ring_buffer_sample_fn sample, void *ctx)
{
	int outer = bpf_map__fd(skel->maps.ct_rings);
	int ncpus = libbpf_num_possible_cpus();
	struct ring_buffer *rb = NULL;
	__u32 cpu;
	int fd;

	if (!opts->per_cpu_rings)
		return ring_buffer__new(bpf_map__fd(skel->maps.ct_ring),
					sample, ctx, NULL);
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
			rb = ring_buffer__new(fd, sample, ctx, NULL);
		else if (ring_buffer__add(rb, fd, sample, ctx))
			rb = (ring_buffer__free(rb), NULL);
		close(fd);	/* the outer map and the mapping keep it */
		if (!rb)
			return NULL;
	}
	return rb;
}

/*
 * The counters, CPU by CPU (ct_stats: a row per CPU), read where BPF
 * writes them: @rows (ncpus x CT_STATS_STRIDE); unmapped with munmap(@bytes).
 */
const struct ct_counts *ct_loader_counts(struct coretrace_bpf *skel,
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

bool ct_loader_counts_misses(void)
{
	struct utsname uts;

	return !uname(&uts) &&
	       ct_release_at_least(uts.release, CT_MISSES_MAJOR,
				   CT_MISSES_MINOR);
}

unsigned long long ct_loader_misses(struct coretrace_bpf *skel,
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
static bool ct_loader_traces(const struct coretrace_bpf *skel,
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

int ct_loader_traced(const struct coretrace_bpf *skel, const char **names,
		     int max)
{
	static const char *const families[] = { "handle_", "serve_" };
	struct bpf_program *prog;
	char name[64];
	int i, f, n = 0;

	/* in the event table's order */
	for (i = 0; i < CT_EV_MAX; i++) {
		for (f = 0; f < 2 && ct_events[i].tp_name[0]; f++) {
			snprintf(name, sizeof(name), "%s%s", families[f],
				 ct_events[i].name);
			prog = bpf_object__find_program_by_name(skel->obj, name);
			if (prog && ct_loader_traces(skel, prog) && n < max)
				names[n++] = bpf_program__section_name(prog) + 3;
		}
	}
	return n;
}

bool ct_loader_names_groups(const struct coretrace_bpf *skel)
{
	return skel->rodata->ct_cgroup_records;
}

int ct_loader_open(const struct ct_record_opts *opts,
		   struct coretrace_bpf **skel)
{
	ct_libbpf_verbosity = opts->session.verbose;
	libbpf_set_print(ct_libbpf_print);
	if (!ct_can_trace()) {
		fprintf(stderr, "coretrace: tracing needs root or the CAP_BPF and CAP_PERFMON capabilities; run it with sudo\n");
		return -EPERM;
	}
	return ct_open_and_load(opts, skel);
}

int ct_loader_map_fd(struct coretrace_bpf *skel)
{
	return bpf_map__fd(skel->maps.ct_trig_state);
}

uint64_t ct_loader_arm_triggers(struct coretrace_bpf *skel)
{
	uint64_t now = ct_mono_ns();

	skel->bss->ct_trig_armed_ns = now;
	return now;
}

void ct_loader_detach(struct coretrace_bpf *skel)
{
	skel->bss->ct_tracing = false;	/* every program at once */
	coretrace_bpf__detach(skel);
}

void ct_loader_close(struct coretrace_bpf *skel)
{
	coretrace_bpf__destroy(skel);
}

int ct_loader_trigger_state(struct coretrace_bpf *skel,
			    struct ct_trigger_state *st)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(bpf_map__fd(skel->maps.ct_trig_state), &zero,
				   st) ? -errno : 0;
}
