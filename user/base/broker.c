// SPDX-License-Identifier: GPL-2.0
/*
 * The file broker of record -g (broker.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/broker.h"
#include "base/privs.h"

#define CT_BROKER_PATH		4096

struct ct_broker_req {
	uint32_t tgid;
	uint32_t maps;		/* 1: the maps, not a file */
	char path[CT_BROKER_PATH];
};

int ct_proc_open(uint32_t tgid, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char name[64];
	struct stat st;
	int dir, fd, err;

	if (!path) {
		snprintf(name, sizeof(name), "/proc/%u/maps", tgid);
		fd = open(name, O_RDONLY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	snprintf(name, sizeof(name), "/proc/%u/root", tgid);
	dir = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	fd = (int)syscall(SYS_openat2, dir, path, &how, sizeof(how));
	err = errno;
	close(dir);
	if (fd < 0)
		return -err;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* The broker's loop: a request in, a descriptor (or an errno) out */
static void ct_broker_serve(int sock)
{
	struct ct_broker_req req;
	char control[CMSG_SPACE(sizeof(int))];
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov;
	ssize_t n;
	int fd, answer;

	for (;;) {
		n = recv(sock, &req, sizeof(req), 0);
		if (n <= 0)
			_exit(0);
		if ((size_t)n < offsetof(struct ct_broker_req, path) + 1)
			continue;
		req.path[sizeof(req.path) - 1] = '\0';
		fd = ct_proc_open(req.tgid, req.maps ? NULL : req.path);
		answer = fd < 0 ? fd : 0;
		memset(&msg, 0, sizeof(msg));
		iov.iov_base = &answer;
		iov.iov_len = sizeof(answer);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		if (fd >= 0) {
			memset(control, 0, sizeof(control));
			msg.msg_control = control;
			msg.msg_controllen = sizeof(control);
			cm = CMSG_FIRSTHDR(&msg);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cm), &fd, sizeof(int));
		}
		if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
			_exit(0);
		if (fd >= 0)
			close(fd);
	}
}

int ct_broker_start(struct ct_broker *b)
{
	char why[CT_PRIVS_WHY];
	int sv[2], err;

	b->sock = -1;
	b->pid = 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	b->pid = fork();
	if (b->pid < 0) {
		err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (!b->pid) {
		/* nothing of the tracer's: its maps, rings and files closed */
		if (dup2(sv[1], 3) < 0)
			_exit(1);
		if (syscall(SYS_close_range, 4, ~0U, 0) && errno != ENOSYS)
			_exit(1);
		/* the tracer's signals are its own; its death ends this */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGUSR1, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		prctl(PR_SET_NAME, "coretrace-files", 0, 0, 0);
		if (ct_privs_broker(why, sizeof(why)) < 0) {
			fprintf(stderr, "coretrace: the file broker: %s\n", why);
			_exit(1);
		}
		ct_broker_serve(3);
		_exit(0);
	}
	close(sv[1]);
	b->sock = sv[0];
	return 0;
}

int ct_broker_open(struct ct_broker *b, uint32_t tgid, const char *path)
{
	struct ct_broker_req req;
	char control[CMSG_SPACE(sizeof(int))];
	struct msghdr msg;
	struct cmsghdr *cm;
	struct iovec iov;
	size_t len = path ? strlen(path) : 0;
	int answer = -EIO, fd = -1;

	if (!b || b->sock < 0)
		return ct_proc_open(tgid, path);
	if (len >= sizeof(req.path))
		return -ENAMETOOLONG;
	memset(&req, 0, offsetof(struct ct_broker_req, path) + 1);
	req.tgid = tgid;
	req.maps = !path;
	if (path)
		memcpy(req.path, path, len + 1);
	if (send(b->sock, &req, offsetof(struct ct_broker_req, path) + len + 1,
		 MSG_NOSIGNAL) < 0)
		return -errno;
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = &answer;
	iov.iov_len = sizeof(answer);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = control;
	msg.msg_controllen = sizeof(control);
	if (recvmsg(b->sock, &msg, MSG_CMSG_CLOEXEC) < (ssize_t)sizeof(answer))
		return -EIO;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	if (answer < 0) {
		if (fd >= 0)
			close(fd);
		return answer;
	}
	return fd >= 0 ? fd : -EIO;
}

void ct_broker_stop(struct ct_broker *b)
{
	if (!b || b->sock < 0)
		return;
	close(b->sock);
	b->sock = -1;
	if (b->pid > 0)
		waitpid(b->pid, NULL, 0);
	b->pid = 0;
}
