// SPDX-License-Identifier: GPL-2.0
/* Option tables: getopt_long() and --help made from one description. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "base/options.h"

#define CT_OPTS_MAX		64	/* options of one command */
#define CT_HELP_COLUMN		27	/* where an option's help starts */

/* Did getopt_long stop at the long option @word (without "=VALUE")? */
static bool ct_long_option_failed(const char *word, int len, int opt,
				  const struct option *longopts)
{
	if (strncmp(word, "--", 2))
		return false;
	if (!opt)	/* short options always set optopt */
		return true;
	for (; longopts->name; longopts++)
		if ((int)strlen(longopts->name) == len - 2 &&
		    !strncmp(longopts->name, word + 2, (size_t)len - 2))
			return longopts->val == opt;
	return false;
}

/*
 * Name the option getopt stumbled on as it was typed: "--perfetto" for a
 * long one (without any "=VALUE"), "-x" for a short one. getopt_long
 * sets optopt for a known long option given a value it does not take.
 */
static void ct_bad_option(FILE *err, const char *cmd, const char *what,
			  char **argv, int opt, const struct option *longopts)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	int len = (int)strcspn(word, "=");

	if (!ct_long_option_failed(word, len, opt, longopts)) {
		fprintf(err, "coretrace %s: %s '-%c' (see coretrace %s --help)\n",
			cmd, what, opt && opt < 256 ? opt : '?', cmd);
		return;
	}
	if (opt && word[len] == '=' && !strcmp(what, "unknown option"))
		what = "option takes no value";
	fprintf(err, "coretrace %s: %s '%.*s' (see coretrace %s --help)\n",
		cmd, what, len, word, cmd);
}

/* The getopt_long() arguments of @cmd's table; the number of options */
static int ct_getopt_args(const struct ct_command *cmd, char *shorts,
			  struct option *longs)
{
	const struct ct_opt_group *g;
	const struct ct_opt *o;
	char *s = shorts;
	int n = 0;

	*s++ = cmd->permute ? ':' : '+';
	if (!cmd->permute)
		*s++ = ':';
	for (g = cmd->groups; g && g->opts; g++) {
		for (o = g->opts; o->id && n < CT_OPTS_MAX - 2; o++, n++) {
			if (o->id < 256) {
				*s++ = (char)o->id;
				if (o->arg)
					*s++ = ':';
			}
			longs[n] = (struct option){ o->name, o->arg ?
				required_argument : no_argument, NULL, o->id };
		}
	}
	*s++ = CT_OPT_HELP;
	*s = '\0';
	longs[n++] = (struct option){ "help", no_argument, NULL, CT_OPT_HELP };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	return n;
}

static const struct ct_opt *ct_find_opt(const struct ct_command *cmd, int id)
{
	const struct ct_opt_group *g;
	const struct ct_opt *o;

	for (g = cmd->groups; g && g->opts; g++)
		for (o = g->opts; o->id; o++)
			if (o->id == id)
				return o;
	return NULL;
}

int ct_parse_command(const struct ct_command *cmd, int argc, char **argv,
		     void *opts, FILE *out, FILE *err)
{
	struct option longs[CT_OPTS_MAX];
	char shorts[3 * CT_OPTS_MAX + 4];
	const struct ct_opt *o;
	int c;

	memset(opts, 0, cmd->opts_size);
	if (cmd->init)
		cmd->init(opts);
	ct_getopt_args(cmd, shorts, longs);
	optind = 0;	/* glibc: rescan from the start, tests parse many times */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == CT_OPT_HELP) {
			ct_command_help(cmd, out);
			return CT_PARSE_EXIT;
		}
		o = c == ':' || c == '?' ? NULL : ct_find_opt(cmd, c);
		if (!o) {
			ct_bad_option(err, cmd->name, c == ':' ?
				      "option needs a value" : "unknown option",
				      argv, optopt, longs);
			return CT_PARSE_ERROR;
		}
		if (o->set(o->id, o->arg ? optarg : NULL, opts, err, cmd->name))
			return CT_PARSE_ERROR;
	}
	if (cmd->finish)
		return cmd->finish(opts, argc, argv, optind, err) ?
		       CT_PARSE_ERROR : CT_PARSE_OK;
	if (optind < argc) {
		fprintf(err, "coretrace %s: unexpected argument '%s'\n",
			cmd->name, argv[optind]);
		return CT_PARSE_ERROR;
	}
	return CT_PARSE_OK;
}

