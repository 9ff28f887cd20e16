// SPDX-License-Identifier: GPL-2.0
/* BTF built from format files: the struct as the file states it, and refusals. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "ct_test.h"
#include "loader/btfgen.h"
#include "loader/layout.h"

/* the stock 6.1 kernel's sched_switch and sched_process_exec */
static const char stock_switch[] =
	"name: sched_switch\nID: 316\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\nprint fmt: \"prev_comm=%s\", REC->prev_comm\n";

static const char stock_exec[] =
	"name: sched_process_exec\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n";

static const char timer_entry[] =
	"name: timer_expire_entry\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * timer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long now;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long baseclk;\toffset:32;\tsize:8;\tsigned:0;\n";

/* @name's member of struct @id: its offset in bytes and its type, or -1 */
static int member_of(const struct btf *btf, int id, const char *name,
		     const struct btf_type **type)
{
	const struct btf_type *t = btf__type_by_id(btf, (__u32)id);
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		*type = btf__type_by_id(btf, m->type);
		return (int)(btf_member_bit_offset(t, (__u32)i) / 8);
	}
	return -1;
}

static void test_switch_struct(void)
{
	const struct btf_type *type, *elem;
	struct ct_tp_format fmt;
	char why[CT_BTF_WHY_MAX] = "";
	struct btf *btf = btf__new_empty();
	int id;

	CT_CHECK(btf != NULL);
	CT_CHECK_INT(ct_test_parse_format(stock_switch, &fmt), 0);
	CT_CHECK(fmt.fields[4].elems == 16 && fmt.fields[4].is_signed);
	CT_CHECK(!fmt.fields[0].is_signed && fmt.fields[3].is_signed);
	id = ct_btf_add_record(btf, "trace_event_raw_sched_switch", &fmt, why, sizeof(why));
	CT_CHECK(id > 0);
	CT_CHECK_STR(why, "");
	CT_CHECK_INT(btf__find_by_name_kind(btf, "trace_event_raw_sched_switch", BTF_KIND_STRUCT), id);
	CT_CHECK_INT(btf__type_by_id(btf, (__u32)id)->size, 64);
	CT_CHECK_INT(member_of(btf, id, "prev_pid", &type), 24);
	CT_CHECK(btf_is_int(type) && type->size == 4 &&
		 (btf_int_encoding(type) & BTF_INT_SIGNED));
	CT_CHECK_INT(member_of(btf, id, "prev_state", &type), 32);
	CT_CHECK(btf_is_int(type) && type->size == 8);
	CT_CHECK_INT(member_of(btf, id, "next_comm", &type), 40);
	CT_CHECK(btf_is_array(type) && btf_array(type)->nelems == 16);
	elem = btf__type_by_id(btf, btf_array(type)->type);
	CT_CHECK(btf_is_int(elem) && elem->size == 1);
	CT_CHECK_INT(member_of(btf, id, "common_type", &type), 0);
	CT_CHECK(btf_is_int(type) && type->size == 2 && !btf_int_encoding(type));
	/* a second struct reuses the integer types */
	CT_CHECK_INT(ct_test_parse_format(stock_exec, &fmt), 0);
	id = ct_btf_add_record(btf, "trace_event_raw_sched_process_exec", &fmt, why, sizeof(why));
	CT_CHECK(id > 0);
	CT_CHECK_INT(member_of(btf, id, "__data_loc_filename", &type), 8);
	CT_CHECK(btf_is_int(type) && type->size == 4 && !btf_int_encoding(type));
	CT_CHECK_INT(member_of(btf, id, "old_pid", &type), 16);
	CT_CHECK_INT(ct_test_parse_format(timer_entry, &fmt), 0);
	CT_CHECK(fmt.fields[1].pointer && !fmt.fields[2].pointer);
	id = ct_btf_add_record(btf, "trace_event_raw_timer_expire_entry", &fmt, why, sizeof(why));
	CT_CHECK(id > 0);
	CT_CHECK_INT(member_of(btf, id, "function", &type), 24);
	CT_CHECK(type && btf_is_ptr(type) && type->type == 0);
	btf__free(btf);
}

