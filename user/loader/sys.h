/* SPDX-License-Identifier: GPL-2.0 */
/* What coretrace needs to know about the machine before loading anything. */
#ifndef CORETRACE_SYS_H
#define CORETRACE_SYS_H

#include <stdbool.h>
#include <stddef.h>

/* root, CAP_SYS_ADMIN, or both CAP_BPF and CAP_PERFMON in effect */
bool ct_can_trace(void);

/* the running kernel describes itself in BTF (/sys/kernel/btf/vmlinux) */
bool ct_kernel_has_btf(void);

/* tracefs' events directory, or NULL when tracefs is not mounted */
const char *ct_tracefs_events(void);

/* the running kernel has tracepoint @category/@name */
bool ct_tracepoint_exists(const char *events_dir, const char *category,
			  const char *name);

#endif /* CORETRACE_SYS_H */
