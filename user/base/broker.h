/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file broker of record -g's user stacks (broker.c): a process of its
 * own that opens, read-only, other processes' /proc/PID/maps and the
 * regular files they map, and hands the descriptors over. Naming user
 * frames needs that (CAP_SYS_PTRACE, for the processes of other users
 * and of more privileged ones), and parsing what was opened does not: the
 * tracer gives every capability up and parses ELF files, which any user
 * may plant; the broker keeps CAP_SYS_PTRACE alone, parses nothing and
 * makes no other system call than receiving a request, opening and
 * sending (its own seccomp filter).
 */
#ifndef CORETRACE_BROKER_H
#define CORETRACE_BROKER_H

#include <stdint.h>
#include <sys/types.h>

struct ct_broker {
	int sock;		/* -1: no broker */
	pid_t pid;
};

/*
 * Start the broker (before the tracer gives up its privileges): it keeps
 * CAP_SYS_PTRACE if the tracer has it, nothing else, and inherits no
 * descriptor but its socket. 0 or -errno (then there is none, and files
 * are opened directly).
 */
int ct_broker_start(struct ct_broker *b);
/*
 * Process @tgid's maps (@path NULL) or its file @path, opened in its
 * root (symbolic links resolve there, and no magic link is followed),
 * a regular file only: a descriptor, or -errno.
 */
int ct_broker_open(struct ct_broker *b, uint32_t tgid, const char *path);
/* The same, here, without a broker */
int ct_proc_open(uint32_t tgid, const char *path);
void ct_broker_stop(struct ct_broker *b);

#endif /* CORETRACE_BROKER_H */
