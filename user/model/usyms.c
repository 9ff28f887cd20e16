// SPDX-License-Identifier: GPL-2.0
/*
 * Names of user frames (usyms.h), with elfutils: libelf reads build IDs
 * and program headers, libdwfl the symbols (and finds separate debug
 * files by build ID or debug link).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include "base/broker.h"
#include "base/htab.h"
#include "model/usyms.h"

#define CT_USYMS_MODULES	1024	/* files, by build ID */
#define CT_USYMS_NAMES		65536	/* frames named (or found nameless) */
#define CT_USYMS_PROCS		4096	/* processes whose maps were read */
#define CT_USYMS_PROC_READS	4	/* times one process's maps are read */
#define CT_USYMS_DIRS		8
#define CT_USYMS_SEGS		8
#define CT_USYMS_PROBE		64
/*
 * Scans of every process's maps for a file a process that is gone had
 * mapped (a short-lived one: often its parent, or another instance, maps
 * the same file), at most this many in a recording
 */
#define CT_USYMS_SCANS		16
#define CT_USYMS_SEARCHED	64	/* build IDs remembered as looked for */

struct ct_umod {
	unsigned char id[CT_BUILD_ID_SIZE];
	bool used;
	int state;		/* 0: not opened yet, 1: open, -1: no file */
	char *path;		/* the file as its process saw it */
	char *proc_path;	/* the same through /proc/PID/root, or NULL */
	dev_t dev;		/* of the file, once read here */
	ino_t ino;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct {
		uint64_t off, filesz, vaddr;
	} seg[CT_USYMS_SEGS];
	int nseg;
};

struct ct_uname {
	unsigned char id[CT_BUILD_ID_SIZE];
	bool used;
	uint64_t offset;
	char *name;		/* NULL: looked up, none */
};

struct ct_uproc {
	uint32_t tgid;
	uint32_t reads;
};

/* files found to be no ELF with a build ID, not opened again */
#define CT_USYMS_BAD		256

struct ct_usyms {
	bool live;
	struct ct_umod *mods;
	struct ct_uname *names;
	struct ct_uproc *procs;
	char *dirs[CT_USYMS_DIRS];
	int ndirs;
	char *debuginfo_path;
	Dwfl_Callbacks callbacks;
	unsigned int scans;
	struct {
		dev_t dev;
		ino_t ino;
	} bad[CT_USYMS_BAD];
	unsigned int nbad;
	struct ct_usyms_stats st;
	struct ct_broker *broker;	/* opens other processes' files */
	unsigned char searched[CT_USYMS_SEARCHED][CT_BUILD_ID_SIZE];
	unsigned int nsearched;		/* build IDs a scan looked for */
};

void ct_usyms_set_broker(struct ct_usyms *u, struct ct_broker *b)
{
	u->broker = b;
}

struct ct_usyms *ct_usyms_new(bool live)
{
	struct ct_usyms *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	elf_version(EV_CURRENT);
	u->live = live;
	u->mods = calloc(CT_USYMS_MODULES, sizeof(*u->mods));
	u->names = calloc(CT_USYMS_NAMES, sizeof(*u->names));
	u->procs = calloc(CT_USYMS_PROCS, sizeof(*u->procs));
	/* separate debug files: beside the file, in .debug, /usr/lib/debug */
	u->debuginfo_path = strdup("-:.debug:/usr/lib/debug");
	if (!u->mods || !u->names || !u->procs || !u->debuginfo_path) {
		ct_usyms_free(u);
		return NULL;
	}
	u->callbacks.find_elf = dwfl_build_id_find_elf;
	u->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	u->callbacks.debuginfo_path = &u->debuginfo_path;
	return u;
}

