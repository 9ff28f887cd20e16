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
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
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

/* Every process keeps these: memory, reading, time, signals, the exit */
static const char *const ct_calls_common[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "lseek",
	"close", "newfstatat", "fstat", "statx", "fcntl", "dup",
	"dup3", "getdents64",
	"mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
	"clock_gettime", "clock_nanosleep", "nanosleep", "gettimeofday",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "restart_syscall",
	"getpid", "gettid", "getuid", "geteuid", "getgid", "getegid",
	"futex", "poll", "ppoll", "sched_yield", "uname", "getrandom",
	"exit", "exit_group",
};

/*
 * record, top and serve: maps and rings, the writer, /proc and cgroupfs,
 * and (record -g) the file broker's socket
 */
static const char *const ct_calls_tracer[] = {
	"bpf", "ioctl", "epoll_wait", "epoll_pwait", "epoll_ctl",
	"wait4", "waitid", "kill", "tgkill", "statfs", "fstatfs",
	"readlinkat", "sysinfo", "sched_getaffinity", "prlimit64",
	"sendto", "recvmsg",
};

/* the file broker (broker.c): a request in, a file opened, sent back */
static const char *const ct_calls_broker[] = {
	"recvfrom", "sendmsg", "openat2", "close", "fstat",
	"newfstatat", "rt_sigreturn", "restart_syscall", "exit", "exit_group",
};

/* record's and the writer's: files made, synced, renamed and removed */
static const char *const ct_calls_files[] = {
	"openat", "fsync", "fdatasync", "ftruncate", "fchmod", "fchown",
	"unlinkat", "mkdirat", "renameat", "renameat2",
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
	const scmp_datum_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC |
				     O_APPEND;
	int err;

	if (!ctx)
		return -ENOMEM;
	err = CT_ALLOW(ctx, ct_calls_common);
	if (!err && role != CT_PRIVS_WRITER)
		err = CT_ALLOW(ctx, ct_calls_tracer);
	if (!err && role == CT_PRIVS_SERVER)
		err = CT_ALLOW(ctx, ct_calls_server);
	/* serve reads /proc and /sys, and writes no file at all */
	if (!err && role == CT_PRIVS_SERVER)
		err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
				       SCMP_A2(SCMP_CMP_MASKED_EQ, writing, 0));
	else if (!err)
		err = CT_ALLOW(ctx, ct_calls_files);
	if (!err)
		err = seccomp_load(ctx);
	seccomp_release(ctx);
	return err;
}

int ct_privs_broker(char *why, size_t len)
{
	static const cap_value_t ptrace_cap = CAP_SYS_PTRACE;
	cap_flag_value_t have = CAP_CLEAR;
	cap_t now = cap_get_proc(), keep = cap_init();
	scmp_filter_ctx ctx;
	int cap, err = -1;

	if (!now || !keep || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(why, len, "cannot set no_new_privs: %s", strerror(errno));
		goto out;
	}
	if (CAP_IS_SUPPORTED(CAP_SETPCAP))
		for (cap = 0; cap <= CAP_LAST_CAP; cap++)
			if (CAP_IS_SUPPORTED(cap) && cap != CAP_SYS_PTRACE)
				cap_drop_bound(cap);
	if (CAP_AMBIENT_SUPPORTED())
		cap_reset_ambient();
	/* CAP_SYS_PTRACE alone, if the tracer had it */
	if (!cap_get_flag(now, CAP_SYS_PTRACE, CAP_PERMITTED, &have) &&
	    have == CAP_SET &&
	    (cap_set_flag(keep, CAP_PERMITTED, 1, &ptrace_cap, CAP_SET) ||
	     cap_set_flag(keep, CAP_EFFECTIVE, 1, &ptrace_cap, CAP_SET))) {
		snprintf(why, len, "cannot keep CAP_SYS_PTRACE: %s", strerror(errno));
		goto out;
	}
	if (cap_set_proc(keep)) {
		snprintf(why, len, "cannot drop the capabilities: %s", strerror(errno));
		goto out;
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	err = 0;
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL)
		goto out;	/* no seccomp in this kernel */
	ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	err = ctx ? CT_ALLOW(ctx, ct_calls_broker) : -ENOMEM;
	/* and only to read */
	if (!err)
		err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
				       SCMP_A2(SCMP_CMP_MASKED_EQ,
					       O_WRONLY | O_RDWR | O_CREAT | O_TRUNC, 0));
	if (!err)
		err = seccomp_load(ctx);
	if (ctx)
		seccomp_release(ctx);
	if (err)
		snprintf(why, len, "cannot install the system call filter: %s",
			 strerror(-err));
