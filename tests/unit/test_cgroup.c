// SPDX-License-Identifier: GPL-2.0
/* -G: cgroup paths from mountinfo, group threads, and the refusals. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/cgroup.h"
#include "commands/record.h"
#include "commands/top.h"
#include "ct_test.h"

/* shaped as on a Debian 12 host with systemd, and under a container */
static const char mountinfo[] =
	"22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
	"40 28 0:24 /system.slice/db.service /srv/db\\040cg rw,relatime shared:9 - cgroup2 cgroup2 rw\n"
	"41 28 0:33 / /srv/db\\040cg/tmp rw shared:10 - tmpfs tmpfs rw\n"
	"28 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n";

static void check_path(const char *mi, const char *real, int ret,
		       const char *want)
{
	char path[CT_CGROUP_PATH_LEN];

	strcpy(path, "untouched");
	CT_CHECK_INT(ct_cgroup_path_in(mi, real, path, sizeof(path)), ret);
	CT_CHECK_STR(path, ret ? "untouched" : want);
}

static void test_paths(void)
{
	char longer[400];

	check_path(mountinfo, "/sys/fs/cgroup", 0, "");
	check_path(mountinfo, "/sys/fs/cgroup/", 0, "");
	check_path(mountinfo, "/sys/fs/cgroup/system.slice", 0, "/system.slice");
	check_path(mountinfo, "/sys/fs/cgroup/a/b/c", 0, "/a/b/c");
	/* a group mounted on its own: its root is the group, \040 a space */
	check_path(mountinfo, "/srv/db cg", 0, "/system.slice/db.service");
	check_path(mountinfo, "/srv/db cg/worker", 0,
		   "/system.slice/db.service/worker");
	/* a prefix of a mount point's name is not under it */
	check_path(mountinfo, "/sys/fs/cgroupx", -ENOENT, NULL);
	check_path(mountinfo, "/srv", -ENOENT, NULL);
	check_path(mountinfo, "relative/path", -EINVAL, NULL);
	check_path("", "/sys/fs/cgroup", -ENOENT, NULL);
	/* the longest path that fits, and one byte more */
	memset(longer, 'x', sizeof(longer));
	strcpy(longer, "/sys/fs/cgroup/");
	longer[strlen(longer)] = 'x';
	longer[15 + 254] = '\0';
	check_path(mountinfo, longer, 0, longer + 14);
	{
		char path[CT_CGROUP_PATH_LEN];

		longer[15 + 254] = 'x';
		longer[15 + 255] = '\0';
		CT_CHECK_INT(ct_cgroup_path_in(mountinfo, longer, path, sizeof(path)),
			     -ENAMETOOLONG);
	}

	/* hostile mountinfo: every malformed line is refused, none read past */
	check_path("26 22 0:24\n", "/sys/fs/cgroup", -EINVAL, NULL);
	check_path("26 22 0:24 / /sys/fs/cgroup rw\n", "/sys/fs/cgroup", -EINVAL, NULL);
	check_path("26 22 0:24 / /sys/fs/cgroup rw\n27 1 0:1 / / rw - cgroup2 x rw\n",
		   "/sys/fs/cgroup", -EINVAL, NULL);
	check_path("26 22 0:24 relative /sys/fs/cgroup rw - cgroup2 c rw\n",
		   "/sys/fs/cgroup", -EINVAL, NULL);
	check_path("26 22 0:24 / /sys/fs/cgroup rw - \n", "/sys/fs/cgroup", -EINVAL, NULL);
	check_path("\n\n26 22 0:24 / /sys/fs/cgroup rw - cgroup2 c rw", "/sys/fs/cgroup/q",
		   0, "/q");
	/* an escape cut short stays as it is */
	check_path("26 22 0:24 / /sys/fs/cg\\04 rw - cgroup2 c rw\n", "/sys/fs/cg\\04/a",
		   0, "/a");
	/* a later mount over the same point wins */
	check_path("1 0 0:1 /old /m rw - cgroup2 c rw\n2 0 0:1 /new /m rw - cgroup2 c rw\n",
		   "/m/x", 0, "/new/x");
	/* a cgroup v1 mount is not the v2 hierarchy */
	check_path("1 0 0:1 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n",
		   "/sys/fs/cgroup/cpu/a", -ENOENT, NULL);
	{
		char *big = malloc(1 << 16);
		char path[CT_CGROUP_PATH_LEN];

		/* a field longer than PATH_MAX */
		memset(big, 'a', (1 << 16) - 1);
		memcpy(big, "1 0 0:1 /", 9);
		big[(1 << 16) - 1] = '\0';
		CT_CHECK_INT(ct_cgroup_path_in(big, "/a", path, sizeof(path)), -EINVAL);
		free(big);
	}

	CT_CHECK_INT(ct_cgroup_level(""), 0);
	CT_CHECK_INT(ct_cgroup_level("/a"), 1);
	CT_CHECK_INT(ct_cgroup_level("/system.slice/db.service/worker"), 3);
}

