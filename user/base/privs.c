// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace needs root's capabilities for one thing: loading and attaching
 * its programs (and reading tracefs and /proc/kallsyms while it does).
 * Once they are attached, the maps, rings and the capture directory are
 * open descriptors, and nothing it does after needs a capability: a bug in
 * the HTTP or capture code should not act as root. So it gives them up,
 * with libcap for the capability sets and libseccomp for the filter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <seccomp.h>
#include <sys/capability.h>
#include "base/privs.h"

int ct_privs_prepare(struct ct_privs *p, const char *user, char *why,
		     size_t len)
{
	struct passwd *pw;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->uid = geteuid();
	p->gid = getegid();
	if (!user)
		return 0;
	if (geteuid() != 0) {
		snprintf(why, len, "--user switches from root to another user, and coretrace is not running as root");
		return -1;
	}
	/* the file, not NSS: a static binary, and system users live there */
	f = fopen("/etc/passwd", "re");
	if (!f) {
		snprintf(why, len, "cannot read /etc/passwd to find user '%.64s': %s",
			 user, strerror(errno));
		return -1;
	}
	while ((pw = fgetpwent(f)))
		if (!strcmp(pw->pw_name, user))
			break;
	if (pw) {
		p->uid = pw->pw_uid;
		p->gid = pw->pw_gid;
		snprintf(p->name, sizeof(p->name), "%s", pw->pw_name);
	}
	fclose(f);
	if (!pw) {
		snprintf(why, len, "there is no user named '%.64s' in /etc/passwd",
			 user);
		return -1;
	}
	p->switch_user = p->uid != 0;
	return 0;
}

/* Every process keeps these: memory, files, time, signals, the exit */
static const char *const ct_calls_common[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "lseek",
	"close", "openat", "newfstatat", "fstat", "statx", "fcntl", "dup",
	"dup3", "getdents64", "fsync", "fdatasync", "ftruncate", "fchmod",
	"unlinkat", "mkdirat", "renameat", "renameat2",
	"mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
	"clock_gettime", "clock_nanosleep", "nanosleep", "gettimeofday",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "restart_syscall",
	"getpid", "gettid", "getuid", "geteuid", "getgid", "getegid",
	"futex", "poll", "ppoll", "sched_yield", "uname", "getrandom",
	"exit", "exit_group",
};

/* record, top and serve: maps and rings, the writer, /proc and cgroupfs */
static const char *const ct_calls_tracer[] = {
	"bpf", "ioctl", "epoll_wait", "epoll_pwait", "epoll_ctl",
	"wait4", "waitid", "kill", "tgkill", "statfs", "fstatfs",
	"readlinkat", "sysinfo", "sched_getaffinity", "prlimit64",
};

/* serve's sockets: the listening one is open already */
static const char *const ct_calls_server[] = {
	"accept", "accept4", "recvfrom", "recvmsg", "sendto", "sendmsg",
	"shutdown", "setsockopt", "getsockopt", "getsockname", "getpeername",
};

static int ct_allow(scmp_filter_ctx ctx, const char *const *names, size_t n)
{
	size_t i;
	int nr, err;

	for (i = 0; i < n; i++) {
		nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;	/* not a call of this architecture */
		err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
		if (err)
			return err;
	}
	return 0;
}

#define CT_ALLOW(ctx, list)	ct_allow(ctx, list, sizeof(list) / sizeof(list[0]))

static int ct_seccomp(enum ct_privs_role role)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	int err;

	if (!ctx)
		return -ENOMEM;
	err = CT_ALLOW(ctx, ct_calls_common);
	if (!err && role != CT_PRIVS_WRITER)
		err = CT_ALLOW(ctx, ct_calls_tracer);
	if (!err && role == CT_PRIVS_SERVER)
		err = CT_ALLOW(ctx, ct_calls_server);
	if (!err)
		err = seccomp_load(ctx);
	seccomp_release(ctx);
	return err;
}

int ct_privs_drop(const struct ct_privs *p, enum ct_privs_role role,
		  char *why, size_t len)
{
	cap_t none;
	int cap, err;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(why, len, "cannot set no_new_privs: %s", strerror(errno));
		return -1;
	}
	/* what an exec could get back: the bounding set needs CAP_SETPCAP */
	if (CAP_IS_SUPPORTED(CAP_SETPCAP))
		for (cap = 0; cap <= CAP_LAST_CAP; cap++)
			if (CAP_IS_SUPPORTED(cap) && cap_drop_bound(cap) &&
			    errno != EPERM && errno != EINVAL) {
				snprintf(why, len, "cannot empty the bounding set: %s",
					 strerror(errno));
				return -1;
			}
	if (CAP_AMBIENT_SUPPORTED() && cap_reset_ambient()) {
		snprintf(why, len, "cannot clear the ambient capabilities: %s",
			 strerror(errno));
		return -1;
	}
	if (p->switch_user &&
	    (setgroups(1, &p->gid) || setresgid(p->gid, p->gid, p->gid) ||
	     setresuid(p->uid, p->uid, p->uid))) {
		snprintf(why, len, "cannot switch to user %.64s (uid %u): %s",
			 p->name, (unsigned int)p->uid, strerror(errno));
		return -1;
	}
	none = cap_init();	/* empty: effective, permitted, inheritable */
	err = none ? cap_set_proc(none) : -1;
	if (none)
		cap_free(none);
	if (err) {
		snprintf(why, len, "cannot drop the capabilities: %s",
			 strerror(errno));
		return -1;
	}
	/* no other process of the user may ptrace it and use its descriptors */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	err = ct_seccomp(role);
	if (err) {
		snprintf(why, len, "cannot install the system call filter: %s",
			 strerror(-err));
		return -1;
	}
	return 0;
}
