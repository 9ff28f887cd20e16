// SPDX-License-Identifier: GPL-2.0
/* tracefs format files and libbpf's relocation log lines, good and bad. */
#include <errno.h>
#include <stdlib.h>
#include "ct_test.h"
#include "loader/layout.h"

/* the padded kernel's sched_switch and sched_process_exec, as printed */
static const char padded_switch[] =
	"name: sched_switch\nID: 319\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:int common_padding;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:12;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t prev_pid;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:40;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:48;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:64;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:68;\tsize:4;\tsigned:1;\n"
	"\nprint fmt: \"prev_comm=%s ...\", REC->prev_comm\n";

static const char exec_fmt[] =
	"name: sched_process_exec\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:void * timer;\toffset:16;\tsize:8;\tsigned:0;\n";

static void test_format(void)
{
	const struct ct_format_field *f;
	struct ct_tp_format fmt;

	CT_CHECK_INT(ct_test_parse_format(padded_switch, &fmt), 0);
	CT_CHECK_INT(fmt.count, 12);
	f = ct_format_find(&fmt, "prev_comm");
	CT_CHECK(f && f->offset == 12 && f->size == 16 && !f->data_loc);
	f = ct_format_find(&fmt, "prev_state");
	CT_CHECK(f && f->offset == 40 && f->size == 8);
	f = ct_format_find(&fmt, "common_padding");
	CT_CHECK(f && f->common && f->offset == 8 && f->size == 4);
	CT_CHECK(ct_format_find(&fmt, "prev") == NULL);
	CT_CHECK(ct_format_find(&fmt, "__data_loc_prev_comm") == NULL);

	CT_CHECK_INT(ct_test_parse_format(exec_fmt, &fmt), 0);
	f = ct_format_find(&fmt, "__data_loc_filename");
	CT_CHECK(f && f->data_loc && f->offset == 8 && f->size == 4);
	CT_CHECK(ct_format_find(&fmt, "filename") == NULL);
	f = ct_format_find(&fmt, "timer");
	CT_CHECK(f && f->offset == 16 && f->size == 8);
}

static void test_format_hostile(void)
{
	static const char *const bad[] = {
		"",
		"name: x\nformat:\n",
		"\tfield:int a;\toffset:x;\tsize:4;\n",
		"\tfield:int a;\toffset:4;\n",
		"\tfield:int a;\toffset:-4;\tsize:4;\n",
		"\tfield:int a;\toffset:4;\tsize:0;\n",
		"\tfield:int a\toffset:4;\tsize:4;\n",
		"\tfield:;\toffset:4;\tsize:4;\n",
		"\tfield:int aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\toffset:4;\tsize:4;\n",
	};
	struct ct_tp_format fmt;
	char *many, *p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CT_CHECK(ct_test_parse_format(bad[i], &fmt) != 0);
	many = malloc(64 * 40);
	CT_CHECK(many != NULL);
	p = many;
	for (i = 0; i < 40; i++)
		p += sprintf(p, "\tfield:int f%zu;\toffset:%zu;\tsize:4;\n", i, i * 4);
	CT_CHECK_INT(ct_test_parse_format(many, &fmt), -E2BIG);
	free(many);
}

