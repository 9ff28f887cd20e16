// SPDX-License-Identifier: GPL-2.0
/*
 * The directory coretrace writes in, as a hostile local user would set it
 * up (outdir.c, and the writer, snapshots and rotation through it): links
 * planted where a capture, a snapshot or a chunk is about to be written or
 * removed are removed themselves, never followed; what is outside DIR is
 * untouched; files are their owner's only unless asked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ct_test.h"
#include "capture/ctf.h"
#include "capture/outdir.h"
#include "capture/recorder.h"
#include "model/args.h"
#include "model/output.h"

static const char victim_text[] = "not coretrace's\n";

/* A directory outside DIR with a file in it: what a link points at */
static void make_victim(char *dir, char *file, size_t len)
{
	CT_CHECK(mkdtemp(dir) != NULL);
	snprintf(file, len, "%s/keep", dir);
	ct_test_write_file(file, victim_text);
}

/* The victim's file still there, with its own bytes */
static void check_victim(const char *file, const char *what)
{
	char buf[64] = "";
	ssize_t n;
	int fd = open(file, O_RDONLY);

	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0 || strcmp(buf, victim_text))
		fprintf(stderr, "  %s: %s was touched\n", what, file);
	CT_CHECK(n == (ssize_t)strlen(victim_text));
	CT_CHECK_STR(buf, victim_text);
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "  could not remove %s\n", dir);
}

static bool is_link(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

static unsigned int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0xffff : (unsigned int)(st.st_mode & 07777);
}

/* A capture's files planted as links: metadata, a stream, the cut mark */
static void test_capture_links(void)
{
	char dir[] = "/tmp/ct-unit-out-XXXXXX", victim[] = "/tmp/ct-unit-victim-XXXXXX";
	char file[256], path[512];
	struct ct_ctf_env env = { "r", "h", 0 };
	union ct_record r = ct_test_rec_switch(0, 1000);
	struct ct_ctf ctf;

	CT_CHECK(mkdtemp(dir) != NULL);
	chmod(dir, 0700);
	make_victim(victim, file, sizeof(file));
	snprintf(path, sizeof(path), "%s/metadata", dir);
	CT_CHECK_INT(symlink(file, path), 0);
	snprintf(path, sizeof(path), "%s/stream_0", dir);
	CT_CHECK_INT(symlink(file, path), 0);
	CT_CHECK_INT(ct_ctf_open(&ctf, dir, 1, &env, NULL), 0);
	CT_CHECK_INT(ct_ctf_add(&ctf, &r, 1000), 0);
	CT_CHECK_INT(ct_ctf_close(&ctf), 0);
	check_victim(file, "capture metadata link");
	snprintf(path, sizeof(path), "%s/metadata", dir);
	CT_CHECK(!is_link(path));
	/* owner-only by default: files 0600, what coretrace made 0700 */
	CT_CHECK_INT(mode_of(path), 0600);
	snprintf(path, sizeof(path), "%s/stream_0", dir);
	CT_CHECK(!is_link(path));
	CT_CHECK_INT(mode_of(path), 0600);
	rm_rf(dir);
	rm_rf(victim);
}

