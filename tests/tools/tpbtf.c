// SPDX-License-Identifier: GPL-2.0
/*
 * tpbtf: attach one sched_switch variant of tests/bpf/switch_variants
 * ("tp", "btf", or "nocomm": tp without next_comm), or "all": switch_tp and the minimal handlers of the
 * other five events make bench records (its "minimal" tracer); drain the
 * ring every 100 ms until SIGINT/SIGTERM, then print "tpbtf: variant=V
 * records=N lost=L". Prints "tpbtf: attached" once tracing. Benchmark
 * tool for tests/guest/bench-tpbtf and bench-tracers.
 *
 *   tpbtf tp|btf|all|nocomm
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "switch_variants.skel.h"

static volatile sig_atomic_t stop;
static unsigned long long records;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int on_record(void *ctx, void *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	records++;
	return 0;
}

static unsigned long long lost_total(struct switch_variants_bpf *skel)
{
	int ncpus = libbpf_num_possible_cpus(), cpu;
	unsigned long long sum = 0, values[512];
	__u32 key = 0;

	if (ncpus <= 0 || ncpus > 512 ||
	    bpf_map_lookup_elem(bpf_map__fd(skel->maps.sv_lost), &key, values))
		return 0;
	for (cpu = 0; cpu < ncpus; cpu++)
		sum += values[cpu];
	return sum;
}

int main(int argc, char **argv)
{
	struct switch_variants_bpf *skel;
	struct ring_buffer *rb;
	bool btf, all, nocomm;

	if (argc != 2 || (strcmp(argv[1], "tp") && strcmp(argv[1], "btf") &&
			  strcmp(argv[1], "all") && strcmp(argv[1], "nocomm"))) {
		fprintf(stderr, "usage: tpbtf tp|btf|all|nocomm\n");
		return 2;
	}
	btf = !strcmp(argv[1], "btf");
	all = !strcmp(argv[1], "all");
	nocomm = !strcmp(argv[1], "nocomm");
	skel = switch_variants_bpf__open();
	if (!skel)
		return 1;
	bpf_program__set_autoload(skel->progs.switch_tp, !btf && !nocomm);
	bpf_program__set_autoload(skel->progs.switch_tp_nocomm, nocomm);
	bpf_program__set_autoload(skel->progs.switch_btf, btf);
	bpf_program__set_autoload(skel->progs.min_wakeup, all);
	bpf_program__set_autoload(skel->progs.min_wakeup_new, all);
	bpf_program__set_autoload(skel->progs.min_fork, all);
	bpf_program__set_autoload(skel->progs.min_exec, all);
	bpf_program__set_autoload(skel->progs.min_exit, all);
	if (switch_variants_bpf__load(skel) || switch_variants_bpf__attach(skel)) {
		fprintf(stderr, "tpbtf: could not load or attach the %s variant\n",
			argv[1]);
		switch_variants_bpf__destroy(skel);
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.sv_ring), on_record, NULL, NULL);
	if (!rb) {
		switch_variants_bpf__destroy(skel);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "tpbtf: attached\n");
	/* as coretrace: records are submitted without a wakeup, drained on a timer */
	while (!stop) {
		ring_buffer__poll(rb, 100);
		ring_buffer__consume(rb);
	}
	switch_variants_bpf__detach(skel);
	ring_buffer__consume(rb);
	printf("tpbtf: variant=%s records=%llu lost=%llu\n", argv[1], records,
	       lost_total(skel));
	ring_buffer__free(rb);
	switch_variants_bpf__destroy(skel);
	return 0;
}
