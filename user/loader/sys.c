// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "loader/sys.h"

static bool ct_cap_effective(const struct __user_cap_data_struct *data,
			     unsigned int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool ct_can_trace(void)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (syscall(SYS_capget, &header, data))
		return geteuid() == 0;
	return ct_cap_effective(data, CAP_SYS_ADMIN) ||
	       (ct_cap_effective(data, CAP_BPF) &&
		ct_cap_effective(data, CAP_PERFMON));
}

bool ct_kernel_has_btf(void)
{
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0;
}

const char *ct_tracefs_events(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!stat(dirs[i], &st) && S_ISDIR(st.st_mode))
			return dirs[i];
	return NULL;
}

bool ct_tracepoint_exists(const char *events_dir, const char *category,
			  const char *name)
{
	char path[512];
	int n;

	n = snprintf(path, sizeof(path), "%s/%s/%s/id", events_dir, category,
		     name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	return access(path, R_OK) == 0;
}