/* DIR itself a link, someone else's or writable by others: refused */
static void test_refused_dirs(void)
{
	char victim[] = "/tmp/ct-unit-victim-XXXXXX", base[] = "/tmp/ct-unit-base-XXXXXX";
	char file[256], path[512], made[512];
	struct ct_outdir_opts o;
	char why[CT_OUTDIR_WHY];
	int fd;

	make_victim(victim, file, sizeof(file));
	CT_CHECK(mkdtemp(base) != NULL);
	ct_outdir_defaults(&o);

	snprintf(path, sizeof(path), "%s/cap", base);
	CT_CHECK_INT(symlink(victim, path), 0);
	CT_CHECK_INT(ct_outdir_open(path, &o, why, sizeof(why)), -ELOOP);
	CT_CHECK(strstr(why, "is a symbolic link") != NULL);
	/* "link/" and "link//" too: a trailing slash would follow it */
	snprintf(made, sizeof(made), "%s/cap//", base);
	CT_CHECK_INT(ct_outdir_open(made, &o, why, sizeof(why)), -ELOOP);
	CT_CHECK(strstr(why, "cap is a symbolic link") != NULL);

	snprintf(path, sizeof(path), "%s/open", base);
	CT_CHECK_INT(mkdir(path, 0700), 0);
	CT_CHECK_INT(chmod(path, 0777), 0);
	CT_CHECK_INT(ct_outdir_open(path, &o, why, sizeof(why)), -EPERM);
	CT_CHECK(strstr(why, "other users can write in") != NULL);

	/* another user's: as root, a directory given away; else asked for */
	snprintf(path, sizeof(path), "%s/theirs", base);
	CT_CHECK_INT(mkdir(path, 0700), 0);
	if (geteuid() == 0)
		CT_CHECK_INT(chown(path, 65534, 65534), 0);
	else
		o.uid = geteuid() + 1;
	CT_CHECK_INT(ct_outdir_open(path, &o, why, sizeof(why)), -EPERM);
	CT_CHECK(strstr(why, "belongs to uid") != NULL);
	ct_outdir_defaults(&o);

	snprintf(path, sizeof(path), "%s/file", base);
	ct_test_write_file(path, "x");
	CT_CHECK_INT(ct_outdir_open(path, &o, why, sizeof(why)), -ENOTDIR);

	/* made here: 0700 by default, 0750 for files 0640 */
	snprintf(made, sizeof(made), "%s/new", base);
	fd = ct_outdir_open(made, &o, why, sizeof(why));
	CT_CHECK(fd >= 0);
	CT_CHECK_INT(mode_of(made), 0700);
	if (fd >= 0)
		close(fd);
	snprintf(made, sizeof(made), "%s/group", base);
	o.file_mode = 0640;
	fd = ct_outdir_open(made, &o, why, sizeof(why));
	CT_CHECK(fd >= 0);
	CT_CHECK_INT(mode_of(made), 0750);
	if (fd >= 0) {
		int f = ct_outdir_create(fd, "x", &o);

		CT_CHECK(f >= 0);
		if (f >= 0)
			close(f);
		close(fd);
	}
	snprintf(made, sizeof(made), "%s/group/x", base);
	CT_CHECK_INT(mode_of(made), 0640);
	/* --file-mode: others may read, never write (their links) */
	{
		unsigned int m = 0;

		CT_CHECK_INT(ct_parse_file_mode("0640", &m), 0);
		CT_CHECK_INT(m, 0640);
		CT_CHECK_INT(ct_parse_file_mode("644", &m), 0);
		CT_CHECK(ct_parse_file_mode("0660", &m) != 0);
		CT_CHECK(ct_parse_file_mode("0666", &m) != 0);
		CT_CHECK(ct_parse_file_mode("0700", &m) != 0);
		CT_CHECK(ct_parse_file_mode("4600", &m) != 0);
		CT_CHECK(ct_parse_file_mode("06400", &m) != 0);
		CT_CHECK(ct_parse_file_mode("", &m) != 0);
		CT_CHECK(ct_parse_file_mode("0x1a", &m) != 0);
	}
	/* root writing for --user: what it makes is that user's */
	if (geteuid() == 0) {
		struct stat st;

		o.file_mode = 0600;
		o.uid = 65534;
		o.gid = 65534;
		snprintf(made, sizeof(made), "%s/for-nobody", base);
		fd = ct_outdir_open(made, &o, why, sizeof(why));
		CT_CHECK(fd >= 0);
		if (fd >= 0) {
			int f = ct_outdir_create(fd, "metadata", &o);

			CT_CHECK(f >= 0 && !fstat(f, &st) && st.st_uid == 65534 &&
				 st.st_gid == 65534);
			if (f >= 0)
				close(f);
			close(fd);
		}
		CT_CHECK(!lstat(made, &st) && st.st_uid == 65534);
		ct_outdir_defaults(&o);
	}
	check_victim(file, "refused directories");
	rm_rf(base);
	rm_rf(victim);
}