static int collect(uint32_t tid, void *arg)
{
	uint64_t *sum = arg;

	if (tid == 666)
		return -ECANCELED;
	*sum += tid;
	return 0;
}

/* Group @rel below @dir ("" for @dir itself) listing @threads */
static void make_group(const char *dir, const char *rel, const char *threads)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	if (*rel)
		mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s%s/cgroup.threads", dir, rel);
	ct_test_write_file(path, threads);
}

static void test_threads(void)
{
	static const char *const hostile[] = {
		"12x\n", "-5\n", "0\n", "99999999999\n", "\n",
	};
	char dir[] = "/tmp/ct-cgroup-XXXXXX", path[256];
	uint64_t sum = 0;
	size_t i;

	CT_CHECK(mkdtemp(dir) != NULL);
	make_group(dir, "", "10\n20\n");
	make_group(dir, "/a", "300\n");
	make_group(dir, "/a/b", "4000\n");
	make_group(dir, "/a/empty", "");

	/* the group and every group below it */
	CT_CHECK_INT(ct_cgroup_threads(dir, 64, collect, &sum), 4);
	CT_CHECK_INT(sum, 4330);
	/* depth-limited */
	sum = 0;
	CT_CHECK_INT(ct_cgroup_threads(dir, 1, collect, &sum), 3);
	CT_CHECK_INT(sum, 330);
	/* the callback's error stops the walk */
	snprintf(path, sizeof(path), "%s/a/b/cgroup.threads", dir);
	ct_test_write_file(path, "666\n");
	CT_CHECK_INT(ct_cgroup_threads(dir, 64, collect, &sum), -ECANCELED);
	/* hostile lists */
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		ct_test_write_file(path, hostile[i]);
		CT_CHECK_INT(ct_cgroup_threads(dir, 64, collect, &sum), -EINVAL);
	}
	/* a group without a thread list, and no group at all */
	unlink(path);
	sum = 0;
	CT_CHECK_INT(ct_cgroup_threads(path, 64, collect, &sum), -ENOENT);
	snprintf(path, sizeof(path), "%s/a/b", dir);
	CT_CHECK_INT(ct_cgroup_threads(path, 64, collect, &sum), -ENOENT);
	/* a subgroup that lost its list (removed while read) is passed over */
	CT_CHECK_INT(ct_cgroup_threads(dir, 64, collect, &sum), 3);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CT_CHECK_INT(system(path), 0);
}

