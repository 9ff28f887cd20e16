// SPDX-License-Identifier: GPL-2.0
/*
 * btf-layout: print a struct's layout as the running kernel's BTF
 * describes it, read with libbpf's BTF API.
 *
 *   btf-layout STRUCT
 *
 * Output:
 *   struct trace_entry size 8
 *   member type offset 0 size 2
 *   ...
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static int print_layout(const struct btf *btf, const char *name)
{
	const struct btf_member *member;
	const struct btf_type *type;
	int id, i;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	if (id < 0) {
		fprintf(stderr, "btf-layout: no struct %s in the kernel's BTF\n",
			name);
		return 1;
	}
	type = btf__type_by_id(btf, id);
	printf("struct %s size %u\n", name, type->size);
	member = btf_members(type);
	for (i = 0; i < btf_vlen(type); i++, member++) {
		__u32 bits = btf_member_bit_offset(type, i);
		long long size = btf__resolve_size(btf, member->type);

		printf("member %s offset %u size %lld\n",
		       btf__name_by_offset(btf, member->name_off), bits / 8,
		       size);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *btf;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: btf-layout STRUCT\n");
		return 2;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(stderr, "btf-layout: cannot load the kernel's BTF: %s\n",
			strerror(errno));
		return 1;
	}
	rc = print_layout(btf, argv[1]);
	btf__free(btf);
	return rc;
}