/* what a memfd holds reads back as the same BTF, as libbpf will read it */
static void test_to_fd(void)
{
	struct btf *btf = btf__new_empty(), *back;
	struct ct_tp_format fmt;
	char why[CT_BTF_WHY_MAX], path[64];
	const struct btf_type *type;
	int fd, id;

	CT_CHECK_INT(ct_test_parse_format(stock_switch, &fmt), 0);
	CT_CHECK(ct_btf_add_record(btf, "trace_event_raw_sched_switch", &fmt, why, sizeof(why)) > 0);
	fd = ct_btf_to_fd(btf);
	CT_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	back = btf__parse(path, NULL);
	CT_CHECK(back != NULL);
	if (back) {
		id = btf__find_by_name_kind(back, "trace_event_raw_sched_switch", BTF_KIND_STRUCT);
		CT_CHECK(id > 0);
		if (id > 0)
			CT_CHECK_INT(member_of(back, id, "next_pid", &type), 56);
		btf__free(back);
	}
	if (fd >= 0)
		close(fd);
	btf__free(btf);
}

/* one field BTF cannot describe: a sentence naming it, nothing added */
static void expect_refused(const char *line, const char *words)
{
	char text[512], why[CT_BTF_WHY_MAX] = "";
	struct ct_tp_format fmt;
	struct btf *btf = btf__new_empty();
	int rc;

	snprintf(text, sizeof(text),
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n%s", line);
	rc = ct_test_parse_format(text, &fmt);
	if (rc) {
		/* the parser refused it already: also fine, and said so */
		CT_CHECK_INT(rc, -EINVAL);
		btf__free(btf);
		return;
	}
	CT_CHECK(ct_btf_add_record(btf, "trace_event_raw_x", &fmt, why, sizeof(why)) < 0);
	CT_CHECK(strstr(why, words) != NULL);
	CT_CHECK(strstr(why, "trace_event_raw_x") != NULL);
	CT_CHECK(btf__find_by_name_kind(btf, "trace_event_raw_x", BTF_KIND_STRUCT) < 0);
	btf__free(btf);
}

static void test_refusals(void)
{
	struct ct_tp_format empty = { .count = 0 };
	char why[CT_BTF_WHY_MAX] = "";
	struct btf *btf = btf__new_empty();

	expect_refused("\tfield:u8 odd[3];\toffset:8;\tsize:3;\tsigned:0;\n"
		       "\tfield:u24 three;\toffset:12;\tsize:3;\tsigned:0;\n",
		       "field three is a 3-byte integer");
	expect_refused("\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
		       "\tfield:int b;\toffset:10;\tsize:4;\tsigned:1;\n",
		       "field b at offset 10 overlaps");
	expect_refused("\tfield:void * p;\toffset:8;\tsize:2;\tsigned:0;\n", "field p is a 2-byte pointer");
	expect_refused("\tfield:char c[16];\toffset:8;\tsize:10;\tsigned:1;\n",
		       "field c is an array of 16 elements in 10 bytes");
	expect_refused("\tfield:__data_loc char[] s;\toffset:8;\tsize:8;\tsigned:0;\n",
		       "field s is a 8-byte __data_loc field");
	expect_refused("\tfield:u64 big[2];\toffset:8;\tsize:32;\tsigned:0;\n",
		       "field big is an array of 16-byte integers");
	expect_refused("\tfield:int far;\toffset:70000;\tsize:4;\tsigned:1;\n",
		       "field far at offset 70000");
	CT_CHECK(ct_btf_add_record(btf, "trace_event_raw_y", &empty, why, sizeof(why)) < 0);
	CT_CHECK(strstr(why, "lists no fields") != NULL);
	btf__free(btf);
}

/* the parser's new facts: signedness, pointers, array lengths */
static void test_format_facts(void)
{
	struct ct_tp_format fmt;

	CT_CHECK_INT(ct_test_parse_format("\tfield:char a[0];\toffset:8;\tsize:0;\tsigned:1;\n", &fmt), -EINVAL);
	CT_CHECK_INT(ct_test_parse_format("\tfield:char a[x];\toffset:8;\tsize:16;\tsigned:1;\n", &fmt), -EINVAL);
	/* no signed: (kernels before 2.6.36 printed none): unsigned */
	CT_CHECK_INT(ct_test_parse_format("\tfield:int a;\toffset:8;\tsize:4;\n", &fmt), 0);
	CT_CHECK(!fmt.fields[0].is_signed && !fmt.fields[0].pointer && !fmt.fields[0].elems);
	CT_CHECK_INT(ct_test_parse_format("\tfield:const char * name;\toffset:8;\tsize:8;\tsigned:0;\n", &fmt), 0);
	CT_CHECK(fmt.fields[0].pointer);
	CT_CHECK_STR(fmt.fields[0].name, "name");
}

/*
 * coretrace's own object against a tracefs with two format files, one
 * of them with a field BTF cannot describe: the switch's struct is built
 * under the name its program's context has, every other program is
 * listed with a sentence, and the template shared by sched_wakeup and
 * sched_wakeup_new is not built twice.
 */
static void test_from_object(void)
{
	char dir[] = "/tmp/ct-unit-events-XXXXXX", path[256];
	const struct btf_type *type;
	struct bpf_object *obj;
	struct ct_btf_gen gen;
	int i, id, found = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "mkdir -p %s/sched/sched_switch %s/sched/sched_wakeup", dir, dir);
	CT_CHECK_INT(system(path), 0);
	snprintf(path, sizeof(path), "%s/sched/sched_switch/format", dir);
	ct_test_write_file(path, stock_switch);
	snprintf(path, sizeof(path), "%s/sched/sched_wakeup/format", dir);
	ct_test_write_file(path, "\tfield:u24 pid;\toffset:8;\tsize:3;\tsigned:1;\n");
	obj = bpf_object__open_file(CT_TEST_BPF_OBJ, NULL);
	CT_CHECK(obj != NULL);
	if (!obj)
		return;
	CT_CHECK_INT(ct_btf_from_object(obj, dir, &gen), 0);
	CT_CHECK_INT(gen.structs, 1);
	id = btf__find_by_name_kind(gen.btf, "trace_event_raw_sched_switch", BTF_KIND_STRUCT);
	CT_CHECK(id > 0);
	if (id > 0)
		CT_CHECK_INT(member_of(gen.btf, id, "next_pid", &type), 56);
	CT_CHECK(gen.dropped > 10);
	for (i = 0; i < gen.dropped; i++) {
		if (!strcmp(gen.dropped_prog[i], "handle_sched_wakeup")) {
			found++;
			CT_CHECK(strstr(gen.why[i], "field pid is a 3-byte integer") != NULL);
		}
		if (!strcmp(gen.dropped_prog[i], "handle_sched_process_exec")) {
			found++;
			CT_CHECK(strstr(gen.why[i], "sched/sched_process_exec/format: No such file") != NULL);
		}
		CT_CHECK(strcmp(gen.dropped_prog[i], "handle_sched_switch"));
	}
	CT_CHECK_INT(found, 2);
	ct_btf_gen_free(&gen);
	bpf_object__close(obj);
	/* no tracefs at all: nothing to serve */
	obj = bpf_object__open_file(CT_TEST_BPF_OBJ, NULL);
	snprintf(path, sizeof(path), "%s/none", dir);
	CT_CHECK_INT(ct_btf_from_object(obj, path, &gen), -ENOENT);
	ct_btf_gen_free(&gen);
	bpf_object__close(obj);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CT_CHECK_INT(system(path), 0);
}

void test_btfgen(void)
{
	test_from_object();
	test_format_facts();
	test_switch_struct();
	test_to_fd();
	test_refusals();
}
