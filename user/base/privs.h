/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What coretrace gives up once its programs are attached (privs.c): the
 * capabilities it loaded them with, root's uid when --user names another
 * user, the system calls the steady state does not make.
 */
#ifndef CORETRACE_PRIVS_H
#define CORETRACE_PRIVS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CT_PRIVS_WHY	256

struct ct_privs {
	bool switch_user;	/* --user named someone other than root */
	uid_t uid;		/* who coretrace runs (and writes) as after */
	gid_t gid;
	char name[64];
};

/* The system calls each kind of process keeps */
enum ct_privs_role {
	CT_PRIVS_TRACER,	/* record, top: rings, maps, /proc */
	CT_PRIVS_SERVER,	/* serve: maps, and the HTTP sockets */
	CT_PRIVS_WRITER,	/* the capture writer: files in DIR only */
};

/*
 * @user (--user, or NULL) looked up in /etc/passwd before anything is
 * loaded. 0, or -1 with the sentence in @why.
 */
int ct_privs_prepare(struct ct_privs *p, const char *user, char *why,
		     size_t len);
/*
 * Give up what @role no longer needs: no new privileges, the bounding and
 * ambient sets emptied, the user switched if asked, every capability
 * dropped (but CAP_BPF, on a kernel that would refuse to read the map
 * @bpf_fd without it; -1: no map to read), not dumpable, and a seccomp
 * filter of the calls @role makes (others fail with EPERM). 0; 1 when
 * all but the filter was done, the kernel having no seccomp; or -1 with
 * the sentence in @why.
 */
int ct_privs_drop(const struct ct_privs *p, enum ct_privs_role role,
		  int bpf_fd, char *why, size_t len);

/*
 * The file broker's (broker.c): no new privileges, CAP_SYS_PTRACE alone
 * if it is permitted, not dumpable, and a filter of its few calls (files
 * opened read-only); anything else kills it. 0, or -1 with the sentence
 * in @why.
 */
int ct_privs_broker(char *why, size_t len);

#endif /* CORETRACE_PRIVS_H */
