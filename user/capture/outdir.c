// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace runs as root and writes where it is told, often in /tmp or a
 * directory a user made. Everything here works relative to a directory
 * descriptor and with O_NOFOLLOW | O_EXCL, so a link planted in the
 * directory is removed, not followed, and a file is never reopened by
 * path once checked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "capture/outdir.h"

void ct_outdir_defaults(struct ct_outdir_opts *o)
{
	o->file_mode = CT_FILE_MODE_DEFAULT;
	o->uid = geteuid();
	o->gid = getegid();
	o->privs = NULL;
}

mode_t ct_outdir_dir_mode(mode_t file_mode)
{
	return (file_mode & 0666) | ((file_mode & 0444) >> 2);
}

/* A file or directory made by root for --user: that user's */
static int ct_outdir_own(int fd, const struct ct_outdir_opts *o)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_uid != o->uid && fchown(fd, o->uid, o->gid))
		return -errno;
	return 0;
}

int ct_outdir_open(const char *arg, const struct ct_outdir_opts *o,
		   char *why, size_t why_len)
{
	mode_t dmode = ct_outdir_dir_mode(o->file_mode);
	char path[4096];
	struct stat st;
	size_t len;
	int fd, err;

	why[0] = '\0';
	/* "link/" would follow the link whatever O_NOFOLLOW says */
	len = strnlen(arg, sizeof(path));
	if (len == sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, arg, len + 1);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (!mkdir(path, 0700)) {
		/* made here: its owner's, with the mode asked for */
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			err = ct_outdir_own(fd, o) || fchmod(fd, dmode) ? -errno : 0;
			close(fd);
			if (err)
				return err;
		}
	} else if (errno != EEXIST) {
		return -errno;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		/* with O_DIRECTORY, a link is "not a directory": say which */
		if (err == -ENOTDIR && !lstat(path, &st) && S_ISLNK(st.st_mode))
			err = -ELOOP;
		if (err == -ELOOP)
			snprintf(why, why_len, "%s is a symbolic link: coretrace writes only in a real directory",
				 path);
		else if (err == -ENOTDIR)
			snprintf(why, why_len, "%s exists and is not a directory",
				 path);
		return err;
	}
	/* made here or found: the directory now open is checked the same */
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (st.st_uid != o->uid) {
		snprintf(why, why_len, "%s belongs to uid %u, not to the user coretrace writes as (uid %u): its owner could plant links in it",
			 path, (unsigned int)st.st_uid, (unsigned int)o->uid);
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & 0022) {
		snprintf(why, why_len, "other users can write in %s (mode %04o) and could plant links in it",
			 path, (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

int ct_outdir_create(int dirfd, const char *name, const struct ct_outdir_opts *o)
{
	int fd, err;

	if (unlinkat(dirfd, name, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, o->file_mode & 0666);
	if (fd < 0)
		return -errno;
	/* exactly the mode asked for, whatever the umask; --user's file */
	if (fchmod(fd, o->file_mode & 0666) || ct_outdir_own(fd, o)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int ct_outdir_mkdir(int dirfd, const char *name, const struct ct_outdir_opts *o)
{
	int fd, err = ct_outdir_remove(dirfd, name);

	if (err)
		return err;
	if (mkdirat(dirfd, name, 0700))
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, ct_outdir_dir_mode(o->file_mode)) || ct_outdir_own(fd, o)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int ct_outdir_remove(int dirfd, const char *name)
{
	struct dirent *entry;
	int fd, err = 0;
	DIR *d;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno != ENOTDIR && errno != ELOOP)
			return -errno;
		/* a file, or a link: the name goes, what it points at stays */
		if (unlinkat(dirfd, name, 0) && errno != ENOENT)
			return -errno;
		return 0;
	}
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	while ((entry = readdir(d))) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		/* parts hold files only: a directory in one is left, and said */
		if (unlinkat(fd, entry->d_name, 0) && errno != ENOENT && !err)
			err = -errno;
	}
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) && errno != ENOENT && !err)
		err = -errno;
	return err;
}