/* ct_outdir_remove: a link goes, its target stays; a part's files go */
static void test_remove(void)
{
	char dir[] = "/tmp/ct-unit-out-XXXXXX", victim[] = "/tmp/ct-unit-victim-XXXXXX";
	char file[256], path[512];
	int fd;

	CT_CHECK(mkdtemp(dir) != NULL);
	make_victim(victim, file, sizeof(file));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CT_CHECK(fd >= 0);
	snprintf(path, sizeof(path), "%s/part", dir);
	CT_CHECK_INT(symlink(victim, path), 0);
	CT_CHECK_INT(ct_outdir_remove(fd, "part"), 0);
	CT_CHECK(access(path, F_OK) != 0);
	check_victim(file, "remove a link to a directory");
	CT_CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/part/in", dir);
	CT_CHECK_INT(symlink(victim, path), 0);
	CT_CHECK_INT(ct_outdir_remove(fd, "part"), 0);
	snprintf(path, sizeof(path), "%s/part", dir);
	CT_CHECK(access(path, F_OK) != 0);
	check_victim(file, "remove a part holding a link");
	CT_CHECK_INT(ct_outdir_remove(fd, "missing"), 0);
	close(fd);
	rm_rf(dir);
	rm_rf(victim);
}

/*
 * The flight recorder's snapshots are made as .snapshot-N.partial, then
 * renamed snapshot-N: the first planted as a link to a directory outside,
 * the second (the end's) as a link to a file outside.
 */
static void test_snapshot_links(void)
{
	char dir[] = "/tmp/ct-unit-out-XXXXXX", victim[] = "/tmp/ct-unit-victim-XXXXXX";
	char file[256], path[512], why[CT_OUTDIR_WHY];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 256 << 10, 0, 0, 0, 0, { 0, 0, 0, NULL } };
	struct ct_names names;
	struct ct_output *out;
	bool quiet;
	int err = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	make_victim(victim, file, sizeof(file));
	snprintf(path, sizeof(path), "%s/.snapshot-000001.partial", dir);
	CT_CHECK_INT(symlink(victim, path), 0);
	snprintf(path, sizeof(path), "%s/.snapshot-000002.partial", dir);
	CT_CHECK_INT(symlink(file, path), 0);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	ct_test_feed_switches(out, 2000, 20000);
	CT_CHECK_INT(ct_output_snapshot(out, "test", 0), 0);
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	check_victim(file, "snapshot links");
	/* both snapshots made where the links were, and renamed */
	snprintf(path, sizeof(path), "%s/snapshot-000001/metadata", dir);
	CT_CHECK_INT(access(path, F_OK), 0);
	CT_CHECK_INT(mode_of(path), 0600);
	snprintf(path, sizeof(path), "%s/snapshot-000002/stream_0", dir);
	CT_CHECK_INT(mode_of(path), 0600);
	snprintf(path, sizeof(path), "%s/snapshot-000001", dir);
	CT_CHECK_INT(mode_of(path), 0700);
	snprintf(path, sizeof(path), "%s/.snapshot-000001.partial", dir);
	CT_CHECK(!is_link(path) && access(path, F_OK) != 0);
	rm_rf(dir);
	rm_rf(victim);
	ct_names_free(&names);
}

/* Rotation removes the oldest chunk: chunk-000001 planted as a link */
static void test_chunk_links(void)
{
	char dir[] = "/tmp/ct-unit-out-XXXXXX", victim[] = "/tmp/ct-unit-victim-XXXXXX";
	char file[256], path[512], why[CT_OUTDIR_WHY];
	struct ct_ctf_env env = { "r", "h", 0 };
	struct ct_parts_opts opts = { dir, 0, 256 << 10, 0, 2, 0, { 0, 0, 0, NULL } };
	struct ct_names names;
	struct ct_output *out;
	bool quiet;
	int err = 0;

	CT_CHECK(mkdtemp(dir) != NULL);
	make_victim(victim, file, sizeof(file));
	snprintf(path, sizeof(path), "%s/chunk-000001", dir);
	CT_CHECK_INT(symlink(victim, path), 0);
	CT_CHECK_INT(ct_names_init(&names, 64), 0);
	ct_outdir_defaults(&opts.out);
	out = ct_parts_output(&opts, 2, &env, &names, 1, &err, why);
	CT_CHECK(out != NULL);
	if (!out)
		return;
	ct_test_feed_switches(out, 2000, 200000);	/* several chunks: the oldest go */
	CT_CHECK_INT(ct_output_close(out, &quiet), 0);
	check_victim(file, "chunk link");
	snprintf(path, sizeof(path), "%s/chunk-000001", dir);
	CT_CHECK(access(path, F_OK) != 0);	/* the link itself went */
	rm_rf(dir);
	rm_rf(victim);
	ct_names_free(&names);
}

void test_outdir(void)
{
	test_capture_links();
	test_refused_dirs();
	test_remove();
	test_snapshot_links();
	test_chunk_links();
}
