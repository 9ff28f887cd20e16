/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of user frames (record -g), which the kernel gives as the build
 * ID of the file mapped there and an offset in that file (or, when it
 * could not read the build ID then, the address). Names come from:
 *  - a capture: the modules (build ID -> path) and the frame names it
 *    carries (coretrace_module, coretrace_usym), learnt as it is read;
 *  - live (record), the process itself: /proc/PID/maps says which file
 *    is mapped where (opened in its root, so a container's files are its
 *    own, by the file broker: broker.h), and the file's ELF symbols name
 *    the frame;
 *  - the reading machine: the path the capture gives, when the file there
 *    has the same build ID, or a debug file found by build ID under
 *    /usr/lib/debug/.build-id and the --debug-dir given (elfutils'
 *    libdwfl reads them, and finds separate debug files the same way).
 * A file whose build ID differs is never used: a frame without a name
 * prints as its module and offset.
 *
 * Bounded: modules and names in tables sized once; processes whose maps
 * were read are remembered in a fixed table, each read at most a few
 * times.
 */
#ifndef CORETRACE_USYMS_H
#define CORETRACE_USYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ct_control.h"

struct ct_usyms;

/* @live: frames may be named from /proc; NULL when out of memory */
struct ct_usyms *ct_usyms_new(bool live);
void ct_usyms_free(struct ct_usyms *u);

/* Live: other processes' files opened by this broker (NULL: directly) */
struct ct_broker;
void ct_usyms_set_broker(struct ct_usyms *u, struct ct_broker *b);

/* A directory to search for files by build ID (DIR/.build-id/xx/...) */
int ct_usyms_add_debug_dir(struct ct_usyms *u, const char *dir);

/* What a capture says: the file of a build ID, a frame's name */
void ct_usyms_set_module(struct ct_usyms *u, const unsigned char *build_id,
			 const char *path);
void ct_usyms_set_name(struct ct_usyms *u, const unsigned char *build_id,
		       uint64_t lookup, const char *name);

/*
 * Live: turn the frames of process @tgid that the kernel gave as
 * addresses into build IDs and offsets, from its maps (while it runs).
 */
void ct_usyms_resolve_ips(struct ct_usyms *u, uint32_t tgid,
			  struct ct_uframe *frames, unsigned int nr);

/*
 * The file offset a frame is named by: the innermost frame's own (@inner:
 * where the task was), a return address's less one (the call before it:
 * a call at a function's very end returns past it)
 */
static inline uint64_t ct_uframe_lookup(const struct ct_uframe *f, bool inner)
{
	return inner || !f->offset ? f->offset : f->offset - 1;
}

/*
 * The name of user frame @f, innermost (@inner) or a return address;
 * NULL when it has none. Names are kept by build ID and the offset
 * ct_uframe_lookup() gives (a capture's coretrace_usym events carry
 * that). The string lives as long as @u.
 */
const char *ct_usyms_name(struct ct_usyms *u, const struct ct_uframe *f,
			  bool inner);

/* The path of the file with @build_id, or NULL when not known */
const char *ct_usyms_module(struct ct_usyms *u, const unsigned char *build_id);

/* What it did: modules known, names given, files read, lookups failed */
struct ct_usyms_stats {
	uint64_t modules, names, maps_read, files_read, unnamed;
};
void ct_usyms_stats(const struct ct_usyms *u, struct ct_usyms_stats *st);

#endif /* CORETRACE_USYMS_H */