void ct_usyms_free(struct ct_usyms *u)
{
	int i;

	if (!u)
		return;
	for (i = 0; u->mods && i < CT_USYMS_MODULES; i++) {
		if (u->mods[i].dwfl)
			dwfl_end(u->mods[i].dwfl);
		free(u->mods[i].path);
		free(u->mods[i].proc_path);
	}
	for (i = 0; u->names && i < CT_USYMS_NAMES; i++)
		free(u->names[i].name);
	for (i = 0; i < u->ndirs; i++)
		free(u->dirs[i]);
	free(u->mods);
	free(u->names);
	free(u->procs);
	free(u->debuginfo_path);
	free(u);
}

int ct_usyms_add_debug_dir(struct ct_usyms *u, const char *dir)
{
	char *path;

	if (u->ndirs == CT_USYMS_DIRS)
		return -ENOSPC;
	u->dirs[u->ndirs] = strdup(dir);
	if (!u->dirs[u->ndirs])
		return -ENOMEM;
	/* libdwfl looks for separate debug files there too */
	if (asprintf(&path, "%s:%s", u->debuginfo_path, dir) < 0)
		return -ENOMEM;
	free(u->debuginfo_path);
	u->debuginfo_path = path;
	u->ndirs++;
	return 0;
}

static uint64_t ct_id_key(const unsigned char *id)
{
	uint64_t key;

	memcpy(&key, id, sizeof(key));
	return key;
}

/* The module of @id (made when @make), or NULL */
static struct ct_umod *ct_umod(struct ct_usyms *u, const unsigned char *id,
			       bool make)
{
	struct ct_probe probe = ct_probe(ct_id_key(id), CT_USYMS_MODULES - 1,
					 CT_USYMS_PROBE);
	struct ct_umod *m;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		m = &u->mods[at];
		if (m->used && !memcmp(m->id, id, CT_BUILD_ID_SIZE))
			return m;
		if (!m->used) {
			if (!make)
				return NULL;
			memcpy(m->id, id, CT_BUILD_ID_SIZE);
			m->used = true;
			u->st.modules++;
			return m;
		}
	}
	return NULL;
}

void ct_usyms_set_module(struct ct_usyms *u, const unsigned char *build_id,
			 const char *path)
{
	struct ct_umod *m = ct_umod(u, build_id, true);

	if (m && !m->path)
		m->path = strdup(path);
}

const char *ct_usyms_module(struct ct_usyms *u, const unsigned char *build_id)
{
	struct ct_umod *m = ct_umod(u, build_id, false);

	return m ? m->path : NULL;
}

/* The name slot of (@id, @offset), made when @make */
static struct ct_uname *ct_uname(struct ct_usyms *u, const unsigned char *id,
				 uint64_t offset, bool make)
{
	struct ct_probe probe = ct_probe(ct_id_key(id) ^ offset * 0x9e3779b97f4a7c15ull,
					 CT_USYMS_NAMES - 1, CT_USYMS_PROBE);
	struct ct_uname *n;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		n = &u->names[at];
		if (n->used && n->offset == offset &&
		    !memcmp(n->id, id, CT_BUILD_ID_SIZE))
			return n;
		if (!n->used) {
			if (!make)
				return NULL;
			memcpy(n->id, id, CT_BUILD_ID_SIZE);
			n->offset = offset;
			n->used = true;
			return n;
		}
	}
	return NULL;
}

void ct_usyms_set_name(struct ct_usyms *u, const unsigned char *build_id,
		       uint64_t offset, const char *name)
{
	struct ct_uname *n = ct_uname(u, build_id, offset, true);

	if (n && !n->name) {
		n->name = strdup(name);
		u->st.names++;
	}
}

/* The build ID of the ELF file open at @fd into @id; 0 or -1 */
static int ct_file_build_id(int fd, unsigned char *id)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits;
	ssize_t n;

	if (!e)
		return -1;
	n = dwelf_elf_gnu_build_id(e, &bits);
	if (n > 0) {
		memset(id, 0, CT_BUILD_ID_SIZE);
		memcpy(id, bits, n < CT_BUILD_ID_SIZE ? (size_t)n : CT_BUILD_ID_SIZE);
	}
	elf_end(e);
	return n > 0 ? 0 : -1;
}

