// SPDX-License-Identifier: GPL-2.0
/*
 * The one definition of every map and setting the parts share (maps.h),
 * with their initial values, and the programs' license.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#define CT_MAPS_DEFINE
#include "maps.h"

char LICENSE[] SEC("license") = "GPL";
