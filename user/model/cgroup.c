// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 groups for -G: resolving a path, listing a group's threads. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "base/htab.h"
#include "model/cgroup.h"

/* the initial cgroup namespace's inode number (PROC_CGROUP_INIT_INO) */
#define CT_INIT_CGROUP_NS	"cgroup:[4026531835]"

/* Copy one mountinfo field from @s to @out, undoing \ooo escapes */
static const char *ct_mi_field(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' &&
		    s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') << 6 | (s[1] - '0') << 3 | (s[2] - '0'));
			s += 3;
		}
		if (n + 1 >= size)
			return NULL;
		out[n++] = c;
	}
	out[n] = '\0';
	return s;
}

/* Does mount point @mnt hold @real? Returns what follows it, or NULL */
static const char *ct_under_mount(const char *real, const char *mnt)
{
	size_t len = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return real;
	if (strncmp(real, mnt, len) || (real[len] && real[len] != '/'))
		return NULL;
	return real + len;
}

/*
 * One mountinfo line: its root, mount point and type. Returns 0, or
 * -EINVAL when the line is not mountinfo's.
 */
static int ct_mi_line(const char *line, char root[PATH_MAX],
		      char mnt[PATH_MAX], char type[64])
{
	const char *s = line, *eol = strchr(line, '\n');
	char field[PATH_MAX];
	int i;

	for (i = 0; i < 3; i++)	/* id, parent, major:minor */
		if (!(s = ct_mi_field(s, field, sizeof(field))) || !field[0])
			return -EINVAL;
	if (!(s = ct_mi_field(s, root, PATH_MAX)) || root[0] != '/')
		return -EINVAL;
	if (!(s = ct_mi_field(s, mnt, PATH_MAX)) || mnt[0] != '/')
		return -EINVAL;
	s = strstr(s, " - ");
	if (!s || (eol && s > eol) || !ct_mi_field(s + 3, type, 64) || !type[0])
		return -EINVAL;
	return 0;
}

int ct_cgroup_path_in(const char *mountinfo, const char *real, char *path,
		      size_t size)
{
	char root[PATH_MAX], mnt[PATH_MAX], type[64], best[PATH_MAX * 2];
	size_t best_len = 0;
	bool found = false;
	const char *line, *rest;
	int err;

	if (real[0] != '/')
		return -EINVAL;
	for (line = mountinfo; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		if (*line == '\n')
			continue;
		err = ct_mi_line(line, root, mnt, type);
		if (err)
			return err;
		if (strcmp(type, "cgroup2") || !(rest = ct_under_mount(real, mnt)))
			continue;
		if (found && strlen(mnt) < best_len)
			continue;
		found = true;
		best_len = strlen(mnt);
		snprintf(best, sizeof(best), "%s%s", strcmp(root, "/") ? root : "",
			 rest);
	}
	if (!found)
		return -ENOENT;
	/* the hierarchy's root is "", a group "/a/b" */
	while ((rest = strstr(best, "//")))
		memmove((char *)rest, rest + 1, strlen(rest));
	if (!strcmp(best, "/"))
		best[0] = '\0';
	if (best[0] && best[strlen(best) - 1] == '/')
		best[strlen(best) - 1] = '\0';
	if (strlen(best) >= size)
		return -ENAMETOOLONG;
	strcpy(path, best);
	return 0;
}

uint32_t ct_cgroup_level(const char *path)
{
	uint32_t level = 0;

	for (; *path; path++)
		if (*path == '/' && path[1] && path[1] != '/')
			level++;
	return level;
}

/* /proc/self/mountinfo, whole, NUL-terminated; NULL on failure */
static char *ct_read_mountinfo(void)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap), *bigger;
	ssize_t n;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 < cap)
			continue;
		if (cap >= 1 << 26)
			goto fail;
		bigger = realloc(buf, cap * 2);
		if (!bigger)
			goto fail;
		buf = bigger;
		cap *= 2;
	}
	if (n < 0)
		goto fail;
	buf[len] = '\0';
	close(fd);
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* Paths from the hierarchy's root are the kernel's only in its namespace */
static bool ct_in_init_cgroup_ns(void)
{
	char link[64];
	ssize_t n = readlink("/proc/self/ns/cgroup", link, sizeof(link) - 1);

	if (n < 0)
		return true;	/* no cgroup namespaces: there is one */
	link[n] = '\0';
	return !strcmp(link, CT_INIT_CGROUP_NS);
}