static void test_relo_lines(void)
{
	struct ct_relo r;

	/* a line libbpf 1.1 printed while loading on the padded kernel */
	CT_CHECK_INT(ct_relo_parse_line("libbpf: prog 'handle_sched_switch': relo #6: matching candidate #0 <byte_off> [9008] struct trace_event_raw_sched_switch.prev_state (0:4 @ offset 40)", &r), 1);
	CT_CHECK_STR(r.prog, "handle_sched_switch");
	CT_CHECK_STR(r.type, "trace_event_raw_sched_switch");
	CT_CHECK_STR(r.field, "prev_state");
	CT_CHECK_INT(r.target_offset, 40);
	CT_CHECK_INT(ct_relo_parse_line("libbpf: prog 'handle_sched_process_exec': relo #1: matching candidate #0 <byte_off> [9013] struct trace_event_raw_sched_process_exec.__data_loc_filename (0:1 @ offset 12)\n", &r), 1);
	CT_CHECK_STR(r.field, "__data_loc_filename");
	CT_CHECK_INT(r.target_offset, 12);

	/* the local spec, the patch line and others are not target lines */
	/* an element of an array: the field and the element apart */
	CT_CHECK_INT(ct_relo_parse_line("libbpf: prog 'handle_sched_switch': relo #9: matching candidate #0 <byte_off> [9008] struct trace_event_raw_sched_switch.next_comm[8] (0:5:8 @ offset 56)", &r), 1);
	CT_CHECK_STR(r.field, "next_comm[8]");
	CT_CHECK_STR(r.base, "next_comm");
	CT_CHECK_INT(r.index, 8);
	CT_CHECK_INT(r.target_offset, 56);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct s.f[x] (0:1 @ offset 1)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct s.[2] (0:1 @ offset 1)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct s.f[-1] (0:1 @ offset 1)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("libbpf: prog 'handle_sched_switch': relo #6: <byte_off> [51] struct trace_event_raw_sched_switch.prev_state (0:4 @ offset 32)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("libbpf: prog 'handle_sched_switch': relo #6: patched insn #790 (LDX/ST/STX) off 32 -> 40", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog '", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct .f (0:1 @ offset 1)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct s.f (0:1 @ offset -3)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] struct s.f (0:1 @ offset x)", &r), 0);
	CT_CHECK_INT(ct_relo_parse_line("prog 'p': relo #1: matching candidate #0 <byte_off> [1] union s.f", &r), 0);
}

static void test_core_failure(void)
{
	char buf[256];

	/* modelled on libbpf 1.1's rewrite of the verifier log */
	CT_CHECK(ct_core_failure_sentence(
		"libbpf: prog 'read_unguarded': BPF program load failed: Invalid argument\n"
		"libbpf: prog 'read_unguarded': -- BEGIN PROG LOAD LOG --\n"
		"4: <invalid CO-RE relocation>\n"
		"failed to resolve CO-RE relocation <byte_off> [12] struct trace_event_raw_sched_switch___future.prev_cgroup_id (0:1 @ offset 4)\n",
		"read_unguarded", buf, sizeof(buf)));
	CT_CHECK_STR(buf, "read_unguarded reads trace_event_raw_sched_switch___future.prev_cgroup_id, "
		     "which this kernel does not have: its CO-RE relocation found no such field "
		     "(guard it with bpf_core_field_exists)");
	CT_CHECK(!ct_core_failure_sentence("libbpf: prog 'x': BPF program load failed: Permission denied\n",
					   "x", buf, sizeof(buf)));
	CT_CHECK(!ct_core_failure_sentence(NULL, "x", buf, sizeof(buf)));
	CT_CHECK(!ct_core_failure_sentence("failed to resolve CO-RE relocation <byte_off> [1] struct (",
					   "x", buf, sizeof(buf)));
	CT_CHECK(!ct_core_failure_sentence("failed to resolve CO-RE relocation <byte_off> [1] struct nodot (0:1)",
					   "x", buf, sizeof(buf)));
}

static void test_release(void)
{
	static const char *const bad[] = {
		"", "6", "6.", ".7", "x6.7", "6,7", "6.x", "-6.7",
		"99999999999.1", "6.99999999999",
	};
	size_t i;

	CT_CHECK(!ct_release_at_least("6.1.0-57-amd64", 6, 7));
	CT_CHECK(ct_release_at_least("6.7.0", 6, 7));
	CT_CHECK(ct_release_at_least("6.10.3-arch1", 6, 7));
	CT_CHECK(ct_release_at_least("7.0", 6, 7));
	CT_CHECK(!ct_release_at_least("5.15.0-91-generic", 6, 7));
	CT_CHECK(ct_release_at_least("6.1.192", 6, 1));
	CT_CHECK(!ct_release_at_least(NULL, 6, 7));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CT_CHECK(!ct_release_at_least(bad[i], 0, 0));
}

void test_layout(void)
{
	test_core_failure();
	test_format();
	test_format_hostile();
	test_relo_lines();
	test_release();
}