static int parse_g(char *errbuf, size_t len, const char *cmd, int n, ...)
{
	static struct ct_record_opts opts;
	char *argv[24], *out = NULL;
	size_t outlen = 0;
	FILE *err, *outf;
	va_list ap;
	int i, rc;

	argv[0] = (char *)cmd;
	va_start(ap, n);
	for (i = 0; i < n && i < 22; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	argv[i + 1] = NULL;
	memset(errbuf, 0, len);
	err = fmemopen(errbuf, len - 1, "w");
	outf = open_memstream(&out, &outlen);
	if (!strcmp(cmd, "top"))
		rc = ct_parse_command(&ct_top_command, i + 1, argv, &opts, outf, err);
	else
		rc = ct_parse_command(&ct_record_command, i + 1, argv, &opts, outf, err);
	fclose(err);
	fclose(outf);
	free(out);
	return rc;
}

static void test_refusals(void)
{
	char dir[] = "/tmp/ct-cgroup-XXXXXX", file[256], err[512], want[512];
	struct ct_cgroup cg;
	FILE *f;

	CT_CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/plain", dir);
	ct_test_write_file(file, "x");

	/* a directory that is not cgroup2's, a file, nothing: one sentence */
	CT_CHECK_INT(parse_g(err, sizeof(err), "record", 2, "-G", dir), CT_PARSE_ERROR);
	snprintf(want, sizeof(want), "coretrace record: -G %s: not a cgroup v2 directory\n", dir);
	CT_CHECK_STR(err, want);
	CT_CHECK_INT(parse_g(err, sizeof(err), "top", 2, "--cgroup", file), CT_PARSE_ERROR);
	snprintf(want, sizeof(want), "coretrace top: -G %s: not a cgroup v2 directory\n", file);
	CT_CHECK_STR(err, want);
	CT_CHECK_INT(parse_g(err, sizeof(err), "record", 1, "-G"), CT_PARSE_ERROR);
	CT_CHECK(strstr(err, "needs a value") != NULL);
	CT_CHECK_INT(parse_g(err, sizeof(err), "record", 3, "-p", "1", "--cgroup=/nonexistent/x"),
		     CT_PARSE_ERROR);
	CT_CHECK_STR(err, "coretrace record: -G /nonexistent/x: not a cgroup v2 directory\n");

	f = fmemopen(err, sizeof(err) - 1, "w");
	memset(err, 0, sizeof(err));
	CT_CHECK_INT(ct_cgroup_resolve("", &cg, f, "record"), -EINVAL);
	fclose(f);
	CT_CHECK_STR(err, "coretrace record: -G : not a cgroup v2 directory\n");

	snprintf(file, sizeof(file), "rm -rf '%s'", dir);
	CT_CHECK_INT(system(file), 0);
}

static void test_task_paths(void)
{
	char path[CT_CGROUP_PATH_LEN], mnt[64];

	CT_CHECK_INT(ct_cgroup_of_task("0::/system.slice/db.service\n", path, sizeof(path)), 0);
	CT_CHECK_STR(path, "/system.slice/db.service");
	/* v1 lines first (a hybrid host), no final newline */
	CT_CHECK_INT(ct_cgroup_of_task("12:pids:/x\n1:name=systemd:/y\n0::/", path,
				       sizeof(path)), 0);
	CT_CHECK_STR(path, "/");
	/* v1 only, empty, or not the v2 line's shape */
	CT_CHECK_INT(ct_cgroup_of_task("12:pids:/x\n", path, sizeof(path)), -ENOENT);
	CT_CHECK_INT(ct_cgroup_of_task("", path, sizeof(path)), -ENOENT);
	CT_CHECK_INT(ct_cgroup_of_task("0::relative\n", path, sizeof(path)), -ENOENT);
	CT_CHECK_INT(ct_cgroup_of_task("10::/a\n", path, sizeof(path)), -ENOENT);
	CT_CHECK_INT(ct_cgroup_of_task("0::/abcdefgh\n", path, 8), -ENAMETOOLONG);
	CT_CHECK_INT(ct_cgroup_of_task("0::/abcdef\n", path, 8), 0);
	CT_CHECK_STR(path, "/abcdef");

	CT_CHECK_INT(ct_cgroup_mount(mountinfo, mnt, sizeof(mnt)), 0);
	CT_CHECK_STR(mnt, "/sys/fs/cgroup");
	/* a group mounted on its own is not the hierarchy's root */
	CT_CHECK_INT(ct_cgroup_mount("40 28 0:24 /a /srv rw - cgroup2 c rw\n", mnt,
				     sizeof(mnt)), -ENOENT);
	CT_CHECK_INT(ct_cgroup_mount("40 28 0:24 / /srv rw\n", mnt, sizeof(mnt)), -EINVAL);
	CT_CHECK_INT(ct_cgroup_mount("40 28 0:24 / /a/long/mount/point rw - cgroup2 c rw\n",
				     mnt, 8), -ENAMETOOLONG);
}

static int count_group(uint64_t id, uint32_t level, const char *path, void *arg)
{
	char *seen = arg;
	char line[96];

	snprintf(line, sizeof(line), "%u:%s%s;", level, path, id ? "" : "(no id)");
	strcat(seen, line);
	return strcmp(path, "/stop") ? 0 : -ECANCELED;
}

static void test_groups(void)
{
	char dir[] = "/tmp/ct-cgroup-XXXXXX", path[256], seen[1024] = "";

	CT_CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/a/b", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	mkdir(path, 0700);
	CT_CHECK_INT(ct_cgroup_groups(dir, 64, count_group, seen), 4);
	CT_CHECK_STR(seen, "0:/;1:/a;2:/a/b;3:/a/b/c;");
	seen[0] = '\0';
	CT_CHECK_INT(ct_cgroup_groups(dir, 1, count_group, seen), 2);
	CT_CHECK_STR(seen, "0:/;1:/a;");
	snprintf(path, sizeof(path), "%s/stop", dir);
	mkdir(path, 0700);
	seen[0] = '\0';
	CT_CHECK_INT(ct_cgroup_groups(dir, 0, count_group, seen), 1);
	CT_CHECK_INT(ct_cgroup_groups(path, 0, count_group, seen), 1);
	CT_CHECK_INT(ct_cgroup_groups("/nonexistent/x", 4, count_group, seen), -ENOENT);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CT_CHECK_INT(system(path), 0);
}

static void test_names(void)
{
	struct ct_cgroup_names n;
	struct ct_task_cgroup t = { 0 };
	struct ct_cgroup_name g = { 0 };
	char path[CT_CGROUP_PATH_LEN + 8];
	uint32_t pid;

	CT_CHECK_INT(ct_cgroup_names_init(&n, 16, 16), 0);
	CT_CHECK_INT(ct_cgroup_task(&n, 5), 0);
	CT_CHECK(ct_cgroup_path(&n, 77) == NULL);
	t.pid = 5;
	t.cgroup_id = 77;
	ct_cgroup_learn(&n, CT_EV_TASK_CGROUP, &t);
	g.cgroup_id = 77;
	g.level = 1;
	strcpy(g.path, "/ct-a");
	ct_cgroup_learn(&n, CT_EV_CGROUP_NAME, &g);
	ct_cgroup_learn(&n, CT_EV_COMM, &g);	/* not about groups */
	CT_CHECK_INT(ct_cgroup_task(&n, 5), 77);
	CT_CHECK_STR(ct_cgroup_path(&n, 77), "/ct-a");
	/* a move, a rename */
	ct_cgroup_set_task(&n, 5, 78);
	ct_cgroup_set_group(&n, 77, 1, "/ct-renamed");
	CT_CHECK_INT(ct_cgroup_task(&n, 5), 78);
	CT_CHECK_STR(ct_cgroup_path(&n, 77), "/ct-renamed");
	/* a path without its NUL is cut, never read past */
	memset(path, 'p', sizeof(path));
	ct_cgroup_set_group(&n, 90, 3, path);
	CT_CHECK_INT(strlen(ct_cgroup_path(&n, 90)), CT_CGROUP_PATH_LEN - 1);
	/* more tasks than room: bounded, the newest kept */
	for (pid = 100; pid < 1100; pid++)
		ct_cgroup_set_task(&n, pid, pid + 1000000);
	CT_CHECK_INT(ct_cgroup_task(&n, 1099), 1001099);
	CT_CHECK_INT(ct_cgroup_task(&n, 100), 0);
	ct_cgroup_names_free(&n);
	CT_CHECK_INT(ct_cgroup_task(&n, 1099), 0);
}

void test_cgroup(void)
{
	test_paths();
	test_threads();
	test_refusals();
	test_task_paths();
	test_groups();
	test_names();
}