int ct_cgroup_resolve(const char *arg, struct ct_cgroup *cg, FILE *err,
		      const char *cmd)
{
	char real[PATH_MAX], *mountinfo;
	struct statfs fs;
	struct stat st;
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->arg = arg;
	if (stat(arg, &st) || !S_ISDIR(st.st_mode) || statfs(arg, &fs) ||
	    (uint32_t)fs.f_type != CT_CGROUP2_MAGIC || !realpath(arg, real)) {
		fprintf(err, "coretrace %s: -G %s: not a cgroup v2 directory\n",
			cmd, arg);
		return -EINVAL;
	}
	if (!ct_in_init_cgroup_ns()) {
		fprintf(err, "coretrace %s: -G needs coretrace in the host's cgroup namespace, where group paths are the kernel's\n",
			cmd);
		return -EINVAL;
	}
	mountinfo = ct_read_mountinfo();
	if (!mountinfo) {
		fprintf(err, "coretrace %s: cannot read /proc/self/mountinfo: %s\n",
			cmd, strerror(errno ? errno : ENOMEM));
		return -EIO;
	}
	ret = ct_cgroup_path_in(mountinfo, real, cg->path, sizeof(cg->path));
	free(mountinfo);
	if (ret == -ENAMETOOLONG) {
		fprintf(err, "coretrace %s: -G %s: its path from the cgroup root is longer than %d bytes\n",
			cmd, arg, CT_CGROUP_PATH_LEN - 1);
		return ret;
	}
	if (ret) {
		fprintf(err, "coretrace %s: -G %s: no cgroup2 mount holds it in /proc/self/mountinfo\n",
			cmd, arg);
		return ret;
	}
	/* a kernfs inode number is the cgroup's id on 64-bit machines */
	cg->id = (uint64_t)st.st_ino;
	cg->level = ct_cgroup_level(cg->path);
	return 0;
}

/* The threads in @dir's cgroup.threads; returns their count or -errno */
static int ct_cgroup_threads_of(int dirfd, int (*fn)(uint32_t, void *),
				void *arg)
{
	int fd = openat(dirfd, "cgroup.threads", O_RDONLY | O_CLOEXEC);
	char line[32];
	int n = 0, ret = 0;
	FILE *f;

	if (fd < 0)
		return -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long tid = strtoul(line, &end, 10);

		if (end == line || (*end != '\n' && *end) || !tid ||
		    tid > UINT32_MAX || line[0] < '0' || line[0] > '9')
			ret = -EINVAL;
		else if (!(ret = fn((uint32_t)tid, arg)))
			n++;
	}
	fclose(f);
	return ret ? ret : n;
}

static int ct_cgroup_walk(int dirfd, unsigned int depth,
			  int (*fn)(uint32_t, void *), void *arg)
{
	int n = ct_cgroup_threads_of(dirfd, fn, arg), sub, subfd;
	struct dirent *de;
	DIR *dir;

	if (n < 0 || !depth)
		return n;
	subfd = dup(dirfd);
	if (subfd < 0 || !(dir = fdopendir(subfd))) {
		if (subfd >= 0)
			close(subfd);
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		subfd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (subfd < 0)
			continue;	/* removed while we read */
		sub = ct_cgroup_walk(subfd, depth - 1, fn, arg);
		close(subfd);
		if (sub == -ENOENT)
			continue;	/* likewise */
		if (sub < 0) {
			n = sub;
			break;
		}
		n += sub;
	}
	closedir(dir);
	return n;
}

int ct_cgroup_threads(const char *dir, unsigned int max_depth,
		      int (*fn)(uint32_t tid, void *arg), void *arg)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	n = ct_cgroup_walk(fd, max_depth, fn, arg);
	close(fd);
	return n;
}

