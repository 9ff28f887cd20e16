// SPDX-License-Identifier: GPL-2.0
/*
 * missing-field: load tests/bpf/missing_field.bpf.c's two programs one at
 * a time and report what happens, in coretrace's words for a CO-RE
 * failure (ct_core_failure_sentence(), the function coretrace's loader
 * uses):
 *   missing-field: unguarded: rejected: <sentence>
 *   missing-field: guarded: loaded, hits=N present=M
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/btfgen.h"
#include "loader/layout.h"
#include "missing_field.skel.h"

static char log_buf[1 << 20];
static size_t log_len;

static int capture(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	ct_log_append(log_buf, sizeof(log_buf), &log_len, fmt, args);
	return 0;
}

/*
 * On a kernel without BTF, the layouts coretrace would use: BTF built
 * from the format files (btfgen.c), as /proc/self/fd/N; "" otherwise.
 */
static char btf_path[64];

static void layout_from_formats(void)
{
	struct missing_field_bpf *skel;
	struct ct_btf_gen gen;
	int fd;

	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		return;
	skel = missing_field_bpf__open();
	if (!skel || ct_btf_from_object(skel->obj, "/sys/kernel/tracing/events", &gen))
		return;
	fd = ct_btf_to_fd(gen.btf);
	if (fd >= 0)
		snprintf(btf_path, sizeof(btf_path), "/proc/self/fd/%d", fd);
	ct_btf_gen_free(&gen);
	missing_field_bpf__destroy(skel);
	printf("missing-field: no kernel BTF: layouts from the format files\n");
}

static struct missing_field_bpf *load_only(const char *name, int *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts,
		    .btf_custom_path = btf_path[0] ? btf_path : NULL);
	struct missing_field_bpf *skel = missing_field_bpf__open_opts(&opts);
	struct bpf_program *prog;

	if (!skel) {
		*err = -1;
		return NULL;
	}
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, !strcmp(bpf_program__name(prog), name));
	log_len = 0;
	log_buf[0] = '\0';
	*err = missing_field_bpf__load(skel);
	return skel;
}

int main(void)
{
	struct missing_field_bpf *skel;
	unsigned long long counts[2] = { 0, 0 };
	char sentence[256];
	__u32 key;
	int err;

	layout_from_formats();
	libbpf_set_print(capture);
	skel = load_only("read_unguarded", &err);
	if (err && ct_core_failure_sentence(log_buf, "read_unguarded", sentence,
					    sizeof(sentence)))
		printf("missing-field: unguarded: rejected: %s\n", sentence);
	else
		printf("missing-field: unguarded: %s\n", err ? "rejected, no CO-RE reason found" : "loaded");
	missing_field_bpf__destroy(skel);

	skel = load_only("read_guarded", &err);
	if (err || missing_field_bpf__attach(skel)) {
		printf("missing-field: guarded: rejected\n%s", log_buf);
		return 1;
	}
	usleep(300000);
	missing_field_bpf__detach(skel);
	for (key = 0; key < 2; key++)
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.field_counts), &key,
				    &counts[key]);
	printf("missing-field: guarded: loaded, hits=%llu present=%llu\n",
	       counts[0], counts[1]);
	missing_field_bpf__destroy(skel);
	return 0;
}
