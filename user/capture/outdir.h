/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directory a capture is written in, held open (outdir.c): every file
 * and part is made and removed relative to it, never through a path that
 * a symbolic link or a file planted beforehand could redirect.
 */
#ifndef CORETRACE_OUTDIR_H
#define CORETRACE_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>
#include "base/privs.h"

/* files readable by their owner only, unless asked (--file-mode) */
#define CT_FILE_MODE_DEFAULT	0600

/* room for the sentence that says why a directory was refused */
#define CT_OUTDIR_WHY		320

/* who the capture is written as, and how readable it is */
struct ct_outdir_opts {
	mode_t file_mode;	/* permission bits of files (0644 at most) */
	uid_t uid;		/* the owner the directory must have */
	gid_t gid;
	/* what the writer process gives up once forked; NULL: nothing */
	const struct ct_privs *privs;
};

/* The writer's owner: the effective user, files 0600 */
void ct_outdir_defaults(struct ct_outdir_opts *o);
/* A directory's mode for @file_mode: search where it can be read */
mode_t ct_outdir_dir_mode(mode_t file_mode);
/*
 * Open @path as the directory to write in, making it (owned by @o's user)
 * if missing. Refused (-ELOOP, -ENOTDIR, -EPERM) when it is a symbolic
 * link, not a directory, someone else's, or writable by other users;
 * @why then holds the sentence that says so. The fd, or -errno.
 */
int ct_outdir_open(const char *path, const struct ct_outdir_opts *o,
		   char *why, size_t why_len);
/*
 * A new file @name in @dirfd, replacing what has the name (a link is
 * removed, never followed), with exactly @o's mode, @o's user's. fd or
 * -errno.
 */
int ct_outdir_create(int dirfd, const char *name, const struct ct_outdir_opts *o);
/* A new directory @name in @dirfd (what had the name removed); fd or -errno */
int ct_outdir_mkdir(int dirfd, const char *name, const struct ct_outdir_opts *o);
/*
 * Remove @name from @dirfd: a file or a link itself, or a directory and
 * the files in it; no link is followed. 0 (also when missing) or -errno.
 */
int ct_outdir_remove(int dirfd, const char *name);

#endif /* CORETRACE_OUTDIR_H */