int ct_cgroup_mount(const char *mountinfo, char *mnt, size_t size)
{
	char root[PATH_MAX], point[PATH_MAX], type[64];
	const char *line;
	int err;

	for (line = mountinfo; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		if (*line == '\n')
			continue;
		err = ct_mi_line(line, root, point, type);
		if (err)
			return err;
		if (strcmp(type, "cgroup2") || strcmp(root, "/"))
			continue;
		if (strlen(point) >= size)
			return -ENAMETOOLONG;
		strcpy(mnt, point);
		return 0;
	}
	return -ENOENT;
}

int ct_cgroup_find_mount(char *mnt, size_t size)
{
	char *mountinfo = ct_read_mountinfo();
	int err;

	if (!mountinfo)
		return -EIO;
	err = ct_cgroup_mount(mountinfo, mnt, size);
	free(mountinfo);
	return err;
}

struct ct_groups_walk {
	int (*fn)(uint64_t id, uint32_t level, const char *path, void *arg);
	void *arg;
	char path[CT_CGROUP_PATH_LEN];
};

/* @w->path is @dirfd's path; its length @len; returns groups or -errno */
static int ct_groups_at(struct ct_groups_walk *w, int dirfd, size_t len,
			uint32_t level, unsigned int depth)
{
	struct stat st;
	struct dirent *de;
	int n = 1, sub, subfd;
	DIR *dir;

	if (fstat(dirfd, &st))
		return -errno;
	sub = w->fn((uint64_t)st.st_ino, level, len ? w->path : "/", w->arg);
	if (sub < 0 || !depth)
		return sub < 0 ? sub : n;
	subfd = dup(dirfd);
	if (subfd < 0 || !(dir = fdopendir(subfd))) {
		if (subfd >= 0)
			close(subfd);
		return -errno;
	}
	while ((de = readdir(dir))) {
		size_t name_len = strlen(de->d_name);

		if (de->d_type != DT_DIR || de->d_name[0] == '.' ||
		    len + 1 + name_len >= sizeof(w->path))
			continue;	/* a path too long to announce */
		subfd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (subfd < 0)
			continue;	/* removed while we read */
		w->path[len] = '/';
		memcpy(w->path + len + 1, de->d_name, name_len + 1);
		sub = ct_groups_at(w, subfd, len + 1 + name_len, level + 1, depth - 1);
		w->path[len] = '\0';
		close(subfd);
		if (sub < 0) {
			n = sub;
			break;
		}
		n += sub;
	}
	closedir(dir);
	return n;
}

int ct_cgroup_groups(const char *mnt, unsigned int max_depth,
		     int (*fn)(uint64_t id, uint32_t level, const char *path,
			       void *arg), void *arg)
{
	struct ct_groups_walk w = { fn, arg, "" };
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	n = ct_groups_at(&w, fd, 0, 0, max_depth);
	close(fd);
	return n;
}

int ct_cgroup_of_task(const char *text, char *path, size_t size)
{
	const char *line, *end;
	size_t len;

	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		if (strncmp(line, "0::/", 4))
			continue;
		end = strchr(line, '\n');
		len = end ? (size_t)(end - line - 3) : strlen(line + 3);
		if (len >= size)
			return -ENAMETOOLONG;
		memcpy(path, line + 3, len);
		path[len] = '\0';
		return 0;
	}
	return -ENOENT;
}

#define CT_CG_PROBES	16

static uint32_t ct_pow2(uint32_t want)
{
	uint32_t size = 16;

	while (size < want && size < (1u << 24))
		size <<= 1;
	return size;
}

int ct_cgroup_names_init(struct ct_cgroup_names *n, uint32_t tasks,
			 uint32_t groups)
{
	memset(n, 0, sizeof(*n));
	tasks = ct_pow2(tasks);
	groups = ct_pow2(groups);
	n->tasks = calloc(tasks, sizeof(*n->tasks));
	n->groups = calloc(groups, sizeof(*n->groups));
	if (!n->tasks || !n->groups) {
		ct_cgroup_names_free(n);
		return -ENOMEM;
	}
	n->task_mask = tasks - 1;
	n->group_mask = groups - 1;
	return 0;
}

