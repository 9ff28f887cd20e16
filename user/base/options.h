/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option tables, as perf's parse-options and bpftool's command table: a
 * command is described once, with its options, what each takes and its
 * help, and the getopt_long() call, the --help text and the messages for
 * a bad command line are all made from that description.
 */
#ifndef CORETRACE_OPTIONS_H
#define CORETRACE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Set one option of a command's options struct @opts from @arg (NULL for
 * an option that takes none). 0, or -1 after one sentence on @err that
 * starts "coretrace @cmd: ".
 */
typedef int (*ct_opt_set_fn)(int id, const char *arg, void *opts, FILE *err,
			     const char *cmd);

struct ct_opt {
	int id;			/* the short option's letter, or >= 256 */
	const char *name;	/* the long option, without "--" */
	const char *arg;	/* what it takes ("SECONDS"), NULL: nothing */
	const char *help;	/* its lines for --help, '\n' between them */
	ct_opt_set_fn set;
};

/* A group of options, under a heading in --help (NULL: none) */
struct ct_opt_group {
	const char *heading;
	const struct ct_opt *opts;	/* ends with a zero id */
	const char *after;		/* a paragraph after the group, or NULL */
};

struct ct_command {
	const char *name;		/* "record" */
	const char *summary;		/* its line in coretrace --help */
	const char *usage;		/* after "usage: coretrace NAME " */
	const char *description;	/* paragraphs after the usage line */
	const struct ct_opt_group *groups;	/* ends with a NULL opts */
	const char *footer;		/* a paragraph at the end, or NULL */
	/* operands may come before options (report DIR --top) */
	bool permute;
	size_t opts_size;		/* of the options struct */
	/* defaults, after the struct is zeroed (may be NULL) */
	void (*init)(void *opts);
	/*
	 * The operands argv[first..argc-1] and the checks across options;
	 * 0, or -1 after one sentence (may be NULL: operands refused).
	 */
	int (*finish)(void *opts, int argc, char **argv, int first, FILE *err);
};

enum ct_parse_result {
	CT_PARSE_OK = 0,	/* run the command */
	CT_PARSE_EXIT = 1,	/* help was printed: exit 0 */
	CT_PARSE_ERROR = -1,	/* message printed: exit CT_EXIT_USAGE */
};

/* "-h, --help" is every command's, and answered here */
#define CT_OPT_HELP		'h'

/*
 * Parse @argc/@argv (argv[0] is the command's name) into @opts as @cmd
 * says: CT_PARSE_OK, CT_PARSE_EXIT after --help (printed on @out), or
 * CT_PARSE_ERROR after one sentence on @err.
 */
int ct_parse_command(const struct ct_command *cmd, int argc, char **argv,
		     void *opts, FILE *out, FILE *err);

/* The command's --help, from its table. */
void ct_command_help(const struct ct_command *cmd, FILE *out);

/* coretrace --help: each of the @n commands with its summary. */
void ct_commands_help(const struct ct_command *const *cmds, size_t n,
		      FILE *out);

/* The command's manual page (roff), from its table: coretrace-NAME(1) */
void ct_command_man(const struct ct_command *cmd, const char *version,
		    FILE *out);
/* coretrace(1): the @n commands, each with its summary */
void ct_commands_man(const struct ct_command *const *cmds, size_t n,
		     const char *version, FILE *out);

#endif /* CORETRACE_OPTIONS_H */