/* A file of @tgid: its path through the process's root, into @buf */
static const char *ct_proc_path(uint32_t tgid, const char *path, char *buf,
				size_t len)
{
	snprintf(buf, len, "/proc/%u/root%s", tgid, path);
	return buf;
}

/* Open @fd as a regular file only (not a device, a FIFO...); @fd or -1 */
static int ct_regular(int fd)
{
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool ct_known_bad(const struct ct_usyms *u, dev_t dev, ino_t ino)
{
	unsigned int i;

	for (i = 0; i < CT_USYMS_BAD && i < u->nbad; i++)
		if (u->bad[i].dev == dev && u->bad[i].ino == ino)
			return true;
	return false;
}

/* The module of file @path of @tgid (dev:ino @dev/@ino), learnt */
static struct ct_umod *ct_learn_file(struct ct_usyms *u, uint32_t tgid,
				     const char *path, dev_t dev, ino_t ino)
{
	unsigned char id[CT_BUILD_ID_SIZE];
	char ppath[4200];
	struct ct_umod *m;
	int i, fd;

	for (i = 0; i < CT_USYMS_MODULES; i++) {
		m = &u->mods[i];
		if (m->used && m->ino == ino && m->dev == dev && m->path &&
		    !strcmp(m->path, path))
			return m;
	}
	if (ct_known_bad(u, dev, ino))
		return NULL;
	ct_proc_path(tgid, path, ppath, sizeof(ppath));
	/* inside its root, a regular file only (broker.c) */
	fd = ct_broker_open(u->broker, tgid, path);
	if (fd >= 0)
		u->st.files_read++;
	if (fd < 0 || ct_file_build_id(fd, id)) {
		if (fd >= 0)
			close(fd);
		/* no ELF file with a build ID: not opened again */
		u->bad[u->nbad % CT_USYMS_BAD].dev = dev;
		u->bad[u->nbad % CT_USYMS_BAD].ino = ino;
		u->nbad++;
		return NULL;
	}
	close(fd);
	m = ct_umod(u, id, true);
	if (!m)
		return NULL;
	if (!m->path)
		m->path = strdup(path);
	if (!m->proc_path)
		m->proc_path = strdup(ppath);
	m->dev = dev;
	m->ino = ino;
	return m;
}

/*
 * May @tgid's maps be read (once more)? A process is read a few times at
 * most; when the table is full, a newer process takes its home slot (pids
 * are reused, and a long recording meets many)
 */
static bool ct_proc_may_read(struct ct_usyms *u, uint32_t tgid)
{
	struct ct_probe probe = ct_probe(tgid, CT_USYMS_PROCS - 1, CT_USYMS_PROBE);
	struct ct_uproc *p;
	uint32_t at;

	while (ct_probe_next(&probe, &at)) {
		p = &u->procs[at];
		if (p->tgid == tgid || !p->tgid) {
			p->tgid = tgid;
			return p->reads++ < CT_USYMS_PROC_READS;
		}
	}
	p = &u->procs[ct_probe_home(tgid, CT_USYMS_PROCS - 1)];
	p->tgid = tgid;
	p->reads = 1;
	return true;
}

/*
 * Read @tgid's maps: learn the module of each file mapped, and give the
 * frames given as addresses their file and offset
 */
/* ct_read_maps()'s answers */
#define CT_MAPS_READ		1
#define CT_MAPS_SPARED		0	/* read often enough already */
#define CT_MAPS_GONE		-1	/* the process is gone (or hidden) */

static int ct_read_maps(struct ct_usyms *u, uint32_t tgid,
			struct ct_uframe *frames, unsigned int nr, bool charge)
{
	unsigned long long start, end, off, ino;
	unsigned int major, minor, i;
	char line[4400], file[4096];
	struct ct_umod *m;
	FILE *f;
	int fd;

	if (!u->live || !tgid || (charge && !ct_proc_may_read(u, tgid)))
		return CT_MAPS_SPARED;
	fd = ct_broker_open(u->broker, tgid, NULL);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return CT_MAPS_GONE;
	}
	u->st.maps_read++;
	while (fgets(line, sizeof(line), f)) {
		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %*4s %llx %x:%x %llu %4095[^\n]",
			   &start, &end, &off, &major, &minor, &ino, file) != 7 ||
		    file[0] != '/' || !ino)
			continue;
		m = ct_learn_file(u, tgid, file, makedev(major, minor),
				  (ino_t)ino);
		for (i = 0; m && i < nr; i++) {
			if (frames[i].status != CT_UFRAME_IP ||
			    frames[i].offset < start || frames[i].offset >= end)
				continue;
			frames[i].offset = frames[i].offset - start + off;
			memcpy(frames[i].build_id, m->id, CT_BUILD_ID_SIZE);
			frames[i].status = CT_UFRAME_VALID;
		}
	}
	fclose(f);
	return CT_MAPS_READ;
}

