// SPDX-License-Identifier: GPL-2.0
/*
 * BTF from tracefs format files. A classic tracepoint program reads the
 * kernel's record of its event through CO-RE field relocations against a
 * struct trace_event_raw_*; libbpf finds that struct by name in the
 * running kernel's BTF and matches fields by name, with integers of any
 * size compatible with each other, arrays by their element type and
 * pointers with pointers. Every tracepoint publishes the same layout in
 * its format file (name, offset, size, signedness of each field), which is
 * all that matching needs: the struct is rebuilt here with libbpf's BTF
 * writing API, one member per field.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader/btfgen.h"

/* an integer type of @size bytes, made once per size and signedness */
static int ct_btf_int(struct btf *btf, int size, bool is_signed)
{
	static const char *const names[2][9] = {
		{ [1] = "u8", [2] = "u16", [4] = "u32", [8] = "u64" },
		{ [1] = "s8", [2] = "s16", [4] = "s32", [8] = "s64" },
	};
	const char *name;
	int id;

	if (size <= 0 || size > 8 || !names[is_signed][size])
		return -EINVAL;
	name = names[is_signed][size];
	id = btf__find_by_name_kind(btf, name, BTF_KIND_INT);
	if (id > 0)
		return id;
	return btf__add_int(btf, name, size, is_signed ? BTF_INT_SIGNED : 0);
}

/* The member type of @f, or -errno with the reason in @why */
static int ct_btf_field_type(struct btf *btf, const struct ct_format_field *f,
			     char *why, size_t why_len)
{
	int elem, index;

	if (f->data_loc) {
		/* offset and length of the data, as a u32 */
		if (f->size != 4) {
			snprintf(why, why_len, "a %d-byte __data_loc field", f->size);
			return -EINVAL;
		}
		return ct_btf_int(btf, 4, false);
	}
	if (f->pointer && !f->elems) {
		if (f->size != 8 && f->size != 4) {
			snprintf(why, why_len, "a %d-byte pointer", f->size);
			return -EINVAL;
		}
		return btf__add_ptr(btf, 0);
	}
	if (!f->elems) {
		elem = ct_btf_int(btf, f->size, f->is_signed);
		if (elem < 0)
			snprintf(why, why_len, "a %d-byte integer", f->size);
		return elem;
	}
	if (f->pointer || f->size % f->elems) {
		snprintf(why, why_len, "an array of %d elements in %d bytes%s",
			 f->elems, f->size, f->pointer ? " of pointers" : "");
		return -EINVAL;
	}
	elem = ct_btf_int(btf, f->size / f->elems, f->is_signed);
	if (elem < 0) {
		snprintf(why, why_len, "an array of %d-byte integers",
			 f->size / f->elems);
		return elem;
	}
	index = ct_btf_int(btf, 4, false);
	if (index < 0)
		return index;
	return btf__add_array(btf, index, elem, f->elems);
}

int ct_btf_add_record(struct btf *btf, const char *name,
		      const struct ct_tp_format *fmt, char *why, size_t why_len)
{
	int types[CT_MAX_FIELDS], i, end = 0, id, err;
	char reason[CT_BTF_WHY_MAX], member[CT_FIELD_NAME_MAX + 16];

	if (fmt->count <= 0 || fmt->count > CT_MAX_FIELDS) {
		snprintf(why, why_len, "%s: the format file lists no fields", name);
		return -EINVAL;
	}
	/* the members' types first: a struct's fields follow it directly */
	for (i = 0; i < fmt->count; i++) {
		const struct ct_format_field *f = &fmt->fields[i];

		if (f->offset < end || f->offset > 0xffff - f->size) {
			snprintf(why, why_len, "%s: field %s at offset %d overlaps the field before it or lies beyond 64 KiB",
				 name, f->name, f->offset);
			return -EINVAL;
		}
		end = f->offset + f->size;
		reason[0] = '\0';
		types[i] = ct_btf_field_type(btf, f, reason, sizeof(reason));
		if (types[i] < 0) {
			snprintf(why, why_len, "%s: field %s is %s, which BTF cannot describe here",
				 name, f->name, reason[0] ? reason : "a type");
			return types[i];
		}
	}
	id = btf__add_struct(btf, name, (__u32)end);
	if (id < 0) {
		snprintf(why, why_len, "%s: libbpf could not add the struct: %s", name, strerror(-id));
		return id;
	}
	for (i = 0; i < fmt->count; i++) {
		const struct ct_format_field *f = &fmt->fields[i];

		snprintf(member, sizeof(member), "%s%s",
			 f->data_loc ? "__data_loc_" : "", f->name);
		err = btf__add_field(btf, member, types[i], f->offset * 8, 0);
		if (err) {
			snprintf(why, why_len, "%s: libbpf could not add field %s: %s",
				 name, member, strerror(-err));
			return err;
		}
	}
	return id;
}

