/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock coretrace's user space measures with: CLOCK_MONOTONIC. */
#ifndef CORETRACE_CLOCK_H
#define CORETRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic nanoseconds (the clock BPF's bpf_ktime_get_ns() reads) */
static inline uint64_t ct_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The same, in seconds */
static inline double ct_mono_s(void)
{
	return (double)ct_mono_ns() / 1e9;
}

#endif /* CORETRACE_CLOCK_H */