/* Is the file of every frame with a build ID known? */
static bool ct_frames_known(struct ct_usyms *u, const struct ct_uframe *frames,
			    unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (frames[i].status == CT_UFRAME_VALID &&
		    !ct_umod(u, frames[i].build_id, false))
			return false;
	return true;
}

/* Was every build ID of @frames without a file looked for by a scan? */
static bool ct_frames_searched(struct ct_usyms *u, const struct ct_uframe *frames,
			       unsigned int nr)
{
	unsigned int i, j;
	bool seen;

	for (i = 0; i < nr; i++) {
		if (frames[i].status != CT_UFRAME_VALID ||
		    ct_umod(u, frames[i].build_id, false))
			continue;
		seen = false;
		for (j = 0; j < CT_USYMS_SEARCHED && j < u->nsearched && !seen; j++)
			seen = !memcmp(u->searched[j], frames[i].build_id,
				       CT_BUILD_ID_SIZE);
		if (!seen)
			return false;
	}
	return true;
}

/*
 * A process gone before its maps were read: the files of its frames
 * looked for in every other process's maps, until all are known; a build
 * ID looked for once is not looked for again
 */
static void ct_scan_processes(struct ct_usyms *u, const struct ct_uframe *frames,
			      unsigned int nr)
{
	struct dirent *de;
	unsigned long pid;
	unsigned int i;
	char *end;
	DIR *proc;

	if (u->scans >= CT_USYMS_SCANS || ct_frames_searched(u, frames, nr))
		return;
	u->scans++;
	for (i = 0; i < nr; i++)
		if (frames[i].status == CT_UFRAME_VALID &&
		    !ct_umod(u, frames[i].build_id, false))
			memcpy(u->searched[u->nsearched++ % CT_USYMS_SEARCHED],
			       frames[i].build_id, CT_BUILD_ID_SIZE);
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((de = readdir(proc)) && !ct_frames_known(u, frames, nr)) {
		pid = strtoul(de->d_name, &end, 10);
		if (*end || !pid || pid > UINT32_MAX)
			continue;
		ct_read_maps(u, (uint32_t)pid, NULL, 0, false);
	}
	closedir(proc);
}

void ct_usyms_resolve_ips(struct ct_usyms *u, uint32_t tgid,
			  struct ct_uframe *frames, unsigned int nr)
{
	unsigned int i;
	bool read = false;

	for (i = 0; i < nr && !read; i++)
		read = frames[i].status == CT_UFRAME_IP ||
		       (frames[i].status == CT_UFRAME_VALID &&
			!ct_umod(u, frames[i].build_id, false));
	/* only for a process that is gone: one read often is spared */
	if (read && ct_read_maps(u, tgid, frames, nr, true) == CT_MAPS_GONE &&
	    !ct_frames_known(u, frames, nr))
		ct_scan_processes(u, frames, nr);
}