out:
	if (now)
		cap_free(now);
	if (keep)
		cap_free(keep);
	return err ? -1 : 0;
}

/* Does the kernel answer a command on the map @fd without a capability? */
static bool ct_bpf_answers(int fd)
{
	struct bpf_map_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (__u32)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	return syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) == 0 ||
	       errno != EPERM;
}

/*
 * Every capability given up. On kernels that refuse every bpf() command
 * without CAP_BPF while kernel.unprivileged_bpf_disabled is set (Linux
 * 6.1 refuses only map creation and program loads there), the maps of
 * @bpf_fd could no longer be read: then CAP_BPF alone (or, on a kernel
 * without it, CAP_SYS_ADMIN) stays, and coretrace says so. 0 or -1.
 */
static int ct_drop_caps(int bpf_fd)
{
	static const cap_value_t which[] = { CAP_BPF, CAP_SYS_ADMIN };
	cap_flag_value_t have = CAP_CLEAR;
	cap_t now = cap_get_proc(), stage = cap_init(), none = cap_init();
	const cap_value_t *kept = NULL;
	size_t i;
	int err = -1;

	if (!now || !stage || !none)
		goto out;
	for (i = 0; bpf_fd >= 0 && i < sizeof(which) / sizeof(which[0]); i++) {
		if (CAP_IS_SUPPORTED(which[i]) &&
		    !cap_get_flag(now, which[i], CAP_PERMITTED, &have) &&
		    have == CAP_SET) {
			kept = &which[i];
			break;
		}
	}
	/* nothing in effect while the maps are asked whether that is enough */
	if (kept && cap_set_flag(stage, CAP_PERMITTED, 1, kept, CAP_SET))
		goto out;
	err = cap_set_proc(stage);
	if (err || !kept || ct_bpf_answers(bpf_fd)) {
		err = err ? err : cap_set_proc(none);
		goto out;
	}
	err = cap_set_flag(stage, CAP_EFFECTIVE, 1, kept, CAP_SET) ? -1 :
	      cap_set_proc(stage);
	if (!err)
		fprintf(stderr, "coretrace: this kernel reads BPF maps only for CAP_BPF (kernel.unprivileged_bpf_disabled is set): %s is kept, every other capability is given up\n",
			*kept == CAP_BPF ? "CAP_BPF" : "CAP_SYS_ADMIN");
out:
	if (now)
		cap_free(now);
	if (stage)
		cap_free(stage);
	if (none)
		cap_free(none);
	return err;
}

int ct_privs_drop(const struct ct_privs *p, enum ct_privs_role role,
		  int bpf_fd, char *why, size_t len)
{
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
	/* the permitted set outlives the switch, until asked below */
	if (p->switch_user && bpf_fd >= 0)
		prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	if (p->switch_user &&
	    (setgroups(1, &p->gid) || setresgid(p->gid, p->gid, p->gid) ||
	     setresuid(p->uid, p->uid, p->uid))) {
		snprintf(why, len, "cannot switch to user %.64s (uid %u): %s",
			 p->name, (unsigned int)p->uid, strerror(errno));
		return -1;
	}
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	err = ct_drop_caps(bpf_fd);
	if (err) {
		snprintf(why, len, "cannot drop the capabilities: %s",
			 strerror(errno));
		return -1;
	}
	/* no other process of the user may ptrace it and use its descriptors */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* a kernel built without CONFIG_SECCOMP has no filter to install */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL)
		return 1;
	err = ct_seccomp(role);
	if (err) {
		snprintf(why, len, "cannot install the system call filter: %s",
			 strerror(-err));
		return -1;
	}
	return 0;
}