int ct_btf_to_fd(const struct btf *btf)
{
	const void *data;
	__u32 size;
	ssize_t n;
	int fd, err;

	data = btf__raw_data(btf, &size);
	if (!data)
		return -errno ? -errno : -EINVAL;
	fd = memfd_create("coretrace-btf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, size);
	if (n != (ssize_t)size) {
		err = n < 0 ? -errno : -EIO;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * The struct @prog's context argument points to, as the kernel names it:
 * @obj's BTF name without a CO-RE flavor ("___future"), into @name
 */
static const char *ct_btf_ctx_struct(const struct btf *obj_btf,
				     const struct bpf_program *prog,
				     char *name, size_t len)
{
	const char *full, *flavor;
	const struct btf_type *t;
	int id = btf__find_by_name_kind(obj_btf, bpf_program__name(prog),
					BTF_KIND_FUNC);

	if (id <= 0)
		return NULL;
	t = btf__type_by_id(obj_btf, btf__type_by_id(obj_btf, (__u32)id)->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return NULL;
	t = btf__type_by_id(obj_btf, btf_params(t)[0].type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	/* through const and typedef to the struct */
	id = btf__resolve_type(obj_btf, t->type);
	t = id > 0 ? btf__type_by_id(obj_btf, (__u32)id) : NULL;
	if (!t || !btf_is_struct(t))
		return NULL;
	full = btf__name_by_offset(obj_btf, t->name_off);
	flavor = full ? strstr(full, "___") : NULL;
	if (!full || (size_t)(flavor ? flavor - full : (long)strlen(full)) >= len)
		return NULL;
	snprintf(name, len, "%.*s", (int)(flavor ? flavor - full : (long)strlen(full)), full);
	return name;
}

static void ct_btf_drop(struct ct_btf_gen *gen, const char *prog,
			const char *why)
{
	if (gen->dropped >= CT_BTF_MAX_DROPPED)
		return;
	snprintf(gen->dropped_prog[gen->dropped], CT_FIELD_NAME_MAX, "%s", prog);
	snprintf(gen->why[gen->dropped], CT_BTF_WHY_MAX, "%s", why);
	gen->dropped++;
}

/* @prog's record struct into @gen->btf (once per struct name) */
static int ct_btf_serve(struct ct_btf_gen *gen, const struct btf *obj_btf,
			const struct bpf_program *prog, const char *events_dir)
{
	const char *sec = bpf_program__section_name(prog), *name;
	char path[512], why[CT_BTF_WHY_MAX], type[128];
	struct ct_tp_format fmt;
	FILE *f;
	int err;

	name = ct_btf_ctx_struct(obj_btf, prog, type, sizeof(type));
	if (!name) {
		snprintf(why, sizeof(why), "its context is not a tracepoint record struct");
		ct_btf_drop(gen, bpf_program__name(prog), why);
		return 0;
	}
	if (btf__find_by_name_kind(gen->btf, name, BTF_KIND_STRUCT) > 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/format", events_dir, sec + 3);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		ct_btf_drop(gen, bpf_program__name(prog), why);
		return 0;
	}
	err = ct_format_parse(f, &fmt);
	fclose(f);
	if (err) {
		snprintf(why, sizeof(why), "%s does not parse (%s)", path,
			 err == -E2BIG ? "too many fields" : "a field line is not understood");
		ct_btf_drop(gen, bpf_program__name(prog), why);
		return 0;
	}
	err = ct_btf_add_record(gen->btf, name, &fmt, why, sizeof(why));
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		ct_btf_drop(gen, bpf_program__name(prog), why);
		return 0;
	}
	gen->structs++;
	return 0;
}

int ct_btf_from_object(struct bpf_object *obj, const char *events_dir,
		       struct ct_btf_gen *gen)
{
	const struct btf *obj_btf = bpf_object__btf(obj);
	struct bpf_program *prog;
	int err;

	memset(gen, 0, sizeof(*gen));
	if (!obj_btf || !events_dir)
		return -ENOENT;
	gen->btf = btf__new_empty();
	if (!gen->btf)
		return -ENOMEM;
	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);

		if (strncmp(sec, "tp/", 3))
			continue;
		err = ct_btf_serve(gen, obj_btf, prog, events_dir);
		if (err)
			return err;
	}
	return gen->structs ? 0 : -ENOENT;
}

void ct_btf_gen_free(struct ct_btf_gen *gen)
{
	btf__free(gen->btf);
	gen->btf = NULL;
}