/* Open @path as the file of @m: its build ID must be @m's. 0 or -1 */
static int ct_umod_try(struct ct_usyms *u, struct ct_umod *m, const char *path)
{
	unsigned char id[CT_BUILD_ID_SIZE];
	GElf_Phdr ph;
	size_t i, n;
	Elf *e;
	int fd;

	fd = ct_regular(open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
	if (fd < 0)
		return -1;
	if (ct_file_build_id(fd, id) || memcmp(id, m->id, CT_BUILD_ID_SIZE)) {
		close(fd);
		return -1;
	}
	u->st.files_read++;
	m->dwfl = dwfl_begin(&u->callbacks);
	if (!m->dwfl) {
		close(fd);
		return -1;
	}
	/* libdwfl owns the descriptor once it reported the file */
	m->mod = dwfl_report_elf(m->dwfl, m->path ? m->path : path, path, fd,
				 0, false);
	if (!m->mod)
		close(fd);
	dwfl_report_end(m->dwfl, NULL, NULL);
	e = m->mod ? dwfl_module_getelf(m->mod, &m->bias) : NULL;
	if (!e || elf_getphdrnum(e, &n))
		goto fail;
	for (i = 0; i < n && m->nseg < CT_USYMS_SEGS; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		m->seg[m->nseg].off = ph.p_offset;
		m->seg[m->nseg].filesz = ph.p_filesz;
		m->seg[m->nseg].vaddr = ph.p_vaddr;
		m->nseg++;
	}
	if (m->nseg)
		return 0;
fail:
	dwfl_end(m->dwfl);
	m->dwfl = NULL;
	m->mod = NULL;
	return -1;
}

/* The file of @m, opened once: its own path, then by build ID */
static bool ct_umod_open(struct ct_usyms *u, struct ct_umod *m)
{
	char hex[2 * CT_BUILD_ID_SIZE + 1], path[4200];
	static const char *const suffix[] = { ".debug", "" };
	int i, j;

	if (m->state)
		return m->state > 0;
	m->state = -1;
	if ((m->proc_path && !ct_umod_try(u, m, m->proc_path)) ||
	    (m->path && !ct_umod_try(u, m, m->path))) {
		m->state = 1;
		return true;
	}
	for (i = 0; i < CT_BUILD_ID_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", m->id[i]);
	for (i = -1; i < u->ndirs; i++) {
		for (j = 0; j < 2; j++) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s%s",
				 i < 0 ? "/usr/lib/debug" : u->dirs[i], hex,
				 hex + 2, suffix[j]);
			if (!ct_umod_try(u, m, path)) {
				m->state = 1;
				return true;
			}
		}
	}
	return false;
}

/* The function of @m at file offset @off */
static const char *ct_umod_symbol(struct ct_umod *m, uint64_t off)
{
	GElf_Off symoff;
	GElf_Sym sym;
	GElf_Addr addr;
	const char *name;
	int i;

	for (i = 0; i < m->nseg; i++) {
		if (off < m->seg[i].off || off - m->seg[i].off >= m->seg[i].filesz)
			continue;
		addr = off - m->seg[i].off + m->seg[i].vaddr + m->bias;
		name = dwfl_module_addrinfo(m->mod, addr, &symoff, &sym, NULL,
					    NULL, NULL);
		/* a symbol without a size could be anything's: no name */
		if (!name || !sym.st_size ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
			return NULL;
		return name;
	}
	return NULL;
}

const char *ct_usyms_name(struct ct_usyms *u, const struct ct_uframe *f,
			  bool inner)
{
	uint64_t off = ct_uframe_lookup(f, inner);
	struct ct_uname *n;
	struct ct_umod *m;
	const char *name;

	if (f->status != CT_UFRAME_VALID)
		return NULL;
	n = ct_uname(u, f->build_id, off, false);
	if (n)
		return n->name;
	m = ct_umod(u, f->build_id, true);
	name = m && ct_umod_open(u, m) ? ct_umod_symbol(m, off) : NULL;
	n = ct_uname(u, f->build_id, off, true);
	if (n && name) {
		n->name = strdup(name);
		u->st.names++;
	}
	if (!name)
		u->st.unnamed++;
	return n ? n->name : NULL;
}

void ct_usyms_stats(const struct ct_usyms *u, struct ct_usyms_stats *st)
{
	*st = u->st;
}