/* "  -d, --duration SECONDS   help", continued lines under the help */
static void ct_opt_help(const struct ct_opt *o, FILE *out)
{
	const char *line = o->help, *nl;
	int len, pad;

	if (o->id < 256)
		len = fprintf(out, "  -%c, --%s", o->id, o->name);
	else
		len = fprintf(out, "      --%s", o->name);
	if (o->arg)
		len += fprintf(out, " %s", o->arg);
	pad = len + 2 > CT_HELP_COLUMN ? 2 : CT_HELP_COLUMN - len;
	for (;;) {
		nl = strchr(line, '\n');
		fprintf(out, "%*s%.*s\n", pad, "",
			nl ? (int)(nl - line) : (int)strlen(line), line);
		if (!nl)
			break;
		line = nl + 1;
		pad = CT_HELP_COLUMN;
	}
}

void ct_command_help(const struct ct_command *cmd, FILE *out)
{
	const struct ct_opt_group *g;
	const struct ct_opt *o;

	fprintf(out, "usage: coretrace %s%s%s\n", cmd->name,
		cmd->usage[0] ? " " : "", cmd->usage);
	if (cmd->description)
		fprintf(out, "\n%s", cmd->description);
	for (g = cmd->groups; g && g->opts; g++) {
		fputc('\n', out);
		if (g->heading)
			fprintf(out, "%s\n", g->heading);
		for (o = g->opts; o->id; o++)
			ct_opt_help(o, out);
		if (g->after)
			fprintf(out, "\n%s", g->after);
	}
	fputc('\n', out);
	ct_opt_help(&(const struct ct_opt){ CT_OPT_HELP, "help", NULL,
		    "show this help", NULL }, out);
	if (cmd->footer)
		fprintf(out, "\n%s", cmd->footer);
}

void ct_commands_help(const struct ct_command *const *cmds, size_t n,
		      FILE *out)
{
	const char *line, *nl;
	size_t i;

	fputs("usage: coretrace <command> [options]\n"
	      "\n"
	      "A low-overhead scheduler, power, interrupt and timer tracer. CO-RE\n"
	      "BPF programs read the kernel's tracepoints through offsets relocated\n"
	      "against the running kernel's BTF, so one binary works on every\n"
	      "kernel with BTF.\n"
	      "\n"
	      "commands:\n", out);
	for (i = 0; i < n; i++) {
		line = cmds[i]->summary;
		nl = strchr(line, '\n');
		fprintf(out, "  %-10s %.*s\n", cmds[i]->name,
			nl ? (int)(nl - line) : (int)strlen(line), line);
		while (nl) {
			line = nl + 1;
			nl = strchr(line, '\n');
			fprintf(out, "             %.*s\n",
				nl ? (int)(nl - line) : (int)strlen(line), line);
		}
	}
	fputs("  help       show this help, or a command's (help COMMAND)\n"
	      "\n"
	      "'coretrace <command> --help' or 'coretrace help <command>' shows a\n"
	      "command's options.\n", out);
}

/*
 * Manual pages, from the same tables as --help: coretrace(1) and one
 * coretrace-COMMAND(1) per command (make man, make install).
 */

/* @n bytes of @s as roff text: backslashes and dashes escaped, a line's
 * leading '.' or '\'' made literal, blank lines as paragraph breaks */
static void ct_roff_text(FILE *out, const char *s, size_t n)
{
	bool line_start = true;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (line_start && c == '\n') {
			fputs(".PP\n", out);
			continue;
		}
		if (line_start && (c == '.' || c == '\''))
			fputs("\\&", out);
		line_start = c == '\n';
		if (c == '\\')
			fputs("\\e", out);
		else if (c == '-')
			fputs("\\-", out);
		else
			fputc(c, out);
	}
	if (!line_start)
		fputc('\n', out);
}