static void ct_touch(void *mem, size_t size)
{
	volatile char *p = mem;
	size_t off;

	/* calloc's pages are zero: write a zero to each so it is mapped */
	for (off = 0; p && off < size; off += 4096)
		p[off] = 0;
}

void ct_cgroup_names_prefault(struct ct_cgroup_names *n)
{
	ct_touch(n->tasks, ((size_t)n->task_mask + 1) * sizeof(*n->tasks));
	ct_touch(n->groups, ((size_t)n->group_mask + 1) * sizeof(*n->groups));
}

void ct_cgroup_names_free(struct ct_cgroup_names *n)
{
	free(n->tasks);
	free(n->groups);
	memset(n, 0, sizeof(*n));
}

static uint32_t ct_cg_stamp(struct ct_cgroup_names *n)
{
	if (++n->stamp == 0)
		n->stamp = 1;
	return n->stamp;
}

void ct_cgroup_set_task(struct ct_cgroup_names *n, uint32_t pid, uint64_t id)
{
	struct ct_probe probe = ct_probe(pid, n->task_mask, CT_CG_PROBES);
	struct ct_cg_task *victim = NULL, *slot;
	uint32_t at;

	if (!n->tasks)
		return;
	/* every slot tried taken: the one set longest ago goes */
	while (ct_probe_next(&probe, &at)) {
		slot = &n->tasks[at];
		if (!slot->used || slot->pid == pid) {
			victim = slot;
			break;
		}
		if (!victim || slot->used < victim->used)
			victim = slot;
	}
	victim->pid = pid;
	victim->id = id;
	victim->used = ct_cg_stamp(n);
}

uint64_t ct_cgroup_task(const struct ct_cgroup_names *n, uint32_t pid)
{
	struct ct_probe probe = ct_probe(pid, n->task_mask, CT_CG_PROBES);
	const struct ct_cg_task *slot;
	uint32_t at;

	while (n->tasks && ct_probe_next(&probe, &at)) {
		slot = &n->tasks[at];
		if (!slot->used)
			return 0;
		if (slot->pid == pid)
			return slot->id;
	}
	return 0;
}

void ct_cgroup_set_group(struct ct_cgroup_names *n, uint64_t id,
			 uint32_t level, const char *path)
{
	struct ct_probe probe = ct_probe(id, n->group_mask, CT_CG_PROBES);
	struct ct_cg_group *victim = NULL, *slot;
	size_t len;
	uint32_t at;

	if (!n->groups)
		return;
	while (ct_probe_next(&probe, &at)) {
		slot = &n->groups[at];
		if (!slot->used || slot->id == id) {
			victim = slot;
			break;
		}
		if (!victim || slot->used < victim->used)
			victim = slot;
	}
	len = strnlen(path, CT_CGROUP_PATH_LEN - 1);
	victim->id = id;
	victim->level = level;
	memcpy(victim->path, path, len);
	victim->path[len] = '\0';
	victim->used = ct_cg_stamp(n);
}

const char *ct_cgroup_path(const struct ct_cgroup_names *n, uint64_t id)
{
	struct ct_probe probe = ct_probe(id, n->group_mask, CT_CG_PROBES);
	const struct ct_cg_group *slot;
	uint32_t at;

	while (n->groups && ct_probe_next(&probe, &at)) {
		slot = &n->groups[at];
		if (!slot->used)
			return NULL;
		if (slot->id == id)
			return slot->path;
	}
	return NULL;
}

void ct_cgroup_learn(struct ct_cgroup_names *n, int type, const void *rec)
{
	const struct ct_task_cgroup *t = rec;
	const struct ct_cgroup_name *g = rec;

	if (type == CT_EV_TASK_CGROUP)
		ct_cgroup_set_task(n, t->pid, t->cgroup_id);
	else if (type == CT_EV_CGROUP_NAME)
		ct_cgroup_set_group(n, g->cgroup_id, g->level, g->path);
}