/* a word within a line: escaped, no line breaks of its own */
static void ct_roff_inline(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

static void ct_roff_str(FILE *out, const char *s)
{
	ct_roff_text(out, s, strlen(s));
}

/* @s on one line (a summary): its line breaks as spaces */
static void ct_roff_line(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\n')
			fputc(' ', out);
		else if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
	fputc('\n', out);
}

static void ct_man_upper(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s, out);
}

static void ct_man_opt(const struct ct_opt *o, FILE *out)
{
	fputs(".TP\n", out);
	if (o->id < 256)
		fprintf(out, "\\fB\\-%c\\fR, ", o->id);
	fputs("\\fB\\-\\-", out);
	ct_roff_inline(out, o->name);
	fputs("\\fR", out);
	if (o->arg) {
		fputs(" \\fI", out);
		ct_roff_inline(out, o->arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	ct_roff_str(out, o->help);
}

void ct_command_man(const struct ct_command *cmd, const char *version,
		    FILE *out)
{
	const struct ct_opt_group *g;
	const struct ct_opt *o;

	fputs(".TH CORETRACE-", out);
	ct_man_upper(out, cmd->name);
	fprintf(out, " 1 \"\" \"coretrace %s\" \"coretrace manual\"\n", version);
	fprintf(out, ".SH NAME\ncoretrace\\-%s \\- ", cmd->name);
	ct_roff_line(out, cmd->summary);
	fprintf(out, ".SH SYNOPSIS\n.B coretrace %s\n", cmd->name);
	if (cmd->usage[0])
		ct_roff_str(out, cmd->usage);
	if (cmd->description) {
		fputs(".SH DESCRIPTION\n", out);
		ct_roff_str(out, cmd->description);
	}
	fputs(".SH OPTIONS\n", out);
	for (g = cmd->groups; g && g->opts; g++) {
		if (g->heading) {
			fputs(".SS ", out);
			ct_roff_line(out, g->heading);
		}
		for (o = g->opts; o->id; o++)
			ct_man_opt(o, out);
		if (g->after) {
			fputs(".PP\n", out);
			ct_roff_str(out, g->after);
		}
	}
	ct_man_opt(&(const struct ct_opt){ CT_OPT_HELP, "help", NULL,
		   "show the options, as here", NULL }, out);
	if (cmd->footer) {
		fputs(".SH NOTES\n", out);
		ct_roff_str(out, cmd->footer);
	}
	fputs(".SH SEE ALSO\n.BR coretrace (1)\n", out);
}

void ct_commands_man(const struct ct_command *const *cmds, size_t n,
		     const char *version, FILE *out)
{
	size_t i;

	fprintf(out, ".TH CORETRACE 1 \"\" \"coretrace %s\" \"coretrace manual\"\n"
		".SH NAME\ncoretrace \\- a low\\-overhead scheduler, power, interrupt and timer tracer\n"
		".SH SYNOPSIS\n.B coretrace\n\\fICOMMAND\\fR [\\fIoptions\\fR]\n"
		".SH DESCRIPTION\n", version);
	ct_roff_str(out,
		    "CO-RE BPF programs read the kernel's tracepoints through offsets\n"
		    "relocated against the running kernel's BTF (or BTF built from the\n"
		    "tracepoints' format files), so one binary works on every kernel.\n"
		    "Tracing needs root, or the CAP_BPF and CAP_PERFMON capabilities.\n");
	fputs(".SH COMMANDS\n", out);
	for (i = 0; i < n; i++) {
		fputs(".TP\n.B ", out);
		ct_roff_line(out, cmds[i]->name);
		ct_roff_line(out, cmds[i]->summary);
		fprintf(out, "See\n.BR coretrace\\-%s (1).\n", cmds[i]->name);
	}
	fputs(".TP\n.B help\nthe commands, as here;\n.B coretrace help\n"
	      "\\fICOMMAND\\fR a command's options, as its \\-\\-help;\n"
	      ".B coretrace help \\-\\-man\n"
	      "[\\fICOMMAND\\fR] prints these manual pages.\n"
	      ".SH EXIT STATUS\n0 on success, 1 when tracing or reading failed, 2 on a bad command line.\n"
	      ".SH SEE ALSO\n", out);
	for (i = 0; i < n; i++)
		fprintf(out, ".BR coretrace\\-%s (1)%s\n", cmds[i]->name,
			i + 1 < n ? "," : "");
}
